package com.agentwallet.adapters.persistence;

import com.agentwallet.core.port.ScheduledRuns;
import com.agentwallet.core.testing.AtOnce;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A periodic job's runs shared by processes (each a pool of its own over one database): of claims
 * at once one takes the run; none is taken again until the period has passed; jobs are apart.
 */
class PostgresScheduledRunsTest {
    private static final Duration EVERY = Duration.ofMinutes(5);
    private static final Instant START = Instant.parse("2026-11-28T05:00:00Z");
    private static HikariDataSource pool;
    private static HikariDataSource otherPool;

    @BeforeAll
    static void createDatabase() {
        pool = TestDatabase.fresh(8);
        otherPool = PgBooks.reopen(pool, 8);
    }

    @AfterAll
    static void closeDatabase() {
        otherPool.close();
        pool.close();
    }

    @BeforeEach
    void noRunsYet() {
        TestDatabase.truncateAll(pool);
    }

    @Test
    void ofProcessesClaimingAtOnceOneRunsTheJob() throws Exception {
        List<ScheduledRuns> processes = List.of(runs(pool), runs(otherPool));
        List<Callable<Boolean>> claims = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            ScheduledRuns process = processes.get(i % 2);
            claims.add(() -> process.claim("reconciliation", START, EVERY));
        }
        assertThat(AtOnce.call(8, claims)).containsOnlyOnce(true);
    }

    @Test
    void aRunIsTakenAgainOnlyOnceItsPeriodHasPassed() {
        ScheduledRuns one = runs(pool);
        ScheduledRuns other = runs(otherPool);
        assertThat(one.claim("reconciliation", START, EVERY)).isTrue();
        assertThat(other.claim("reconciliation", START.plus(EVERY).minusMillis(1), EVERY)).isFalse();
        assertThat(one.claim("reconciliation", START.plus(EVERY).minusMillis(1), EVERY)).isFalse();
        assertThat(other.claim("another job", START, EVERY)).as("another job's runs are its own").isTrue();
        assertThat(other.claim("reconciliation", START.plus(EVERY), EVERY)).isTrue();
        assertThat(one.claim("reconciliation", START.plus(EVERY).plusSeconds(1), EVERY)).isFalse();
    }

    private static ScheduledRuns runs(HikariDataSource database) {
        return new JdbiScheduledRuns(Postgres.jdbi(database));
    }
}
