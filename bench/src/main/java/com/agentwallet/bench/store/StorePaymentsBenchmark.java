package com.agentwallet.bench.store;

import com.agentwallet.adapters.persistence.EmbeddedDatabase;
import com.agentwallet.adapters.persistence.JdbiStorage;
import com.agentwallet.adapters.persistence.Postgres;
import com.agentwallet.bench.Arguments;
import com.agentwallet.bench.BenchmarkSupport;
import com.agentwallet.bench.CoreWiring;
import com.agentwallet.bench.Latencies;
import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.CreatePolicy;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.CreatedWallet;
import com.agentwallet.core.wallet.Funding;
import com.agentwallet.core.wallet.Wallet;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Payments per second through the store: the core's {@link PaymentService} on {@link JdbiStorage}
 * and an embedded PostgreSQL 17 (fsync on, as in production), the simulator ledger in memory, next to
 * pgbench running the same SQL against the same server. Two scenarios: payments from a random one
 * of many wallets, and payments all from one hot wallet (every payment waits for the row lock).
 *
 * <pre>
 * mvn -B -q -pl bench -am package -DskipTests
 * java -cp bench/target/benchmarks.jar com.agentwallet.bench.store.StorePaymentsBenchmark [--seconds 20] [--threads 16]
 * </pre>
 *
 * Options: {@code --seconds} measured per scenario and per pgbench run (20), {@code --warmup}
 * seconds of warm-up at least, longer while the JIT is busy (15), {@code --threads} service threads and pgbench
 * clients (16), {@code --wallets} (1000), {@code --no-pgbench}.
 */
public final class StorePaymentsBenchmark {
    private static final Usdc AMOUNT = Usdc.parse("0.01");
    private static final Usdc FUNDING = Usdc.parse("1000000");
    private static final String PAYEE = BenchmarkSupport.externalAddress("store-benchmark-payee");

    record Options(int seconds, int warmup, int threads, int wallets, boolean pgbench) {
        static final String USAGE = "usage: StorePaymentsBenchmark [--seconds 20] [--warmup 15] [--threads 16] "
                + "[--wallets 1000] [--no-pgbench]";

        static Options parse(String... args) {
            Arguments in = new Arguments(args);
            int seconds = 20;
            int warmup = 15;
            int threads = 16;
            int wallets = 1000;
            boolean pgbench = true;
            while (in.hasNext()) {
                switch (in.next()) {
                    case "--seconds" -> seconds = in.positive();
                    case "--warmup" -> warmup = in.notNegative();
                    case "--threads" -> threads = in.positive();
                    case "--wallets" -> wallets = in.positive();
                    case "--no-pgbench" -> pgbench = false;
                    default -> throw in.unknown();
                }
            }
            return new Options(seconds, warmup, threads, wallets, pgbench);
        }
    }

    /** A wallet to pay from, with the grant of its session token. */
    private record Payer(Wallet wallet, SessionGrant session) {
        PayCommand payment() {
            return new PayCommand(wallet.orgId(), wallet.id(), PAYEE, AMOUNT, Optional.empty(), Optional.empty(), false,
                    Optional.of(session), Optional.empty());
        }
    }

    /** What one measured service scenario did. */
    private record ServiceRun(long ok, long refused, long errors, double seconds, Latencies latencies,
                              Map<String, Long> problems, CpuMeter.Sample cpu, double workerCpu, double workerUser) {
        double perSecond() {
            return ok / seconds;
        }

        double percentileMs(double p) {
            return latencies.ms(p);
        }
    }

