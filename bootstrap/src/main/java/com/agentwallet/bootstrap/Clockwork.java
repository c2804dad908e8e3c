package com.agentwallet.bootstrap;

import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.export.ExportService;
import com.agentwallet.core.idempotency.RequestKeys;
import com.agentwallet.core.payment.IdempotencyKeys;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.port.LedgerUnavailableException;
import com.agentwallet.core.port.ScheduledRuns;
import com.agentwallet.core.port.StorageUnavailableException;
import com.agentwallet.core.reconcile.Reconciliation;
import com.agentwallet.core.reconcile.ReconciliationReport;
import com.agentwallet.core.user.UserService;
import com.agentwallet.core.wallet.WalletService;
import com.google.inject.Inject;
import io.dropwizard.lifecycle.Managed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * The time-driven rules, run in the background while the server runs: ledger work left pending is
 * resubmitted (at start, with no grace, to finish what a crash interrupted), timed-out escrows are
 * refunded, co-sign windows close, expired policies freeze their wallets, idempotency keys older
 * than their 24 h retention are forgotten, API keys' last uses are written, expired dashboard
 * sessions are purged, export files kept for their retention are deleted, and the books are
 * reconciled with the ledger now and then, by one of the servers sharing the database each time. Pending exports are generated on threads of their own
 * (the configured number of generators), so that a long file never delays the time-critical jobs;
 * a generator holds no transaction while it writes a file, and the claim query lets one
 * organisation have at most three files written at once across every process. Each job's time comes from the injected clock, and each claims its work with
 * {@code FOR UPDATE SKIP LOCKED}, one item per transaction: servers sharing a database split the
 * work between them and never do an item twice. Each round of the frequent jobs, and each generator's
 * round, ends with a beat of its {@link Heartbeats}, which the liveness checks read.
 */
