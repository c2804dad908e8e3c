package com.agentwallet.bench.service;

import com.agentwallet.bench.Arguments;
import com.agentwallet.bench.BenchmarkSupport;
import com.agentwallet.bench.store.Pgbench;
import org.jdbi.v3.core.Jdbi;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The service under load the way its users meet it: the server binary in its own JVM, driven over
 * HTTPS with kept-alive connections, next to pgbench running one payment's SQL against the same
 * database, and the service's own statements without the service ({@link
 * PgbenchReference}). It measures payments per second and latency over 1,000 wallets and on one hot
 * wallet at several client counts, the latency at half of the peak rate in an open loop, wallet
 * provisioning, reads, and the export of a long history with the server's memory meanwhile; the CPU
 * each process (this load generator, the server, PostgreSQL) spent per request; and what else fell
 * in each measured run ({@link Disturbances}: the server's GC pauses and the load generator's,
 * autovacuum). It runs in a JVM of its own options, started for it ({@link LoadGeneratorJvm}).
 *
 * <pre>
 * mvn -B -q -pl bench -am package -DskipTests
 * java -cp bench/target/benchmarks.jar com.agentwallet.bench.service.ServiceLoadBenchmark [options]
 * </pre>
 *
 * Options: {@code --server-jar PATH} (default {@code bootstrap/<build folder>/agent-wallet.jar} of
 * the repository this tool was built in), {@code --server-jvm "options"} ("-Xms1g -Xmx1g -XX:MaxGCPauseMillis=10"),
 * {@code --pool N} ({@code database.maxConnections}; the configuration's 16 if not given),
 * {@code --clients 16,32,64}, {@code --warmup} seconds of warm-up at least, longer while the
 * server's JIT is busy (10, and up to 3 minutes while it compiles; then 3 before each run, or less if this is less;
 * each open loop is first warmed up in its own shape while the JIT is busy, up to 30 s), {@code --seconds} measured per payment run and per
 * pgbench run (15), {@code --read-seconds} per read run (8), {@code --export-rows} (1000000),
 * {@code --export-json} (also export as JSON), {@code --no-export}, {@code --no-pgbench},
 * {@code --open-rate N} (the open loops at N payments/s instead of half of each peak), {@code --curve
 * 0.2,0.3} (more open loops, at these fractions of each peak, measured as the one at half of it).
 * With {@code --baseline-jar PATH} it compares that build with the one of {@code --server-jar}
 * instead ({@link JarComparison}, {@code --rounds 3}); {@link ServiceLoadOptions} has the usage.
 */
public final class ServiceLoadBenchmark {
    private static final int OPEN_LOOP_CONNECTIONS = 64;
    /**
     * The open loop at half of the peak takes paths the closed loops did not (single payments
     * instead of batches, idle connections waking up), which the JIT compiles anew: it is warmed up
     * in its own shape while that lasts, at most this long, so that what is measured is the service
     * running, not its compiler.
     */
    private static final Duration OPEN_LOOP_WARMUP_LIMIT = Duration.ofSeconds(30);
    private static final List<Integer> READ_CLIENTS = List.of(16, 32);
    private static final double P99_GOAL_MS = 25;
    private static final double RATIO_GOAL = 0.6;

    /** A payment scenario: the pool or the hot wallet, its closed-loop runs by client count, its open-loop runs. */
    private static final class Scenario {
        final String name;
        final boolean hot;
        final Map<Integer, LoadDriver.Measured> runs = new LinkedHashMap<>();
        /** pgbench's runs by script, then by the service's client count they go with. */
        final Map<PgbenchReference.Script, Map<Integer, PgbenchReference.Run>> pgbench =
                new EnumMap<>(PgbenchReference.Script.class);
        /** The open loop the goal is judged on: at half of the peak, or at {@code --open-rate}. */
        OpenLoop halfPeak;
        /** The open loops of {@code --curve}, at fractions of the peak, lowest first. */
        final List<OpenLoop> curve = new ArrayList<>();

        Scenario(String name, boolean hot) {
            this.name = name;
            this.hot = hot;
        }

        double peak() {
            return runs.values().stream().mapToDouble(LoadDriver.Measured::perSecond).max().orElse(Double.NaN);
        }

