package com.agentwallet.bootstrap.api;

import com.agentwallet.core.testing.Soak;
import com.agentwallet.core.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The books across crashes: the server runs as a process of its own under the {@link Workload}
 * and is killed with SIGKILL at random moments, several times, each time started again on the same
 * data directory and ports. The clients keep going: a request the kill cut off, or that found no
 * server, is sent again with the same idempotency key until the restarted server answers. Then the
 * {@link BankAudit}, whose receiver ran through every restart: money conserved to the micro-USDC,
 * each idempotency key exactly one payment (none paid twice, each sink holding exactly the distinct
 * payments to it), every committed event delivered at least once. Last, the server is stopped as a
 * service manager stops it (SIGTERM): it exits, its PostgreSQL stopped after its workers, with no
 * error logged.
 *
 * <p>System properties: {@code reliability.kills} (2; 8 under {@code -Psoak}),
 * {@code reliability.seconds} the time the server is up under load, split at random between the
 * kills (8 s; 60 s under {@code -Psoak}), {@code reliability.clients} (default 32). The seed is
 * fixed ({@link TestSeed}); the figures line and any failure print it.
 */
class CrashRecoveryTest {
    /** Longer than any run: the test stops the workload itself once the last restarted server has run its share. */
    private static final Duration UNTIL_STOPPED = Duration.ofHours(6);
    private static final Duration SHORTEST_LIFE = Duration.ofSeconds(2);

    @Test
    void killedServersLoseNoMoneyPayNothingTwiceAndDeliverEveryEvent() throws InterruptedException, IOException {
        long seed = TestSeed.of("CrashRecoveryTest", 20_260_401L);
        int clients = Integer.getInteger("reliability.clients", 32);
        int kills = Math.toIntExact(Soak.length("reliability.kills", 2, 8));
        Duration live = Duration.ofSeconds(Soak.length("reliability.seconds", 8, 60));
        Random random = new Random(seed);
        Path data = ApiServer.newDataDirectory();
        ServerProcess server = ServerProcess.start(data);
        try (BankAudit audit = BankAudit.watch(server.client(), server.org(), data)) {
            Workload workload = Workload.prepare(server.client(), server.org(), seed, clients, Optional.empty());
            workload.start(clients, UNTIL_STOPPED);
            try {
                for (int kill = 0; kill < kills; kill++) {
                    Thread.sleep(lifetime(live, kills, random).toMillis());
                    server.kill();
                    server = server.startAgain();
                }
                Thread.sleep(lifetime(live, kills, random).toMillis());
            } finally {
                workload.stop();
            }
            Workload.Report report = workload.finish();
            BankAudit.Figures figures = audit.check(report);
            System.out.println("crash recovery: seed " + seed + ", " + kills + " SIGKILLs, " + clients + " clients, "
                    + live.toSeconds() + " s up, " + report.summary() + ", " + figures.line());
            long logged = Files.size(server.serverLog());
            server.terminate();
            assertThat(data.resolve("postgres").resolve("postmaster.pid")).as("its PostgreSQL stopped with it")
                    .doesNotExist();
            assertThat(loggedSince(server.serverLog(), logged)).as("what the server logged as it stopped")
                    .noneMatch(line -> line.startsWith("ERROR"));
        } finally {
            server.stop();
        }
    }

    private static List<String> loggedSince(Path log, long offset) throws IOException {
        byte[] all = Files.readAllBytes(log);
        return new String(all, Math.toIntExact(offset), all.length - Math.toIntExact(offset), StandardCharsets.UTF_8)
                .lines().toList();
    }

    /** How long one server lives: about its share of the time up, at random, never less than {@link #SHORTEST_LIFE}. */
    static Duration lifetime(Duration live, int kills, Random random) {
        long share = live.toMillis() / (kills + 1);
        return SHORTEST_LIFE.plusMillis(Math.max(0, share - SHORTEST_LIFE.toMillis()) * (50 + random.nextInt(101)) / 100);
    }
}