public final class Clockwork implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(Clockwork.class);
    private static final int BATCH = 500;
    /** Export jobs a generator writes per round: a round of long files must not starve the next check for new ones. */
    private static final int EXPORT_BATCH = 10;
    private static final String CLOCKWORK = "the clockwork";

    private final Settlement settlement;
    private final EscrowService escrows;
    private final PaymentService payments;
    private final IdempotencyKeys idempotency;
    private final RequestKeys requestKeys;
    private final ApiKeyService apiKeys;
    private final WalletService wallets;
    private final ExportService exports;
    private final Reconciliation reconciliation;
    private final ScheduledRuns scheduledRuns;
    private final UserService users;
    private final ServiceConfiguration.ClockworkSettings settings;
    private final int exportGenerators;
    private final Heartbeats.Heartbeat rounds;
    private final Heartbeats.Heartbeat generatorRounds;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "clockwork");
        thread.setDaemon(true);
        return thread;
    });
    private final ScheduledExecutorService exportScheduler;

    @Inject
    public Clockwork(Settlement settlement, EscrowService escrows, PaymentService payments,
                     IdempotencyKeys idempotency, RequestKeys requestKeys, ApiKeyService apiKeys,
                     WalletService wallets, ExportService exports, Reconciliation reconciliation,
                     ScheduledRuns scheduledRuns, UserService users, ServiceConfiguration.ClockworkSettings settings,
                     ServiceConfiguration.ExportsSettings exportSettings, Heartbeats heartbeats) {
        this.settlement = requireNonNull(settlement, "settlement is null");
        this.escrows = requireNonNull(escrows, "escrows is null");
        this.payments = requireNonNull(payments, "payments is null");
        this.idempotency = requireNonNull(idempotency, "idempotency is null");
        this.requestKeys = requireNonNull(requestKeys, "requestKeys is null");
        this.apiKeys = requireNonNull(apiKeys, "apiKeys is null");
        this.wallets = requireNonNull(wallets, "wallets is null");
        this.exports = requireNonNull(exports, "exports is null");
        this.reconciliation = requireNonNull(reconciliation, "reconciliation is null");
        this.scheduledRuns = requireNonNull(scheduledRuns, "scheduledRuns is null");
        this.users = requireNonNull(users, "users is null");
        this.settings = requireNonNull(settings, "settings is null");
        this.exportGenerators = exportSettings.generators();
        this.rounds = heartbeats.clockwork();
        this.generatorRounds = heartbeats.exportGenerators();
        AtomicInteger generator = new AtomicInteger();
        this.exportScheduler = Executors.newScheduledThreadPool(exportGenerators, runnable -> {
            Thread thread = new Thread(runnable, "clockwork-exports-" + generator.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void start() {
        run("recovery at start", () -> LOG.info("Resubmitted {} transactions left pending", settlement.recover(Duration.ZERO, BATCH)));
        long tick = settings.tick().toMillis();
        rounds.beat(CLOCKWORK);
        scheduler.scheduleWithFixedDelay(() -> {
            tick();
            rounds.beat(CLOCKWORK);
        }, tick, tick, TimeUnit.MILLISECONDS);
        for (int i = 1; i <= exportGenerators; i++) {
            String generator = "export generator " + i;
            generatorRounds.beat(generator);
            exportScheduler.scheduleWithFixedDelay(() -> {
                generateExports();
                generatorRounds.beat(generator);
            }, tick, tick, TimeUnit.MILLISECONDS);
        }
        long reconcile = settings.reconcileEvery().toMillis();
        scheduler.scheduleWithFixedDelay(() -> run("reconciliation", this::reconcile), reconcile, reconcile,
                TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() throws InterruptedException {
        for (ScheduledExecutorService executor : new ScheduledExecutorService[] {scheduler, exportScheduler}) {
            executor.shutdown();
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        }
    }

    /** One round of the frequent jobs. */
    void tick() {
        run("ledger recovery", () -> settlement.recover(settings.recoveryGrace(), BATCH));
        run("escrow timeouts", () -> escrows.refundTimedOut(BATCH));
        run("co-sign expiry", () -> payments.expireCoSigns(BATCH));
        run("policy expiry", () -> wallets.freezeExpired(BATCH));
        run("idempotency key retention", () -> idempotency.forgetExpired(BATCH));
        run("request key retention", () -> requestKeys.forgetExpired(BATCH));
        run("api key last use", apiKeys::recordUsage);
        run("dashboard session expiry", () -> users.purgeExpiredSessions(BATCH));
        run("export retention", () -> exports.expireReady(BATCH));
    }

    /** One generator's round: files of pending jobs, {@code export.ready} when each is ready. */
    void generateExports() {
        run("export generation", () -> exports.generatePending(EXPORT_BATCH));
    }

    /** Each server schedules it; the one that takes the period's run in the database runs it. */
    private void reconcile() {
        reconciliation.runIfDue(scheduledRuns, settings.reconcileEvery()).ifPresent(Clockwork::log);
    }

    private static void log(ReconciliationReport report) {
        if (report.isClean()) {
            LOG.info("Reconciliation: {} accounts agree with the ledger, {} skipped while money was in flight",
                    report.checked(), report.skippedInFlight());
        } else {
            report.drifts().forEach(drift -> LOG.warn("Reconciliation drift: {} should hold {} on the ledger but holds {}",
                    drift.account(), drift.expected(), drift.onLedger()));
            report.stuck().forEach(tx -> LOG.warn("Stuck in flight: {} {} of {} pending since {}", tx.type().wireName(),
                    tx.id(), tx.amount(), tx.updatedAt()));
        }
    }

    /**
     * Runs a job; a failing job is logged and tried again next round, and never stops the others. A
     * database or ledger that is unavailable for now is a line of warning, not a stack trace.
     */
    private static void run(String job, Runnable work) {
        try {
            work.run();
        } catch (StorageUnavailableException | LedgerUnavailableException e) {
            LOG.warn("Clockwork job '{}' stopped; it runs again next round: {}", job, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("Clockwork job '{}' failed; it runs again next round", job, e);
        }
    }
}
