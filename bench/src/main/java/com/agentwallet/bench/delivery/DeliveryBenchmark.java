package com.agentwallet.bench.delivery;

import com.agentwallet.adapters.http.webhook.HttpWebhookTransport;
import com.agentwallet.adapters.http.webhook.ReceiverTls;
import com.agentwallet.adapters.http.webhook.ResolvingReceiverGuard;
import com.agentwallet.adapters.persistence.EmbeddedDatabase;
import com.agentwallet.adapters.persistence.JdbiStorage;
import com.agentwallet.adapters.persistence.Postgres;
import com.agentwallet.bench.Arguments;
import com.agentwallet.bench.BenchmarkSupport;
import com.agentwallet.bench.CoreWiring;
import com.agentwallet.bench.Latencies;
import com.agentwallet.bench.MachineCpu;
import com.agentwallet.bench.store.CpuMeter;
import com.agentwallet.bootstrap.Heartbeats;
import com.agentwallet.bootstrap.ServiceConfiguration;
import com.agentwallet.bootstrap.WebhookWorkers;
import com.agentwallet.core.common.Actor;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.CreatePolicy;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.ReceiverGuard;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.CreatedWallet;
import com.agentwallet.core.wallet.Funding;
import com.agentwallet.core.webhook.WebhookDispatcher;
import com.agentwallet.core.webhook.WebhookService;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Webhook deliveries per second, and how long an event waits from its commit to its first delivery
 * attempt: events written to the outbox by {@link com.agentwallet.core.event.EventPublisher} in a
 * transaction of {@link JdbiStorage} on an embedded PostgreSQL 17 (fsync on), delivered by the
 * service's own {@link WebhookWorkers} running the real {@link WebhookDispatcher} and
 * {@link HttpWebhookTransport}, to a local HTTPS receiver with a self-signed certificate that
 * answers 200 at once. The events are {@code transaction.completed}, spread round robin over many
 * wallets, so that per-wallet ordering does not put them all in one line. After the window it waits
 * for the last deliveries, then prints the dispatcher's own record, the time of each kind of SQL
 * statement in the window, and the plan of the claim of a due delivery as it was at the window's end.
 *
 * <pre>
 * mvn -B -q -pl bench -am package -DskipTests
 * java -cp bench/target/benchmarks.jar com.agentwallet.bench.delivery.DeliveryBenchmark [--rate 500] [--seconds 20]
 * </pre>
 *
 * Options: {@code --rate} events committed per second, 0 for as fast as the producers can
 * (500), {@code --seconds} measured (20), {@code --warmup} seconds at least of the same load before,
 * longer while the JIT is busy, not counted (5), {@code --workers} webhook workers (4),
 * {@code --poll-ms} their poll interval (50),
 * {@code --wallets} (200), {@code --batch} events per transaction (1), {@code --producers}
 * committing threads (1), {@code --drain} seconds at most to wait for the last deliveries (120).
 */
public final class DeliveryBenchmark {
    private static final Usdc AMOUNT = Usdc.parse("0.01");
    private static final String PAYEE = BenchmarkSupport.externalAddress("delivery-benchmark-payee");
    private static final String EVENT = "transaction.completed";

    record Options(int seconds, int warmup, int rate, int workers, int pollMs, int wallets, int batch,
                   int producers, int drain) {
        static final String USAGE = "usage: DeliveryBenchmark [--rate 500 (0: as fast as possible)] [--seconds 20] "
                + "[--warmup 5] [--workers 4] [--poll-ms 50] [--wallets 200] [--batch 1] [--producers 1] [--drain 120]";

        static Options parse(String... args) {
            Arguments in = new Arguments(args);
            int seconds = 20;
            int warmup = 5;
            int rate = 500;
            int workers = 4;
            int pollMs = 50;
            int wallets = 200;
            int batch = 1;
            int producers = 1;
            int drain = 120;
            while (in.hasNext()) {
                switch (in.next()) {
                    case "--seconds" -> seconds = in.positive();
                    case "--warmup" -> warmup = in.notNegative();
                    case "--rate" -> rate = in.notNegative();
                    case "--workers" -> workers = in.positive();
                    case "--poll-ms" -> pollMs = in.positive();
                    case "--wallets" -> wallets = in.positive();
                    case "--batch" -> batch = in.positive();
                    case "--producers" -> producers = in.positive();
                    case "--drain" -> drain = in.positive();
                    default -> throw in.unknown();
                }
            }
            return new Options(seconds, warmup, rate, workers, pollMs, wallets, batch, producers, drain);
        }

        String target() {
            return rate == 0 ? "as fast as possible" : rate + " events/s";
        }
    }