        Optional<Double> pgbenchPeak(PgbenchReference.Script script) {
            return pgbenchRuns(script).values().stream().map(PgbenchReference.Run::perSecond)
                    .flatMap(Optional::stream).max(Double::compare);
        }

        Optional<Double> pgbenchRate(PgbenchReference.Script script, int clients) {
            return Optional.ofNullable(pgbenchRuns(script).get(clients)).flatMap(PgbenchReference.Run::perSecond);
        }

        private Map<Integer, PgbenchReference.Run> pgbenchRuns(PgbenchReference.Script script) {
            return pgbench.getOrDefault(script, Map.of());
        }
    }

    /** An open loop: what it is called in the summary, the rate it was run at, and what it measured. */
    private record OpenLoop(String label, double rate, LoadDriver.Measured measured) {
    }

    private ServiceLoadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        ServiceLoadOptions options = Arguments.parseOrExit(args, ServiceLoadOptions.USAGE, ServiceLoadOptions::parse);
        if (!LoadGeneratorJvm.isThisOne()) {
            System.exit(LoadGeneratorJvm.relaunch(ServiceLoadBenchmark.class, args));
        }
        String commandLine = ProcessHandle.current().info().commandLine()
                .orElse("java ... " + ServiceLoadBenchmark.class.getName() + " " + String.join(" ", args));
        Path jar = options.serverJar().orElseGet(ServiceLoadBenchmark::defaultServerJar).toAbsolutePath();
        BenchmarkSupport.runInTempDirectory("service-load-benchmark", temp -> {
            if (options.baselineJar().isPresent()) {
                JarComparison.run(options, options.baselineJar().get().toAbsolutePath(), jar, temp);
            } else {
                run(options, jar, temp);
            }
            System.out.println("command: " + commandLine);
        });
    }

    private static void run(ServiceLoadOptions options, Path jar, Path temp) throws Exception {
        long started = System.nanoTime();
        System.out.printf(Locale.ROOT, "Service load benchmark: the server binary over HTTPS with keep-alive; clients %s; "
                        + "%d s warm-up at least (longer while the server's JIT is busy), then %d s before each run; %d s "
                        + "measured per run%n", options.clients(), options.warmup(), options.runWarmup(), options.seconds());
        String machine = BenchmarkSupport.machine();
        System.out.println(machine);
        printLoadGenerator();
        try (ServerUnderTest server = ServerUnderTest.start(jar, temp, options)) {
            List<Scenario> scenarios = List.of(new Scenario(ServerUnderTest.WALLETS + " wallets", false),
                    new Scenario("1 hot wallet", true));
            measurePayments(server, scenarios, options);
            List<LoadDriver.Measured> reads = reads(server, options);
            pgbench(server, temp, scenarios, options);
            List<ExportMeasurement.Outcome> exports = new ArrayList<>();
            if (options.exportRows() > 0) {
                exports.addAll(export(server, options));
            }

            printSummary(scenarios, server.fleet, reads, exports, options);
            System.out.println(server.server.logSummary());
            System.out.println(machine);
            System.out.printf(Locale.ROOT, "load average at end: %s; whole run %.0f s%n", BenchmarkSupport.loadAverage(),
                    (System.nanoTime() - started) / 1e9);
        }
    }

    /** This JVM: its pid and options. */
    static void printLoadGenerator() {
        System.out.printf(Locale.ROOT, "load generator: pid %d, JVM options %s%n", ProcessHandle.current().pid(),
                String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
    }

    /**
     * {@code bench/<folder>/benchmarks.jar} was built with {@code bootstrap/<folder>/agent-wallet.jar}
     * beside it in the same repository; run from elsewhere, {@code bootstrap/target/agent-wallet.jar}
     * of the working directory.
     */
    static Path defaultServerJar() {
        try {
            Path self = Path.of(ServiceLoadBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path folder = self.getParent();
            if (self.toString().endsWith(".jar") && folder != null && folder.getParent() != null
                    && folder.getParent().getParent() != null) {
                return folder.getParent().getParent().resolve("bootstrap").resolve(folder.getFileName())
                        .resolve("agent-wallet.jar");
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall through to the working directory
        }
        return Path.of("bootstrap", "target", "agent-wallet.jar");
    }

    // ---------------------------------------------------------------------------------------------
    // Payments

    /**
     * The closed-loop runs of each scenario at each client count, each right after a checkpoint as
     * pgbench's runs are, then each scenario's open loop at half of its best closed-loop rate: a
     * checkpoint, then a warm-up in the open loop's own shape, then the measured run, which so sees
     * the service in its steady state. Each run's idempotency keys have a prefix of their own.
     */
    private static void measurePayments(ServerUnderTest server, List<Scenario> scenarios, ServiceLoadOptions options)
            throws InterruptedException {
        server.warmUp(options);
        int run = 0;
        for (Scenario scenario : scenarios) {
            for (int clients : options.clients()) {
                scenario.runs.put(clients, server.closed(scenario.name, scenario.hot, clients, "r" + run++ + "-", options));
            }
        }
        for (Scenario scenario : scenarios) {
            boolean fixed = options.openRate().isPresent();
            scenario.halfPeak = openLoop(server, scenario, fixed ? "open loop at --open-rate" : "open loop at half of peak",
                    fixed ? options.openRate().getAsInt() : scenario.peak() / 2, "r" + run++ + "-", options);
            for (double fraction : options.curve()) {
                scenario.curve.add(openLoop(server, scenario,
                        String.format(Locale.ROOT, "open loop at %.2f of peak", fraction), scenario.peak() * fraction,
                        "r" + run++ + "-", options));
            }
        }
    }

    /**
     * One open loop at {@code target} payments/s: a checkpoint, a warm-up in its own shape while the
     * server's JIT is busy, then the measured run, latency counted from each request's scheduled send.
     */
    private static OpenLoop openLoop(ServerUnderTest server, Scenario scenario, String label, double target, String keys,
                                     ServiceLoadOptions options) throws InterruptedException {
        int warmup = options.runWarmup();
        String name = String.format(Locale.ROOT, "%s, %s (%.0f/s)", scenario.name, label, target);
        Pgbench.checkpoint(server.jdbi);
        System.out.printf(Locale.ROOT, "open-loop warm-up, %s at %.0f/s on %d connections: %d s or more ...%n",
                scenario.name, target, OPEN_LOOP_CONNECTIONS, warmup);
        server.whileCompiling(Duration.ofSeconds(warmup), OPEN_LOOP_WARMUP_LIMIT, round -> server.driver.open("warm-up",
                OPEN_LOOP_CONNECTIONS, server.payments(scenario.hot, keys + "w" + round + "-"), target,
                Duration.ZERO, Duration.ofSeconds(2)).problems());
        LoadDriver.Measured measured = ServerUnderTest.measure(() -> server.driver.open(name, OPEN_LOOP_CONNECTIONS,
                        server.payments(scenario.hot, keys), target, Duration.ofSeconds(warmup),
                        Duration.ofSeconds(options.seconds())),
                String.format(Locale.ROOT, "%d connections, %d s warm-up, %d s measured, latency from the "
                        + "scheduled send", OPEN_LOOP_CONNECTIONS, warmup, options.seconds()));
        System.out.printf(Locale.ROOT, "  target %.1f/s, achieved %.1f/s; p99 < %.0f ms: %s%n", target,
                measured.perSecond(), P99_GOAL_MS, verdict(measured));
        return new OpenLoop(label, target, measured);
    }

    /** The scenario's open loops: the goal's, then the curve's. */
    private static Stream<OpenLoop> openLoops(Scenario scenario) {
        return Stream.concat(Stream.of(scenario.halfPeak), scenario.curve.stream());
    }

    private static String verdict(LoadDriver.Measured open) {
        return open.ms(99) < P99_GOAL_MS ? "PASS" : "MISS";
    }

    // ---------------------------------------------------------------------------------------------
    // Reads

    private static List<LoadDriver.Measured> reads(ServerUnderTest server, ServiceLoadOptions options)
            throws InterruptedException {
        List<String> transactions = server.transactions();
        if (transactions.isEmpty()) {
            throw new IllegalStateException("no payment went through: nothing to read");
        }
        ServerUnderTest.Fleet fleet = server.fleet;
        Map<String, Supplier<String>> targets = new LinkedHashMap<>();
        targets.put("GET /v1/wallets/{id}", () -> "/v1/wallets/" + randomOf(fleet.pool()).id());
        targets.put("GET /v1/transactions/{id}", () -> "/v1/transactions/" + randomOf(transactions));
        targets.put("GET /v1/wallets/{id}/transactions?limit=20",
                () -> "/v1/wallets/" + randomOf(fleet.pool()).id() + "/transactions?limit=20");
        targets.put("GET /v1/transactions?limit=100", () -> "/v1/transactions?limit=100");
        List<LoadDriver.Measured> reads = new ArrayList<>();
        for (Map.Entry<String, Supplier<String>> target : targets.entrySet()) {
            for (int clients : READ_CLIENTS) {
                LoadDriver.Measured measured = server.driver.closed(target.getKey(), clients, (connection, ticket) -> {
                    HttpConnection.Response response = connection.send("GET", target.getValue().get(), null);
                    return response.status() == 200 ? null : LoadDriver.unexpected(response);
                }, Duration.ofSeconds(1), Duration.ofSeconds(options.readSeconds()));
                System.out.printf(Locale.ROOT, "%s, %d clients (1 s warm-up, %d s measured):%n  %s%n  %s%n",
                        measured.name(), clients, options.readSeconds(), measured.summary("requests"),
                        measured.cpuLine());
                reads.add(measured);
            }
        }
        return reads;
    }

    private static <T> T randomOf(List<T> items) {
        return items.get(ThreadLocalRandom.current().nextInt(items.size()));
    }

    // ---------------------------------------------------------------------------------------------
    // pgbench

    /**
     * pgbench at the same client counts and seconds as the service, over the pool and on the hot
     * wallet: the yardstick, then the service's own statements. Their batched version runs over the
     * pool only, with a quarter of the clients, so that as many payments are in flight as the
     * service had.
     */
    private static void pgbench(ServerUnderTest server, Path temp, List<Scenario> scenarios, ServiceLoadOptions options)
            throws IOException {
        Optional<Path> pgbench = options.pgbench() ? Pgbench.find() : Optional.empty();
        if (pgbench.isEmpty()) {
            System.out.println(options.pgbench() ? "pgbench not found (looked at $PGBENCH, /usr/bin/pgbench and the "
                    + "PATH): no reference figures" : "pgbench skipped (--no-pgbench)");
            return;
        }
        PgbenchReference reference = new PgbenchReference(pgbench.get(), temp, server.server, server.jdbi, server.cpu,
                server.fleet.pool().stream().map(ServerUnderTest.Payer::id).toList(), server.fleet.hot().id(),
                ServerUnderTest.PAYEE, ServerUnderTest.AMOUNT.micros());
        System.out.println("pgbench: " + reference.version() + " at " + pgbench.get()
                + "; the service idles meanwhile; -M prepared. Its scripts:");
        for (PgbenchReference.Script script : PgbenchReference.Script.values()) {
            System.out.println("  " + script.file + ":");
            System.out.print(script.text.indent(4));
        }
        for (Scenario scenario : scenarios) {
            for (int clients : options.clients()) {
                for (PgbenchReference.Script script : PgbenchReference.Script.values()) {
                    if (scenario.hot && script.payments > 1) {
                        continue;
                    }
                    int pgbenchClients = Math.max(1, clients / script.payments);
                    System.out.printf(Locale.ROOT, "pgbench %s, %s, %d clients, %d s ...%n", script.file, scenario.name,
                            pgbenchClients, options.seconds());
                    PgbenchReference.Run result = reference.run(script, scenario.hot, pgbenchClients, options.seconds());
                    System.out.println("  " + result.summary());
                    scenario.pgbench.computeIfAbsent(script, s -> new LinkedHashMap<>()).put(clients, result);
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Export

    private static List<ExportMeasurement.Outcome> export(ServerUnderTest under, ServiceLoadOptions options)
            throws IOException, InterruptedException {
        LaunchedServer server = under.server;
        Jdbi jdbi = under.jdbi;
        ServerUnderTest.Payer wallet = under.fleet.export();
        System.out.printf(Locale.ROOT, "export: seeding the wallet %s to %d transactions by SQL (one INSERT ... SELECT "
                + "FROM generate_series; confirmed payments, not made through the API) ...%n", wallet.id(),
                options.exportRows());
        long seeding = System.nanoTime();
        long seeded = ExportMeasurement.seed(jdbi, server.orgId(), wallet.id(), options.exportRows(), ServerUnderTest.PAYEE,
                PgbenchReference.signature(jdbi));
        jdbi.useHandle(h -> h.execute("ANALYZE transactions"));
        System.out.printf(Locale.ROOT, "  %d rows seeded by SQL in %.1f s (and ANALYZE)%n", seeded,
                (System.nanoTime() - seeding) / 1e9);
        ExportMeasurement measurement = new ExportMeasurement(server);
        List<ExportMeasurement.Outcome> outcomes = new ArrayList<>();
        for (String format : options.exportJson() ? List.of("csv", "json") : List.of("csv")) {
            System.out.printf(Locale.ROOT, "export %s: POST /v1/transactions/export, poll until ready, download ...%n",
                    format);
            ExportMeasurement.Outcome outcome = measurement.run(wallet.id(), format, options.exportRows());
            System.out.println("  " + outcome.summary());
            outcomes.add(outcome);
        }
        return outcomes;
    }

    // ---------------------------------------------------------------------------------------------
    // Summary

    private static void printSummary(List<Scenario> scenarios, ServerUnderTest.Fleet fleet,
                                     List<LoadDriver.Measured> reads, List<ExportMeasurement.Outcome> exports,
                                     ServiceLoadOptions options) {
        System.out.printf(Locale.ROOT, "%nSummary (%d s per run; pgbench: the same SQL shape, same database, same "
                + "clients and seconds):%n%n", options.seconds());
        System.out.println("| scenario | clients | service pay/s | p50 ms | p99 ms | p99.9 ms | pgbench tps | ratio |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        for (Scenario scenario : scenarios) {
            scenario.runs.forEach((clients, run) -> {
                Optional<Double> tps = scenario.pgbenchRate(PgbenchReference.Script.REFERENCE, clients);
                System.out.printf(Locale.ROOT, "| %s | %d | %.1f | %.2f | %.2f | %.2f | %s | %s |%n", scenario.name,
                        clients, run.perSecond(), run.ms(50), run.ms(99), run.ms(99.9), BenchmarkSupport.rate(tps),
                        BenchmarkSupport.ratio(Optional.of(run.perSecond()), tps));
            });
        }
        for (Scenario scenario : scenarios) {
            openLoops(scenario).forEach(open -> System.out.printf(Locale.ROOT, "| %s, %s (target %.0f/s) | %d | %.1f "
                            + "| %.2f | %.2f | %.2f | - | p99 < %.0f ms: %s |%n", scenario.name, open.label(), open.rate(),
                    open.measured().clients(), open.measured().perSecond(), open.measured().ms(50),
                    open.measured().ms(99), open.measured().ms(99.9), P99_GOAL_MS, verdict(open.measured())));
        }
        System.out.println();
        for (Scenario scenario : scenarios) {
            openLoops(scenario).forEach(open -> System.out.printf(Locale.ROOT, "%s, %s, %s%n", open.label(),
                    scenario.name, open.measured().disturbances()));
        }
        for (Scenario scenario : scenarios) {
            System.out.printf(Locale.ROOT, "Goal, %s: best service rate %.1f/s, %s%n", scenario.name, scenario.peak(),
                    scenario.pgbenchPeak(PgbenchReference.Script.REFERENCE).map(t -> String.format(Locale.ROOT,
                            "best pgbench %.1f tps, ratio %.2f (goal >= %.1f: %s)", t, scenario.peak() / t, RATIO_GOAL,
                            scenario.peak() / t >= RATIO_GOAL ? "PASS" : "MISS")).orElse("no pgbench figure"));
        }
        printCeiling(scenarios);
        List<String> notAsExpected = scenarios.stream()
                .flatMap(s -> Stream.concat(s.runs.values().stream(), openLoops(s).map(OpenLoop::measured)))
                .filter(m -> m.failed() > 0).map(m -> m.name() + ": " + m.problems()).toList();
        System.out.println(notAsExpected.isEmpty() ? "Every measured payment answered 200 confirmed."
                : "Payments NOT answered 200 confirmed: " + notAsExpected);
        LoadDriver.Measured created = fleet.created();
        System.out.printf(Locale.ROOT, "%nProvisioning: %d wallets at %d clients: %.1f wallets/s, p50 %.2f ms, p99 %.2f ms, "
                        + "p99.9 %.2f ms, max %.2f ms; funding them in %d batches: %.2f s%n", created.ok(),
                created.clients(), created.perSecond(), created.ms(50), created.ms(99), created.ms(99.9), created.maxMs(),
                ServerUnderTest.fundingBatches(), fleet.fundingSeconds());
        System.out.printf(Locale.ROOT, "%n| read | clients | requests/s | p50 ms | p99 ms |%n|---|---:|---:|---:|---:|%n");
        for (LoadDriver.Measured read : reads) {
            System.out.printf(Locale.ROOT, "| %s | %d | %.1f | %.2f | %.2f |%s%n", read.name(), read.clients(),
                    read.perSecond(), read.ms(50), read.ms(99), read.failed() == 0 ? "" : " NOT 200: " + read.problems());
        }
        System.out.println();
        if (exports.isEmpty()) {
            System.out.println("Export: skipped (--no-export)");
        }
        exports.forEach(outcome -> System.out.println("Export (rows seeded by SQL): " + outcome.summary()));
        System.out.println("CPU ms per request by process, measured runs: " + scenarios.stream()
                .flatMap(s -> s.runs.values().stream())
                .map(m -> String.format(Locale.ROOT, "%s: load generator %.3f, server JVM %.3f, PostgreSQL %.3f",
                        m.name(), m.cpuMs(m.cpu().loadGenerator()), m.cpuMs(m.cpu().serverJvm()),
                        m.cpuMs(m.cpu().postgres())))
                .collect(Collectors.joining("; ")));
    }

    /**
     * The service's own statements run by pgbench, beside the yardstick and the service: the rate the
     * service could reach if all it did besides its SQL (HTTPS, JSON, the checks, the ledger) cost
     * nothing, and with its statements batched four payments to a transaction.
     */
    private static void printCeiling(List<Scenario> scenarios) {
        if (scenarios.stream().allMatch(s -> s.pgbench.isEmpty())) {
            return;
        }
        System.out.printf(Locale.ROOT, "%nThe service's own SQL run by pgbench, without the service (payments/s; ratio to "
                + "the yardstick of the same clients):%n%n");
        System.out.println("| scenario | clients | yardstick tps | service's SQL | ratio | 4 payments a transaction | ratio "
                + "| service | service / its SQL |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Scenario scenario : scenarios) {
            scenario.runs.forEach((clients, run) -> {
                Optional<Double> yardstick = scenario.pgbenchRate(PgbenchReference.Script.REFERENCE, clients);
                Optional<Double> own = scenario.pgbenchRate(PgbenchReference.Script.SERVICE, clients);
                Optional<Double> batched = scenario.pgbenchRate(PgbenchReference.Script.SERVICE_BATCHED, clients);
                System.out.printf(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %.1f | %s |%n", scenario.name, clients,
                        BenchmarkSupport.rate(yardstick), BenchmarkSupport.rate(own),
                        BenchmarkSupport.ratio(own, yardstick), BenchmarkSupport.rate(batched),
                        BenchmarkSupport.ratio(batched, yardstick), run.perSecond(),
                        BenchmarkSupport.ratio(Optional.of(run.perSecond()), own));
            });
        }
        for (Scenario scenario : scenarios) {
            Optional<Double> yardstick = scenario.pgbenchPeak(PgbenchReference.Script.REFERENCE);
            System.out.printf(Locale.ROOT, "Ceiling, %s, best against best: the service's SQL alone %s, batched %s%n",
                    scenario.name, BenchmarkSupport.ratio(scenario.pgbenchPeak(PgbenchReference.Script.SERVICE), yardstick),
                    BenchmarkSupport.ratio(scenario.pgbenchPeak(PgbenchReference.Script.SERVICE_BATCHED), yardstick));
        }
    }
}
