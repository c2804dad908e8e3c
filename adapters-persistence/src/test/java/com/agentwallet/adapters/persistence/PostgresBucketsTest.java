package com.agentwallet.adapters.persistence;

import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.edge.limit.MemoryBuckets;
import com.agentwallet.edge.limit.RateLimit;
import com.agentwallet.edge.limit.RateLimits;
import com.agentwallet.edge.limit.TokenBucket;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Organisations' token buckets in PostgreSQL: two processes (two pools, two {@link RateLimits}) on
 * one database draw from one bucket, so a burst spread over both is refused at the organisation's
 * budget, not twice it; and the database applies the same arithmetic as the buckets in memory.
 */
class PostgresBucketsTest {
    private static final RateLimit LIMIT = new RateLimit(5, 20);

    private static HikariDataSource onePool;
    private static HikariDataSource otherPool;

    @BeforeAll
    static void createDatabase() {
        onePool = TestDatabase.fresh(4);
        otherPool = Postgres.pool(onePool.getJdbcUrl(), onePool.getUsername(), onePool.getPassword(), 4);
    }

    @AfterAll
    static void closeDatabase() {
        otherPool.close();
        onePool.close();
    }

    @Test
    void aBurstSpreadOverTwoProcessesIsRefusedAtTheOrganisationsBudget() throws Exception {
        MutableClock clock = MutableClock.atTestEpoch();
        List<RateLimits> processes = List.of(
                new RateLimits(LIMIT, Map.of(), clock, new PostgresBuckets(Postgres.jdbi(onePool))),
                new RateLimits(LIMIT, Map.of(), clock, new PostgresBuckets(Postgres.jdbi(otherPool))));
        int requests = 3 * (int) LIMIT.burst();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            List<Future<RateLimits.Outcome>> outcomes = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                RateLimits process = processes.get(i % 2);
                outcomes.add(callers.submit(() -> {
                    start.await();
                    return process.takeForOrg("org_burst");
                }));
            }
            start.countDown();
            int allowed = 0;
            for (Future<RateLimits.Outcome> outcome : outcomes) {
                allowed += outcome.get().allowed() ? 1 : 0;
            }

            assertThat(allowed).as("the burst of one organisation, shared by both processes").isEqualTo(LIMIT.burst());
            RateLimits.Outcome refused = processes.get(0).takeForOrg("org_burst");
            assertThat(refused.headers()).containsEntry("X-RateLimit-Remaining", "0")
                    .containsEntry("X-RateLimit-Limit", "20").containsEntry("Retry-After", "1");
            assertThat(processes.get(1).takeForOrg("org_other").allowed()).as("another organisation's bucket").isTrue();
            clock.advance(Duration.ofMillis(200));
            assertThat(processes.get(1).takeForOrg("org_burst").allowed()).as("one token refilled after 1/5 s").isTrue();
            assertThat(processes.get(0).takeForOrg("org_burst").allowed()).as("and only one").isFalse();
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void theDatabaseDrawsExactlyAsTheBucketsInMemory() {
        PostgresBuckets database = new PostgresBuckets(Postgres.jdbi(onePool));
        MemoryBuckets memory = new MemoryBuckets(10);
        Random random = new Random(41);
        Instant now = Instant.parse("2026-11-22T10:00:00Z");
        for (int i = 0; i < 300; i++) {
            // mostly forward by a few milliseconds, sometimes back: another process's clock behind
            now = now.plusNanos((random.nextInt(400) - 40) * 1_000_000L + random.nextInt(1000) * 1000L);
            TokenBucket.Draw expected = memory.take("org_same", LIMIT, now);

            assertThat(database.take("org_same", LIMIT, now)).as("take %d at %s", i, now).isEqualTo(expected);
        }
    }

    @Test
    void takesArrivingTogetherDrawOneAfterTheOtherFromOneBucket() throws Exception {
        PostgresBuckets database = new PostgresBuckets(Postgres.jdbi(onePool));
        Instant now = Instant.parse("2026-11-22T10:00:00Z");
        int takers = 40;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService callers = Executors.newFixedThreadPool(takers);
        try {
            List<Future<TokenBucket.Draw>> draws = new ArrayList<>();
            for (int i = 0; i < takers; i++) {
                draws.add(callers.submit(() -> {
                    start.await();
                    return database.take("org_together", LIMIT, now);
                }));
            }
            start.countDown();
            List<Long> remaining = new ArrayList<>();
            for (Future<TokenBucket.Draw> draw : draws) {
                if (draw.get().taken()) {
                    remaining.add(draw.get().remaining());
                }
            }

            assertThat(remaining).as("each token once, whatever the batches")
                    .containsExactlyInAnyOrderElementsOf(LongStream.range(0, LIMIT.burst()).boxed().toList());
        } finally {
            callers.shutdownNow();
        }
    }
}