    private DeliveryBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Options options = Arguments.parseOrExit(args, Options.USAGE, Options::parse);
        BenchmarkSupport.runInTempDirectory("delivery-benchmark", temp -> run(options, temp));
    }

    private static void run(Options options, Path temp) throws Exception {
        System.out.printf(Locale.ROOT, "Webhook delivery benchmark: %s (%d per transaction, %d producer%s), %d wallets, "
                        + "%d workers polling every %d ms, %d s warm-up, %d s measured%n", options.target(),
                options.batch(), options.producers(), options.producers() == 1 ? "" : "s", options.wallets(),
                options.workers(), options.pollMs(), options.warmup(), options.seconds());
        BenchmarkSupport.printMachine();
        long started = System.nanoTime();
        try (EmbeddedDatabase db = EmbeddedDatabase.start(temp.resolve("data"), temp.resolve("work"), 0);
             HikariDataSource pool = Postgres.pool(db.jdbcUrl("postgres"), EmbeddedDatabase.USER, db.password(),
                     options.workers() + options.producers() + 2);
             Receiver receiver = Receiver.start(temp.resolve("receiver.p12"), Math.max(16, 4 * options.workers()))) {
            BenchmarkSupport.migrateQuietly(pool);
            Jdbi jdbi = Postgres.jdbi(pool);
            StatementTimes statements = new StatementTimes();
            jdbi.setSqlLogger(statements);
            System.out.println("server: " + BenchmarkSupport.serverVersion(jdbi));
            System.out.println("server settings: " + BenchmarkSupport.serverSettings(jdbi));

            Clock clock = Clock.tick(Clock.systemUTC(), Duration.ofMillis(1));
            IdGenerator ids = new RandomIdGenerator(new SecureRandom());
            Storage storage = new JdbiStorage(jdbi, clock);
            CoreWiring core = new CoreWiring(storage, clock, ids);
            ServiceConfiguration.WebhookSettings settings = webhookSettings(options);
            ReceiverGuard guard = new ResolvingReceiverGuard(settings.allowPrivateReceivers());

            long seedStart = System.nanoTime();
            OrgId org = core.organisations.create("Delivery benchmark").id();
            List<Transaction> payments = seed(core, org, options.wallets());
            Thread.sleep(5); // the seeding's own events are older than the webhook, so not for it
            new WebhookService(storage, guard, core.events, ids, settings.limits(), clock).create(org, receiver.url(), List.of(EVENT), RequestKey.none());
            System.out.printf(Locale.ROOT, "seeded %d wallets with a payment each, and a webhook for %s at %s, in "
                    + "%.1f s%n", payments.size(), EVENT, receiver.url(), (System.nanoTime() - seedStart) / 1e9);

            WebhookWorkers workers = new WebhookWorkers(new WebhookDispatcher(storage,
                    new HttpWebhookTransport(ReceiverTls.of(settings.acceptSelfSignedReceivers()), new ObjectMapper()),
                    guard, settings.limits(), clock), settings, new Heartbeats(clock));
            Load load = new Load(storage, core.events, clock, payments, options);
            Window window;
            Drain drain;
            workers.start();
            try {
                window = drive(load, jdbi, statements, options);
                System.out.printf(Locale.ROOT, "  measured; waiting up to %d s for every committed event to be "
                        + "delivered ...%n", options.drain());
                drain = drain(load, receiver, jdbi, window, options);
            } finally {
                workers.stop();
            }
            Results results = Results.of(load, receiver, window, drain);
            results.print(options, window);
            printDatabase(jdbi, window);
            printStatements(window, results.deliveredInWindow());
            System.out.printf(Locale.ROOT, "%nload average at end: %s; %d cpus; whole run %.0f s%n",
                    BenchmarkSupport.loadAverage(), Runtime.getRuntime().availableProcessors(),
                    (System.nanoTime() - started) / 1e9);
        }
    }

    /** The settings the service reads from its configuration, with local, self-signed receivers let through. */
    private static ServiceConfiguration.WebhookSettings webhookSettings(Options options) {
        return new ObjectMapper().convertValue(Map.of("workers", options.workers(),
                "pollInterval", options.pollMs() + "ms", "allowPrivateReceivers", true,
                "acceptSelfSignedReceivers", true), ServiceConfiguration.WebhookSettings.class);
    }

    /**
     * The wallets, funded, and one payment from each through the payment service: the confirmed
     * transactions whose {@code transaction.completed} events the load publishes again and again.
     */
    private static List<Transaction> seed(CoreWiring core, OrgId org, int wallets) {
        core.organisations.deposit(org, Usdc.ofMicros(AMOUNT.micros() * wallets)).value();
        Policy policy = core.policies.create(new CreatePolicy(org, "No caps", PolicyRules.NONE,
                new Actor("key_bench")), RequestKey.none()).value();
        List<CreatedWallet> created = new ArrayList<>();
        for (int i = 0; i < wallets; i++) {
            created.add(core.wallets.create(new CreateWallet(org, "bench-agent-" + i, "bench", policy.id(), List.of(),
                    Optional.of(Duration.ofDays(1))), RequestKey.none()).value());
        }
        for (int from = 0; from < wallets; from += Funding.MAX_BATCH) {
            core.wallets.fundBatch(org, created.subList(from, Math.min(wallets, from + Funding.MAX_BATCH)).stream()
                    .map(w -> new Funding(w.wallet().id(), AMOUNT)).toList(), RequestKey.none()).value();
        }
        List<Transaction> payments = new ArrayList<>();
        for (CreatedWallet wallet : created) {
            Transaction tx = core.payments.pay(new PayCommand(org, wallet.wallet().id(), PAYEE, AMOUNT, Optional.empty(),
                    Optional.empty(), false, Optional.of(wallet.session()), Optional.empty())).value().transaction();
            if (tx.status() != TransactionStatus.CONFIRMED) {
                throw new IllegalStateException("a seeding payment did not go through: " + tx);
            }
            payments.add(tx);
        }
        return payments;
    }

    // ---------------------------------------------------------------------------------------------
    // The load

    /**
     * The measured window, in {@link System#nanoTime}, the CPU and the statements' time spent in it,
     * and the plan of the dispatcher's claim as it was at its end.
     */
    private record Window(long start, long end, double machineBusy, double jvmCpuSeconds,
                          Map<String, Double> threadCpuSeconds, long jitMillis, List<StatementTimes.Kind> statements,
                          List<String> claimPlan) {
        double seconds() {
            return (end - start) / 1e9;
        }

        boolean contains(long nanos) {
            return nanos >= start && nanos < end;
        }
    }

    /**
     * Runs the producers through the warm-up and the measured window; the statement times and the
     * CPU are taken over the window only. The warm-up lasts {@code --warmup} seconds, and on while
     * the JIT is busy (more than 50 ms of compilation in the last second), for at most four times as
     * long: on a loaded two-core machine the compilers get little CPU.
     */
    private static Window drive(Load load, Jdbi jdbi, StatementTimes statements, Options options) throws Exception {
        long start = System.nanoTime();
        System.out.printf(Locale.ROOT, "committing %s: %d s warm-up or more, then %d s measured ...%n",
                options.target(), options.warmup(), options.seconds());
        List<Thread> producers = load.start(start);
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        sleepUntil(start + Duration.ofSeconds(options.warmup()).toNanos());
        long limit = start + Duration.ofSeconds(4L * options.warmup()).toNanos();
        long compiling = 0;
        while (options.warmup() > 0 && System.nanoTime() < limit) {
            long before = jit.getTotalCompilationTime();
            Thread.sleep(1000);
            compiling = jit.getTotalCompilationTime() - before;
            if (compiling <= 50) {
                break;
            }
        }
        long windowStart = System.nanoTime();
        long windowEnd = windowStart + Duration.ofSeconds(options.seconds()).toNanos();
        load.measure(windowStart, windowEnd);
        System.out.printf(Locale.ROOT, "  warmed up for %.0f s (JIT: %d ms of compilation in the last second); "
                + "measuring ...%n", (windowStart - start) / 1e9, compiling);
        statements.reset();
        MachineCpu cpuBefore = MachineCpu.now();
        double jvmBefore = BenchmarkSupport.processCpuSeconds();
        CpuMeter.Threads threadsBefore = threadCpu();
        long jitBefore = jit.getTotalCompilationTime();
        sleepUntil(windowEnd);
        MachineCpu cpuAfter = MachineCpu.now();
        double jvmCpu = BenchmarkSupport.processCpuSeconds() - jvmBefore;
        Map<String, Double> threads = threadCpu().byKindSince(threadsBefore);
        threads.put("JIT, GC, VM", jvmCpu - threads.values().stream().mapToDouble(Double::doubleValue).sum());
        long jitMillis = jit.getTotalCompilationTime() - jitBefore;
        List<StatementTimes.Kind> kinds = statements.kinds();
        load.released.countDown();
        for (Thread producer : producers) {
            producer.join();
        }
        double busy = cpuAfter.busySince(cpuBefore);
        List<String> plan = kinds.stream().filter(kind -> kind.label().endsWith(StatementTimes.CLAIM)).findFirst()
                .flatMap(kind -> statements.sql(kind.label())).map(sql -> explain(jdbi, sql)).orElse(List.of());
        return new Window(windowStart, windowEnd, busy, jvmCpu, threads, jitMillis, kinds, plan);
    }

    /** This JVM's Java threads, by id. */
    private static CpuMeter.Threads threadCpu() {
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Map<String, CpuMeter.Threads.ThreadTime> threads = new TreeMap<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            long nanos = bean.getThreadCpuTime(thread.getId());
            if (nanos > 0) {
                String name = thread.getName();
                String kind = name.startsWith("webhook-delivery") ? "workers"
                        : name.startsWith("HttpClient") ? "HTTP client"
                        : name.startsWith("webhook-receiver") || name.startsWith("HTTP-Dispatcher") ? "receiver"
                        : name.startsWith("producer-") ? "producers"
                        : "other Java threads";
                long userNanos = bean.getThreadUserTime(thread.getId());
                threads.put(Long.toString(thread.getId()),
                        new CpuMeter.Threads.ThreadTime(kind, userNanos / 1e9, (nanos - userNanos) / 1e9));
            }
        }
        return new CpuMeter.Threads(threads);
    }

    /**
     * The claim's plan, run for real ({@code EXPLAIN ANALYZE}, rolled back), with the parameters the
     * dispatcher gives it: due now, one delivery.
     */
    private static List<String> explain(Jdbi jdbi, String claim) {
        return jdbi.inTransaction(h -> {
            List<String> plan = new ArrayList<>();
            plan.add("open deliveries: " + h.createQuery("SELECT count(*) FROM webhook_deliveries "
                    + "WHERE status <> 'delivered'").mapTo(Long.class).one());
            plan.addAll(h.createQuery("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + claim)
                    .bind("now", Timestamp.from(Instant.now())).bind("limit", 1).mapTo(String.class).list());
            h.rollback();
            return plan;
        });
    }

    /**
     * Producer threads committing {@code transaction.completed} events, each in a transaction of its
     * own or {@code --batch} to a transaction, at the target rate (a fixed schedule: a producer that
     * falls behind commits back to back until it has caught up) or as fast as they can.
     */
    private static final class Load {
        private final Storage storage;
        private final EventPublisher events;
        private final Clock clock;
        private final List<Transaction> payments;
        private final Options options;
        private final AtomicLong sequence = new AtomicLong();
        /** When each event's transaction committed, by event id; warm-up events too. */
        final Map<String, Long> committed = new ConcurrentHashMap<>();
        /** The events committed in the measured window. */
        final Set<String> measured = ConcurrentHashMap.newKeySet();
        final Map<String, Long> failures = new ConcurrentHashMap<>();
        /** Lets the producers end, once the window is over and its CPU taken. */
        final CountDownLatch released = new CountDownLatch(1);

        Load(Storage storage, EventPublisher events, Clock clock, List<Transaction> payments, Options options) {
            this.storage = storage;
            this.events = events;
            this.clock = clock;
            this.payments = payments;
            this.options = options;
        }

        /** The window is known once the warm-up is over; until then everything committed is warm-up. */
        private volatile long windowStart = Long.MAX_VALUE;
        private volatile long windowEnd = Long.MAX_VALUE;

        void measure(long start, long end) {
            windowEnd = end;
            windowStart = start;
        }

        List<Thread> start(long start) {
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < options.producers(); p++) {
                int producer = p;
                Thread thread = new Thread(() -> produce(producer, start), "producer-" + p);
                thread.setDaemon(true);
                thread.start();
                threads.add(thread);
            }
            return threads;
        }

        private void produce(int producer, long start) {
            long interval = options.rate() == 0 ? 0
                    : Math.round(1e9 * options.batch() * options.producers() / options.rate());
            long due = start + interval * producer / options.producers();
            while (true) {
                if (interval > 0) {
                    sleepUntil(due);
                    due += interval;
                }
                if (System.nanoTime() >= windowEnd) {
                    awaitRelease();
                    return;
                }
                try {
                    List<EventId> written = storage.inTransaction(stores -> {
                        List<EventId> batch = new ArrayList<>(options.batch());
                        for (int i = 0; i < options.batch(); i++) {
                            batch.add(events.publish(stores, next()));
                        }
                        return batch;
                    });
                    long at = System.nanoTime();
                    long from = windowStart;
                    long to = windowEnd;
                    for (EventId id : written) {
                        committed.put(id.value(), at);
                        if (at >= from && at < to) {
                            measured.add(id.value());
                        }
                    }
                } catch (RuntimeException e) {
                    failures.merge(e.toString(), 1L, Long::sum);
                }
            }
        }

        /** Stays until the window's CPU is taken: the time of a thread that ended would be missed. */
        private void awaitRelease() {
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** The next event: the wallets in turn, so neighbours in the outbox are of different wallets. */
        private DomainEvent next() {
            int n = (int) (sequence.getAndIncrement() % payments.size());
            return new DomainEvent.TransactionCompleted(payments.get(n), clock.instant());
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The end of the run

    /** How the last deliveries went: whether all arrived and were recorded, and when. */
    private record Drain(boolean allAcknowledged, boolean allRecorded, long lastAcknowledged, double waitedSeconds) {
    }

    /**
     * Waits, at most {@code --drain} seconds, until the receiver has acknowledged every committed
     * event and the dispatcher has recorded them all as delivered.
     */
    private static Drain drain(Load load, Receiver receiver, Jdbi jdbi, Window window, Options options)
            throws InterruptedException {
        long begun = System.nanoTime();
        long deadline = begun + Duration.ofSeconds(options.drain()).toNanos();
        boolean acknowledged = false;
        while (!acknowledged && System.nanoTime() < deadline) {
            acknowledged = load.committed.keySet().stream().allMatch(id -> receiver.acknowledged(id) != null);
            if (!acknowledged) {
                Thread.sleep(20);
            }
        }
        boolean recorded = false;
        while (!recorded && System.nanoTime() < deadline) {
            recorded = allRecordedDelivered(jdbi, load.committed.size());
            if (!recorded) {
                Thread.sleep(50);
            }
        }
        long last = load.committed.keySet().stream().map(receiver::acknowledged).filter(Objects::nonNull)
                .mapToLong(Long::longValue).max().orElse(window.end());
        last = Math.max(last, window.end());
        return new Drain(acknowledged, recorded, last, (System.nanoTime() - begun) / 1e9);
    }

    /** Whether the dispatcher has recorded as many deliveries as were committed, and none is still open. */
    private static boolean allRecordedDelivered(Jdbi jdbi, int committed) {
        return jdbi.withHandle(h -> h.createQuery("SELECT count(*) FILTER (WHERE status = 'delivered') >= :committed "
                        + "AND count(*) FILTER (WHERE status <> 'delivered') = 0 FROM webhook_deliveries")
                .bind("committed", committed).mapTo(Boolean.class).one());
    }

    // ---------------------------------------------------------------------------------------------
    // Output

    /** What the run measured. */
    private record Results(long committedTotal, long committedInWindow, long deliveredInWindow, Latencies latencies,
                           long measuredNeverArrived, long backlogAtWindowEnd, long notAcknowledged, long repeats,
                           long unreadable, Drain drain, Map<String, Long> failures, long[] committedPerSecond,
                           long[] deliveredPerSecond, long deliveredAfterWindow) {

        static Results of(Load load, Receiver receiver, Window window, Drain drain) {
            long deliveredInWindow = 0;
            long backlog = 0;
            long notAcknowledged = 0;
            long deliveredAfter = 0;
            long[] committedPerSecond = new long[(int) Math.ceil(window.seconds())];
            long[] deliveredPerSecond = new long[committedPerSecond.length];
            for (Map.Entry<String, Long> event : load.committed.entrySet()) {
                Long acknowledged = receiver.acknowledged(event.getKey());
                if (window.contains(event.getValue())) {
                    committedPerSecond[(int) ((event.getValue() - window.start()) / 1_000_000_000L)]++;
                }
                if (acknowledged == null) {
                    notAcknowledged++;
                } else if (window.contains(acknowledged)) {
                    deliveredInWindow++;
                    deliveredPerSecond[(int) ((acknowledged - window.start()) / 1_000_000_000L)]++;
                } else if (acknowledged >= window.end()) {
                    deliveredAfter++;
                }
                if (event.getValue() < window.end() && (acknowledged == null || acknowledged >= window.end())) {
                    backlog++;
                }
            }
            Latencies latencies = new Latencies();
            for (String id : load.measured) {
                Long arrived = receiver.firstArrival(id);
                if (arrived != null) {
                    latencies.record(arrived - load.committed.get(id));
                }
            }
            long firstAttempts = load.committed.size() - notAcknowledged;
            return new Results(load.committed.size(), load.measured.size(), deliveredInWindow, latencies,
                    load.measured.size() - latencies.count(), backlog, notAcknowledged,
                    Math.max(0, receiver.requests() - receiver.unreadable() - firstAttempts), receiver.unreadable(), drain,
                    new TreeMap<>(load.failures), committedPerSecond, deliveredPerSecond, deliveredAfter);
        }

        void print(Options options, Window window) {
            double seconds = window.seconds();
            System.out.printf(Locale.ROOT, "%nResults (%d s measured, fsync on, %d wallets, %d per transaction):%n",
                    options.seconds(), options.wallets(), options.batch());
            String header = String.format(Locale.ROOT, "%-12s | %11s | %11s | %8s | %8s | %8s | %7s | %7s | %9s",
                    "target", "committed/s", "delivered/s", "p50 ms", "p99 ms", "max ms", "workers", "poll ms",
                    "undeliv.");
            String sub = String.format(Locale.ROOT, "%-12s | %11s | %11s | %8s | %8s | %8s | %7s | %7s | %9s",
                    "events/s", "", "(2xx)", "commit to", "first", "attempt", "", "", "at end");
            System.out.println(header);
            System.out.println(sub);
            System.out.println("-".repeat(header.length()));
            System.out.printf(Locale.ROOT, "%-12s | %11.1f | %11.1f | %8.1f | %8.1f | %8.1f | %7d | %7d | %9d%n",
                    options.rate() == 0 ? "max" : Integer.toString(options.rate()), committedInWindow / seconds,
                    deliveredInWindow / seconds, latencies.ms(50), latencies.ms(99), latencies.maxMs(),
                    options.workers(), options.pollMs(), notAcknowledged);
            System.out.printf(Locale.ROOT, "events committed: %d in the window (%d with the warm-up); delivered in the "
                            + "window: %d (acknowledged 2xx, first time, any event)%n", committedInWindow, committedTotal,
                    deliveredInWindow);
            System.out.printf(Locale.ROOT, "latency: %d events of the window, commit to first attempt arriving at the "
                    + "receiver%s%n", latencies.count(),
                    measuredNeverArrived == 0 ? "" : "; " + measuredNeverArrived + " never arrived");
            System.out.printf(Locale.ROOT, "backlog at the end of the window: %d events committed, not yet "
                    + "acknowledged%n", backlogAtWindowEnd);
            System.out.println("each second of the window, committed: " + Arrays.toString(committedPerSecond));
            System.out.println("each second of the window, delivered: " + Arrays.toString(deliveredPerSecond));
            double drained = (drain.lastAcknowledged() - window.end()) / 1e9;
            System.out.printf(Locale.ROOT, "after the window, with no more commits: %d delivered in %.1f s (%.1f/s); "
                            + "%s (waited %.1f s); %s%n", deliveredAfterWindow, drained,
                    drained > 0 ? deliveredAfterWindow / drained : Double.NaN,
                    drain.allAcknowledged() ? "every event acknowledged" : notAcknowledged + " events NOT acknowledged",
                    drain.waitedSeconds(), drain.allRecorded() ? "all recorded delivered"
                            : "NOT ALL RECORDED DELIVERED in the database");
            System.out.printf(Locale.ROOT, "receiver: %d repeated attempts, %d unreadable POSTs%n", repeats, unreadable);
            System.out.printf(Locale.ROOT, "CPU in the window: machine %.0f%% busy (of %d cpus), this JVM %.2f cpu-s "
                            + "(%.2f ms per delivered event)%n", window.machineBusy() * 100,
                    Runtime.getRuntime().availableProcessors(), window.jvmCpuSeconds(),
                    deliveredInWindow == 0 ? Double.NaN : window.jvmCpuSeconds() * 1000 / deliveredInWindow);
            if (deliveredInWindow > 0) {
                StringBuilder threads = new StringBuilder();
                window.threadCpuSeconds().forEach((kind, cpu) -> threads.append(String.format(Locale.ROOT, "%s%s %.2f",
                        threads.length() == 0 ? "" : ", ", kind, cpu * 1000 / deliveredInWindow)));
                System.out.printf(Locale.ROOT, "  JVM CPU ms per delivered event, by thread: %s (the JIT compiled for "
                        + "%d ms in the window)%n", threads, window.jitMillis());
            }
            if (!failures.isEmpty()) {
                System.out.println("WARNING: commits failed: " + failures);
            }
        }
    }

    /** What the dispatcher recorded about the attempts of the window: its own view of the POSTs. */
    private static void printDatabase(Jdbi jdbi, Window window) {
        Instant now = Instant.now();
        long nanosNow = System.nanoTime();
        String record = jdbi.withHandle(h -> h.createQuery("SELECT count(*) AS attempts, "
                        + "count(*) FILTER (WHERE status_code IS NULL OR status_code NOT BETWEEN 200 AND 299) AS failed, "
                        + "avg(latency_ms) AS mean_ms, max(latency_ms) AS max_ms FROM delivery_attempts "
                        + "WHERE attempted_at >= :from AND attempted_at < :to")
                .bind("from", now.minusNanos(nanosNow - window.start()))
                .bind("to", now.minusNanos(nanosNow - window.end()))
                .map((rs, ctx) -> String.format(Locale.ROOT, "dispatcher's record of the window: %d attempts, %d failed; "
                                + "POST latency (ms, its own clock) mean %.1f, max %d",
                        rs.getLong("attempts"), rs.getLong("failed"), rs.getDouble("mean_ms"), rs.getLong("max_ms")))
                .one());
        System.out.println(record);
    }

    /** The adapter's statements in the window, most time first: where the database time goes. */
    private static void printStatements(Window window, long delivered) {
        System.out.printf(Locale.ROOT, "%nStatements in the window (execution time, commits not included):%n");
        String header = String.format(Locale.ROOT, "%-44s | %9s | %8s | %9s | %13s", "statement", "calls", "mean ms",
                "total s", "ms / delivery");
        System.out.println(header);
        System.out.println("-".repeat(header.length()));
        for (StatementTimes.Kind kind : window.statements()) {
            System.out.printf(Locale.ROOT, "%-44s | %9d | %8.2f | %9.2f | %13.3f%n", kind.label(), kind.calls(),
                    kind.meanMs(), kind.micros() / 1e6, delivered == 0 ? Double.NaN : kind.micros() / 1000.0 / delivered);
        }
        if (!window.claimPlan().isEmpty()) {
            System.out.printf(Locale.ROOT, "%nThe claim of a due delivery at the end of the window (EXPLAIN ANALYZE, "
                    + "%s):%n", window.claimPlan().get(0));
            window.claimPlan().subList(1, window.claimPlan().size()).forEach(line -> System.out.println("  " + line));
        }
    }

    private static void sleepUntil(long nanos) {
        long wait;
        while ((wait = nanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
        }
    }
}
