package com.agentwallet.bootstrap.api;

import com.agentwallet.core.testing.Soak;
import com.agentwallet.core.testing.TestSeed;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

/**
 * The books under concurrent load: {@link Workload} clients (32 by default) pay, exceed caps,
 * co-sign, reject, escrow, fund, withdraw and freeze for a bounded time against a server of the
 * test's own over HTTPS, on a clock that jumps forward by hours while they run, so that escrow
 * timeouts and co-sign windows (six hours here) pass and spends leave the rolling windows. Then the
 * {@link BankAudit}: money conserved to the micro-USDC, no balance negative, no cap exceeded at any
 * moment, every key one payment, every event delivered. No answer may be a 5xx.
 *
 * <p>System properties: {@code reliability.seconds} how long the clients run (8 s; 120 s under
 * {@code -Psoak}), {@code reliability.clients} (default 32). The seed is fixed ({@link TestSeed});
 * the figures line and any failure print it.
 */
class LoadInvariantTest {
    /** Short enough that payments left waiting expire while the clock jumps. */
    private static final ConfigOverride CO_SIGN_WINDOW = ConfigOverride.config("coSignWindow", "6h");

    @Test
    void moneyIsConservedNoCapIsExceededAndEveryEventIsDeliveredUnderLoad() throws InterruptedException {
        long seed = TestSeed.of("LoadInvariantTest", 20_260_401L);
        int clients = Integer.getInteger("reliability.clients", 32);
        Duration duration = Duration.ofSeconds(Soak.length("reliability.seconds", 8, 120));
        JumpingClock clock = new JumpingClock();
        ApiServer server = ApiServer.start(clock, ApiServer.newDataDirectory(), CO_SIGN_WINDOW);
        try (BankAudit audit = BankAudit.watch(server.client(), server.org(), server.dataDirectory())) {
            Workload workload = Workload.prepare(server.client(), server.org(), seed, clients, Optional.of(clock));
            workload.start(clients, duration);
            Workload.Report report = workload.finish();
            BankAudit.Figures figures = audit.check(report);
            System.out.println("load invariant: seed " + seed + ", " + clients + " clients, " + report.ran().toSeconds()
                    + " s, " + report.summary() + ", clock moved " + report.clockLead().toHours() + " h, "
                    + figures.line());
        } finally {
            server.stop();
        }
    }
}