    private StorePaymentsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Options options = Arguments.parseOrExit(args, Options.USAGE, Options::parse);
        BenchmarkSupport.runInTempDirectory("store-payments-benchmark", temp -> run(options, temp));
    }

    private static void run(Options options, Path temp) throws Exception {
        System.out.printf(Locale.ROOT, "Store payments benchmark: %d threads, %d wallets, %d s warm-up at least, %d s measured%n",
                options.threads(), options.wallets(), options.warmup(), options.seconds());
        BenchmarkSupport.printMachine();
        long started = System.nanoTime();
        try (EmbeddedDatabase db = EmbeddedDatabase.start(temp.resolve("data"), temp.resolve("work"), 0);
             HikariDataSource pool = Postgres.pool(db.jdbcUrl("postgres"), EmbeddedDatabase.USER, db.password(), options.threads())) {
            BenchmarkSupport.migrateQuietly(pool);
            Jdbi jdbi = Postgres.jdbi(pool);
            System.out.println("server: " + BenchmarkSupport.serverVersion(jdbi));
            System.out.println("server settings: " + BenchmarkSupport.serverSettings(jdbi));

            CpuMeter cpu = new CpuMeter(temp.resolve("data"));
            Clock clock = Clock.tick(Clock.systemUTC(), Duration.ofMillis(1));
            CoreWiring core = new CoreWiring(new JdbiStorage(jdbi, clock), clock, new RandomIdGenerator(new SecureRandom()));

            long seedStart = System.nanoTime();
            OrgId org = core.organisations.create("Store benchmark").id();
            core.organisations.deposit(org, Usdc.ofMicros(FUNDING.micros() * (options.wallets() + 2L))).value();
            Policy policy = core.policies.create(new CreatePolicy(org, "No caps", PolicyRules.NONE,
                    new Actor("key_bench")), RequestKey.none()).value();
            List<Payer> payers = seedWallets(core, org, policy, options.wallets() + 1, options.threads());
            Payer hot = payers.get(options.wallets());
            List<Payer> many = payers.subList(0, options.wallets());
            Pgbench.numberWallets(jdbi, many.stream().map(p -> p.wallet().id().value()).toList(),
                    hot.wallet().id().value());
            jdbi.useHandle(h -> h.execute("VACUUM ANALYZE"));
            System.out.printf(Locale.ROOT, "seeded %d funded wallets (%s USDC each) in %.1f s; each payment pays %s USDC to "
                            + "an address outside the service; the policy has no caps%n",
                    payers.size(), FUNDING, (System.nanoTime() - seedStart) / 1e9, AMOUNT);

            warmUp(core.payments, many, hot, options);
            Map<String, ServiceRun> service = new LinkedHashMap<>();
            String manyName = options.wallets() + " wallets";
            service.put(manyName, measure(jdbi, cpu, core.payments, manyName, many, options));
            service.put("1 hot wallet", measure(jdbi, cpu, core.payments, "1 hot wallet", List.of(hot), options));

            Diagnostics diagnostics = diagnose(db, core.ledger, clock, many);

            Map<String, CpuMeter.Sample> pgbenchCpu = new LinkedHashMap<>();
            Map<String, Pgbench.Outcome> exact = new LinkedHashMap<>();
            Map<String, Pgbench.Outcome> minimal = new LinkedHashMap<>();
            Optional<Path> pgbenchPath = options.pgbench() ? Pgbench.find() : Optional.empty();
            if (pgbenchPath.isEmpty()) {
                System.out.println(options.pgbench() ? "pgbench not found (looked at $PGBENCH, /usr/bin/pgbench and the "
                        + "PATH): printing the service's numbers only" : "pgbench skipped (--no-pgbench)");
            } else {
                Pgbench pgbench = new Pgbench(pgbenchPath.get(), temp, db.port());
                System.out.println("pgbench: " + pgbench.version() + " at " + pgbenchPath.get());
                Map<String, String> common = pgbenchVariables(jdbi, org);
                int pgThreads = Math.min(options.threads(), Runtime.getRuntime().availableProcessors());
                int run = 0;
                for (String scenario : service.keySet()) {
                    boolean isHot = scenario.equals("1 hot wallet");
                    for (boolean exactShape : new boolean[]{true, false}) {
                        Map<String, String> variables = new LinkedHashMap<>(common);
                        variables.put("lo", isHot ? "0" : "1");
                        variables.put("hi", isHot ? "0" : Integer.toString(many.size()));
                        variables.put("run", Integer.toString(++run));
                        String label = scenario + (exactShape ? ", exact shape" : ", minimal shape");
                        Pgbench.checkpoint(jdbi);
                        System.out.printf(Locale.ROOT, "pgbench %s: %d clients, %d s ...%n", label, options.threads(),
                                options.seconds());
                        CpuMeter.Sample before = cpu.sample();
                        Pgbench.Outcome outcome = pgbench.run("payment-" + run,
                                exactShape ? Pgbench.EXACT_SHAPE : Pgbench.MINIMAL_SHAPE, options.threads(), pgThreads,
                                options.seconds(), variables);
                        if (!outcome.clean() || outcome.tps().isEmpty() || outcome.failed() > 0) {
                            System.out.println("  pgbench did not finish cleanly; its output:\n" + outcome.output());
                        } else {
                            String prefix = "tx_pgb" + run + "\\_%";
                            long confirmed = jdbi.withHandle(h -> h.createQuery("SELECT count(*) FROM transactions "
                                    + "WHERE id LIKE :prefix AND status = 'confirmed'").bind("prefix", prefix)
                                    .mapTo(Long.class).one());
                            System.out.printf(Locale.ROOT, "  %.1f tps, latency average %.2f ms, %d payments (%d "
                                            + "confirmed transaction rows written)%n", outcome.tps().get(),
                                    outcome.latencyMs().orElse(Double.NaN), outcome.processed(), confirmed);
                        }
                        (exactShape ? exact : minimal).put(scenario, outcome);
                        pgbenchCpu.put(label, cpu.sample().minus(before));
                    }
                }
            }

            printTable(service, exact, minimal, options);
            if (cpu.available()) {
                printCpu(service, exact, minimal, pgbenchCpu);
            }
            diagnostics.print();
            System.out.printf(Locale.ROOT, "%nload average at end: %s; whole run %.0f s%n",
                    BenchmarkSupport.loadAverage(), (System.nanoTime() - started) / 1e9);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Seeding

    private static List<Payer> seedWallets(CoreWiring core, OrgId org, Policy policy, int count, int threads)
            throws Exception {
        Payer[] payers = new Payer[count];
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> created = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                created.add(executor.submit(() -> {
                    CreatedWallet wallet = core.wallets.create(new CreateWallet(org, "bench-agent-" + index, "bench",
                            policy.id(), List.of(), Optional.of(Duration.ofDays(1))), RequestKey.none()).value();
                    payers[index] = new Payer(wallet.wallet(), wallet.session());
                }));
            }
            for (Future<?> f : created) {
                f.get();
            }
            List<Future<?>> funded = new ArrayList<>();
            for (int from = 0; from < count; from += Funding.MAX_BATCH) {
                List<Funding> lines = Arrays.stream(payers, from, Math.min(count, from + Funding.MAX_BATCH))
                        .map(p -> new Funding(p.wallet().id(), FUNDING)).toList();
                funded.add(executor.submit(() -> core.wallets.fundBatch(org, lines, RequestKey.none()).value()));
            }
            for (Future<?> f : funded) {
                f.get();
            }
        } finally {
            executor.shutdown();
        }
        return List.of(payers);
    }

    // ---------------------------------------------------------------------------------------------
    // The service

    private static ServiceRun measure(Jdbi jdbi, CpuMeter cpu, PaymentService payments, String name,
                                      List<Payer> payers, Options options) throws Exception {
        drive(payments, payers, options.threads(), Duration.ofSeconds(2)); // settle into this scenario
        Pgbench.checkpoint(jdbi);
        System.out.printf(Locale.ROOT, "service %s: measuring %d s ...%n", name, options.seconds());
        CpuMeter.Sample before = cpu.sample();
        CpuMeter.Threads threadsBefore = CpuMeter.jvmThreads();
        ServiceRun measured = drive(payments, payers, options.threads(), Duration.ofSeconds(options.seconds()));
        ServiceRun run = new ServiceRun(measured.ok(), measured.refused(), measured.errors(), measured.seconds(),
                measured.latencies(), measured.problems(), cpu.sample().minus(before), measured.workerCpu(),
                measured.workerUser());
        System.out.printf(Locale.ROOT, "  %.1f payments/s, p50 %.2f ms, p99 %.2f ms, %d payments%s%n", run.perSecond(),
                run.percentileMs(50), run.percentileMs(99), run.ok(),
                run.problems().isEmpty() ? "" : "; NOT ALL CONFIRMED: " + run.problems());
        if (cpu.available() && run.ok() > 0) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "user:workers %.2f, sys:workers %.2f, ",
                    run.workerUser() * 1000 / run.ok(), (run.workerCpu() - run.workerUser()) * 1000 / run.ok()));
            CpuMeter.jvmThreads().since(threadsBefore).forEach((kind, seconds) -> {
                if (seconds > 0) {
                    line.append(String.format(Locale.ROOT, "%s %.2f, ", kind, seconds * 1000 / run.ok()));
                }
            });
            System.out.printf(Locale.ROOT, "  CPU ms per payment: JVM %.2f (%s), PostgreSQL %.2f%n",
                    run.cpu().jvm() * 1000 / run.ok(), line.length() == 0 ? "-" : line.substring(0, line.length() - 2),
                    run.cpu().server() * 1000 / run.ok());
        }
        return run;
    }

    /**
     * Both workloads in turn, one second each, for {@code --warmup} seconds and then on while the
     * JIT is still busy (more than 50 ms of compilation in the last two seconds), for at most four
     * times as long: on a loaded two-core machine the compilers get little CPU, and their work (and
     * the slow code before it) would otherwise be measured.
     */
    private static void warmUp(PaymentService payments, List<Payer> many, Payer hot, Options options)
            throws Exception {
        if (options.warmup() == 0) {
            return;
        }
        System.out.printf(Locale.ROOT, "service warm-up, both scenarios in turn: %d s or more ...%n", options.warmup());
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        long started = System.nanoTime();
        long minimum = started + Duration.ofSeconds(options.warmup()).toNanos();
        long limit = started + Duration.ofSeconds(4L * options.warmup()).toNanos();
        long compiling;
        do {
            long before = jit.getTotalCompilationTime();
            drive(payments, many, options.threads(), Duration.ofSeconds(1));
            drive(payments, List.of(hot), options.threads(), Duration.ofSeconds(1));
            compiling = jit.getTotalCompilationTime() - before;
        } while (System.nanoTime() < minimum || (compiling > 50 && System.nanoTime() < limit));
        System.out.printf(Locale.ROOT, "  warmed up for %.0f s (JIT: %d ms of compilation in the last 2 s)%n",
                (System.nanoTime() - started) / 1e9, compiling);
    }

    /** {@code threads} threads paying from a random one of {@code payers} until {@code duration} is up. */
    private static ServiceRun drive(PaymentService payments, List<Payer> payers, int threads, Duration duration)
            throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        LongAdder ok = new LongAdder();
        LongAdder refused = new LongAdder();
        LongAdder errors = new LongAdder();
        LongAdder workerCpu = new LongAdder();
        LongAdder workerUser = new LongAdder();
        java.lang.management.ThreadMXBean threadBean = java.lang.management.ManagementFactory.getThreadMXBean();
        Map<String, Long> problems = new ConcurrentHashMap<>();
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        AtomicLong deadline = new AtomicLong();
        Latencies latencies = new Latencies();
        List<Future<?>> workers = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                workers.add(executor.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    ready.countDown();
                    go.await();
                    long cpuStart = threadBean.getCurrentThreadCpuTime();
                    long userStart = threadBean.getCurrentThreadUserTime();
                    long end = deadline.get();
                    while (System.nanoTime() < end) {
                        Payer payer = payers.get(payers.size() == 1 ? 0 : random.nextInt(payers.size()));
                        long t0 = System.nanoTime();
                        try {
                            Result<PaymentResult> result = payments.pay(payer.payment());
                            long took = System.nanoTime() - t0;
                            if (!result.isOk()) {
                                refused.increment();
                                problems.merge("refused: " + result.rejection(), 1L, Long::sum);
                                continue;
                            }
                            TransactionStatus status = result.value().transaction().status();
                            if (status != TransactionStatus.CONFIRMED) {
                                refused.increment();
                                problems.merge("ended " + status.wireName(), 1L, Long::sum);
                                continue;
                            }
                            ok.increment();
                            latencies.record(took);
                        } catch (RuntimeException e) {
                            errors.increment();
                            problems.merge("error: " + e, 1L, Long::sum);
                        }
                    }
                    workerCpu.add(threadBean.getCurrentThreadCpuTime() - cpuStart);
                    workerUser.add(threadBean.getCurrentThreadUserTime() - userStart);
                    return null;
                }));
            }
            ready.await();
            long start = System.nanoTime();
            deadline.set(start + duration.toNanos());
            go.countDown();
            for (Future<?> f : workers) {
                f.get();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            return new ServiceRun(ok.sum(), refused.sum(), errors.sum(), seconds, latencies, new TreeMap<>(problems), null,
                    workerCpu.sum() / 1e9, workerUser.sum() / 1e9);
        } finally {
            executor.shutdownNow();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Where the time goes: round trips and statements of one payment, one at a time

    private record Diagnostics(int payments, double writesPerPayment, double bytesOutPerPayment,
                               double bytesInPerPayment, double statementsPerPayment, Map<String, Long> connectionCalls,
                               double meanMs) {
        void print() {
            System.out.printf(Locale.ROOT, "%nOne payment at a time (%d payments on one connection, no contention):%n",
                    payments);
            System.out.printf(Locale.ROOT, "  round trips to the server per pay(): %.1f (socket writes; %.0f bytes out, "
                    + "%.0f bytes in)%n", writesPerPayment, bytesOutPerPayment, bytesInPerPayment);
            System.out.printf(Locale.ROOT, "  SQL statements prepared by the adapter per pay(): %.1f%n",
                    statementsPerPayment);
            StringBuilder calls = new StringBuilder();
            connectionCalls.forEach((name, count) -> {
                double perPayment = count / (double) payments;
                if (perPayment >= 0.05 && !name.equals("prepareStatement") && !name.equals("unwrap")
                        && !name.equals("isWrapperFor")) {
                    calls.append(String.format(Locale.ROOT, "%s %.1f, ", name, perPayment));
                }
            });
            System.out.println("  JDBC connection calls per pay(): " + (calls.length() == 0 ? "-"
                    : calls.substring(0, calls.length() - 2)));
            System.out.printf(Locale.ROOT, "  mean pay() latency %.2f ms%n", meanMs);
        }
    }

    private static Diagnostics diagnose(EmbeddedDatabase db, LedgerPort ledger, Clock clock, List<Payer> payers)
            throws SQLException {
        String url = db.jdbcUrl("postgres") + "?socketFactory=" + CountingSocketFactory.class.getName();
        try (HikariDataSource single = Postgres.pool(url, EmbeddedDatabase.USER, db.password(), 1)) {
            ProbedDataSource probed = new ProbedDataSource(single);
            Jdbi jdbi = Postgres.jdbi(probed);
            PaymentService payments = new CoreWiring(new JdbiStorage(jdbi, clock), ledger, clock,
                    new RandomIdGenerator(new SecureRandom())).payments;
            int warm = 200;
            int n = 500;
            sequential(payments, payers, warm);
            CountingSocketFactory.reset();
            probed.reset();
            double mean = sequential(payments, payers, n);
            double writes = CountingSocketFactory.WRITES.get() / (double) n;
            double out = CountingSocketFactory.BYTES_OUT.get() / (double) n;
            double in = CountingSocketFactory.BYTES_IN.get() / (double) n;
            Map<String, Long> calls = probed.calls();
            double stmts = probed.statements() / (double) n;
            return new Diagnostics(n, writes, out, in, stmts, calls, mean);
        }
    }

    /** Pays {@code n} times, one after the other; answers the mean latency in ms. */
    private static double sequential(PaymentService payments, List<Payer> payers, int n) {
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            Result<PaymentResult> result = payments.pay(payers.get(i % payers.size()).payment());
            if (!result.isOk() || result.value().transaction().status() != TransactionStatus.CONFIRMED) {
                throw new IllegalStateException("a diagnostic payment did not go through: " + result);
            }
        }
        return (System.nanoTime() - start) / 1e6 / n;
    }

    // ---------------------------------------------------------------------------------------------
    // pgbench

    /** The values the scripts need: ids, the payee, and event bodies and a signature like the service's. */
    private static Map<String, String> pgbenchVariables(Jdbi jdbi, OrgId org) {
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put("org", org.value());
        variables.put("payee", PAYEE);
        variables.put("amount", Long.toString(AMOUNT.micros()));
        variables.put("seq", "0");
        jdbi.useHandle(h -> {
            variables.put("pending_body", h.createQuery("SELECT body::text FROM outbox_events "
                    + "WHERE type = 'transaction.pending' ORDER BY seq DESC LIMIT 1").mapTo(String.class).one());
            variables.put("completed_body", h.createQuery("SELECT body::text FROM outbox_events "
                    + "WHERE type = 'transaction.completed' ORDER BY seq DESC LIMIT 1").mapTo(String.class).one());
            variables.put("signature", h.createQuery("SELECT signature FROM transactions "
                    + "WHERE type = 'payment' AND status = 'confirmed' LIMIT 1").mapTo(String.class).one());
        });
        return variables;
    }

    // ---------------------------------------------------------------------------------------------
    // Output

    private static void printTable(Map<String, ServiceRun> service, Map<String, Pgbench.Outcome> exact,
                                   Map<String, Pgbench.Outcome> minimal, Options options) {
        System.out.printf(Locale.ROOT, "%nResults (%d threads / pgbench clients, %d s each, fsync on):%n",
                options.threads(), options.seconds());
        String header = String.format(Locale.ROOT, "%-14s | %13s | %11s | %7s | %11s | %7s | %9s | %9s",
                "scenario", "service pay/s", "pgbench tps", "ratio", "pgbench tps", "ratio", "pay() p50", "pay() p99");
        String sub = String.format(Locale.ROOT, "%-14s | %13s | %11s | %7s | %11s | %7s | %9s | %9s",
                "", "", "exact shape", "", "min. shape", "", "ms", "ms");
        System.out.println(header);
        System.out.println(sub);
        System.out.println("-".repeat(header.length()));
        for (Map.Entry<String, ServiceRun> row : service.entrySet()) {
            ServiceRun run = row.getValue();
            Optional<Double> tpsExact = tps(exact.get(row.getKey()));
            Optional<Double> tpsMinimal = tps(minimal.get(row.getKey()));
            System.out.printf(Locale.ROOT, "%-14s | %13.1f | %11s | %7s | %11s | %7s | %9.2f | %9.2f%n", row.getKey(),
                    run.perSecond(), BenchmarkSupport.rate(tpsExact),
                    BenchmarkSupport.ratio(Optional.of(run.perSecond()), tpsExact), BenchmarkSupport.rate(tpsMinimal),
                    BenchmarkSupport.ratio(Optional.of(run.perSecond()), tpsMinimal),
                    run.percentileMs(50), run.percentileMs(99));
        }
        System.out.println("exact shape: the statements of PaymentService.pay one for one (2 transactions: check and "
                + "debit, then apply the ledger's answer);");
        System.out.println("min. shape: lock, policy, spends, 3 inserts, update; then update and insert "
                + "(2 transactions). Both: -M prepared, one script run = one payment.");
        service.forEach((name, run) -> {
            if (run.refused() + run.errors() > 0) {
                System.out.printf(Locale.ROOT, "WARNING %s: %d refused, %d errors: %s%n", name, run.refused(),
                        run.errors(), run.problems());
            }
        });
    }

    /** pgbench's tps, if it ran cleanly: every client to the end, no failed transaction. */
    private static Optional<Double> tps(Pgbench.Outcome outcome) {
        return Optional.ofNullable(outcome).filter(o -> o.clean() && o.failed() == 0).flatMap(Pgbench.Outcome::tps);
    }

    /** CPU per payment: on a small machine the bound on throughput, whatever else runs beside. */
    private static void printCpu(Map<String, ServiceRun> service, Map<String, Pgbench.Outcome> exact,
                                 Map<String, Pgbench.Outcome> minimal, Map<String, CpuMeter.Sample> pgbenchCpu) {
        System.out.printf(Locale.ROOT, "%nCPU per payment (ms), measured from /proc over each run:%n");
        String header = String.format(Locale.ROOT, "%-44s | %14s | %14s | %8s", "run", "client (JVM or",
                "PostgreSQL", "total");
        System.out.println(header);
        System.out.println(String.format(Locale.ROOT, "%-44s | %14s | %14s | %8s", "", "pgbench)", "server", ""));
        System.out.println("-".repeat(header.length()));
        service.forEach((name, run) -> cpuRow("service, " + name, run.cpu().jvm(), run.cpu().server(), run.ok()));
        for (Map<String, Pgbench.Outcome> outcomes : List.of(exact, minimal)) {
            outcomes.forEach((name, outcome) -> {
                String label = name + (outcomes == exact ? ", exact shape" : ", minimal shape");
                CpuMeter.Sample sample = pgbenchCpu.get(label);
                if (sample != null && outcome.processed() > 0) {
                    cpuRow("pgbench, " + label, sample.waitedChildren(), sample.server(), outcome.processed());
                }
            });
        }
    }

    private static void cpuRow(String label, double clientSeconds, double serverSeconds, long payments) {
        if (payments == 0) {
            return;
        }
        double client = clientSeconds * 1000 / payments;
        double server = serverSeconds * 1000 / payments;
        System.out.printf(Locale.ROOT, "%-44s | %14.2f | %14.2f | %8.2f%n", label, client, server, client + server);
    }
}
