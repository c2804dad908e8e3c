package com.agentwallet.bootstrap.api;

import com.agentwallet.core.testing.AtOnce;
import com.agentwallet.core.testing.Soak;
import com.agentwallet.core.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several server processes on one PostgreSQL and one chain ({@link ServerDeployment}), behind a
 * client that sends each request to the next of them, as a load balancer does.
 *
 * <p>The reliability workload ({@link Workload}) runs across them while one of them at a time, each
 * in turn, at a random moment, is killed with SIGKILL and started again; a request the kill cut off is sent again with
 * the same idempotency key, to whichever server comes next. Then the {@link BankAudit}: money
 * conserved to the micro-USDC, nothing paid twice, no cap exceeded, every event delivered at least
 * once. Last, every server is stopped with SIGTERM and logs no error. System properties as
 * {@link CrashRecoveryTest}'s, but 16 clients by default: while one server restarts the other
 * keeps serving, so the workload makes several times the crash suite's events, and one webhook
 * delivers them one at a time; and {@code reliability.servers} (2; 3 under {@code -Psoak}).
 *
 * <p>And the rate limit: an organisation's bucket is one for the whole deployment, so a burst sent
 * across two servers is allowed the organisation's burst once, not once per server.
 */
class SeveralServersTest {
    private static final Duration UNTIL_STOPPED = Duration.ofHours(6);
    private static final long BURST = 30;

    @Test
    void serversKilledOneAtATimeLoseNoMoneyPayNothingTwiceKeepTheCapsAndDeliverEveryEvent() throws Exception {
        long seed = TestSeed.of("SeveralServersTest", 20_261_128L);
        int count = Math.toIntExact(Soak.length("reliability.servers", 2, 3));
        int clients = Integer.getInteger("reliability.clients", 16);
        int kills = Math.toIntExact(Soak.length("reliability.kills", 2, 8));
        Duration live = Duration.ofSeconds(Soak.length("reliability.seconds", 8, 60));
        Random random = new Random(seed);
        try (ServerDeployment servers = ServerDeployment.start(count, Map.of())) {
            ApiClient client = servers.client();
            DemoOrg org = servers.orgs().get(0);
            List<Integer> killed = new ArrayList<>();
            try (BankAudit audit = BankAudit.watch(client, org, servers.keyStore(), servers.database())) {
                Workload workload = Workload.prepare(client, org, seed, clients, Optional.empty());
                workload.start(clients, UNTIL_STOPPED);
                try {
                    for (int kill = 0; kill < kills; kill++) {
                        Thread.sleep(CrashRecoveryTest.lifetime(live, kills, random).toMillis());
                        int victim = kill % count;
                        killed.add(victim + 1);
                        servers.killAndRestart(victim);
                    }
                    Thread.sleep(CrashRecoveryTest.lifetime(live, kills, random).toMillis());
                } finally {
                    workload.stop();
                }
                Workload.Report report = workload.finish();
                BankAudit.Figures figures = audit.check(report);
                System.out.println("several servers: seed " + seed + ", " + count + " processes on one PostgreSQL, "
                        + kills + " SIGKILLs (servers " + killed + "), " + clients + " clients, " + live.toSeconds()
                        + " s up, " + report.summary() + ", " + figures.line());
            }
            List<List<String>> stopping = servers.terminate();
            for (int i = 0; i < stopping.size(); i++) {
                assertThat(stopping.get(i)).as("what server %d logged as it stopped", i + 1)
                        .noneMatch(line -> line.startsWith("ERROR") || line.startsWith("WARN"));
            }
        }
    }

    @Test
    void aBurstSentAcrossTwoServersIsAllowedTheOrganisationsBurstOnce() throws Exception {
        try (ServerDeployment servers = ServerDeployment.start(2, Map.of("api.rateLimit.burst", Long.toString(BURST),
                "api.rateLimit.perSecond", "1"))) {
            // The second organisation: the servers' readiness checks spent some of the first's budget.
            DemoOrg org = servers.orgs().get(1);
            ApiClient client = servers.client();
            int requests = Math.toIntExact(3 * BURST);
            List<Callable<Integer>> gets = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                gets.add(() -> client.get("/wallets", org.viewerKey()).status());
            }
            long started = System.nanoTime();
            List<Integer> statuses = AtOnce.call(16, gets);
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            long allowed = statuses.stream().filter(status -> status == 200).count();
            long limited = statuses.stream().filter(status -> status == 429).count();
            // The bucket refills at 1 a second while the burst is under way.
            long refilled = took.toSeconds() + 1;
            System.out.println("burst across 2 servers: " + requests + " requests in " + took.toMillis() + " ms, "
                    + allowed + " allowed (the organisation's burst " + BURST + ", up to " + refilled
                    + " refilled meanwhile), " + limited + " answered 429; a bucket per server would allow "
                    + 2 * BURST);
            assertThat(allowed + limited).as("every answer 200 or 429").isEqualTo(requests);
            assertThat(allowed).isBetween(BURST, BURST + refilled);
        }
    }
}
