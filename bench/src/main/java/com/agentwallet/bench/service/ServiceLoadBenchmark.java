package com.agentwallet.bench.service;

import com.agentwallet.bench.BenchmarkSupport;
import com.agentwallet.bench.store.CpuMeter;
import com.agentwallet.bench.store.Pgbench;
import com.agentwallet.core.money.Usdc;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jdbi.v3.core.Jdbi;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The service under load the way its users meet it: the server binary in its own JVM, driven over
 * HTTPS with kept-alive connections, next to pgbench running one payment's SQL against the same
 * database (issue #10), and the service's own statements without the service ({@link
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
 */
public final class ServiceLoadBenchmark {
    private static final int WALLETS = 1000;
    private static final int PROVISIONING_CLIENTS = 16;
    private static final int OPEN_LOOP_CONNECTIONS = 64;
    /**
     * The open loop at half of the peak takes paths the closed loops did not (single payments
     * instead of batches, idle connections waking up), which the JIT compiles anew: it is warmed up
     * in its own shape while that lasts, at most this long, so that what is measured is the service
     * running, not its compiler.
     */
    private static final Duration OPEN_LOOP_WARMUP_LIMIT = Duration.ofSeconds(30);
    private static final List<Integer> READ_CLIENTS = List.of(16, 32);
    /** The warm-up of each run, after the warm-up of the whole service. */
    private static final int RUN_WARMUP = 3;
    /** The server's JIT is still busy while its compiler threads take more than this in two seconds. */
    private static final double JIT_BUSY_SECONDS = 0.05;
    /**
     * The service's warm-up lasts at most this long, or four times {@code --warmup} if that is
     * longer: on this two-core machine the JIT takes about two and a half minutes of load to settle
     * (its threads took 0.3–1.8 ms of CPU per payment in runs measured after 40 s).
     */
    private static final Duration WARMUP_LIMIT = Duration.ofMinutes(3);
    private static final double P99_GOAL_MS = 25;
    private static final double RATIO_GOAL = 0.6;
    private static final Usdc AMOUNT = Usdc.parse("0.01");
    private static final Usdc POOL_FUNDING = Usdc.parse("1000");
    /** The hot wallet pays in every hot run of the service and of pgbench: far more than any run spends. */
    private static final Usdc HOT_FUNDING = Usdc.parse("1000000");
    private static final Usdc EXPORT_FUNDING = Usdc.parse("10");
    private static final int FUNDING_BATCH = 100;
    private static final int TX_SAMPLE = 4096;
    private static final String PAYEE = BenchmarkSupport.externalAddress("service-load-benchmark-payee");
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Options(Optional<Path> serverJar, List<String> serverJvm, OptionalInt pool, List<Integer> clients,
                           int warmup, int seconds, int readSeconds, long exportRows, boolean exportJson,
                           boolean pgbench, OptionalInt openRate, List<Double> curve) {
        static Options parse(String[] args) {
            Optional<Path> serverJar = Optional.empty();
            List<String> serverJvm = List.of("-Xms1g", "-Xmx1g", "-XX:MaxGCPauseMillis=10");
            OptionalInt pool = OptionalInt.empty();
            List<Integer> clients = List.of(16, 32, 64);
            int warmup = 10;
            int seconds = 15;
            int readSeconds = 8;
            long exportRows = 1_000_000;
            boolean exportJson = false;
            boolean pgbench = true;
            OptionalInt openRate = OptionalInt.empty();
            List<Double> curve = List.of();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--server-jar" -> serverJar = Optional.of(Path.of(BenchmarkSupport.value(args, ++i)));
                    case "--server-jvm" -> serverJvm = Arrays.stream(BenchmarkSupport.value(args, ++i).trim()
                            .split("\\s+")).filter(s -> !s.isEmpty()).toList();
                    case "--pool" -> pool = OptionalInt.of(BenchmarkSupport.positive(args, ++i));
                    case "--clients" -> clients = commaSeparated(BenchmarkSupport.value(args, ++i), Integer::parseInt);
                    case "--warmup" -> warmup = BenchmarkSupport.notNegative(args, ++i);
                    case "--seconds" -> seconds = BenchmarkSupport.positive(args, ++i);
                    case "--read-seconds" -> readSeconds = BenchmarkSupport.positive(args, ++i);
                    case "--export-rows" -> exportRows = BenchmarkSupport.positive(args, ++i);
                    case "--export-json" -> exportJson = true;
                    case "--no-export" -> exportRows = 0;
                    case "--no-pgbench" -> pgbench = false;
                    case "--open-rate" -> openRate = OptionalInt.of(BenchmarkSupport.positive(args, ++i));
                    case "--curve" -> curve = commaSeparated(BenchmarkSupport.value(args, ++i), Double::parseDouble)
                            .stream().sorted().toList();
                    case "-h", "--help" -> {
                        System.out.println("usage: ServiceLoadBenchmark [--server-jar PATH] [--server-jvm \"-Xms1g -Xmx1g -XX:MaxGCPauseMillis=10\"] "
                                + "[--pool N] [--clients 16,32,64] [--warmup 10] [--seconds 15] [--read-seconds 8] "
                                + "[--export-rows 1000000] [--export-json] [--no-export] [--no-pgbench] [--open-rate N] "
                                + "[--curve 0.2,0.3]");
                        System.exit(0);
                    }
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            if (clients.isEmpty() || clients.stream().anyMatch(c -> c <= 0)) {
                throw new IllegalArgumentException("--clients takes positive numbers, comma-separated");
            }
            if (curve.stream().anyMatch(f -> !(f > 0 && f <= 1))) {
                throw new IllegalArgumentException("--curve takes fractions of the peak above 0 and at most 1, comma-separated");
            }
            return new Options(serverJar, serverJvm, pool, clients, warmup, seconds, readSeconds, exportRows,
                    exportJson, pgbench, openRate, curve);
        }

        private static <T> List<T> commaSeparated(String value, Function<String, T> parse) {
            return Arrays.stream(value.split(",")).map(String::trim).map(parse).toList();
        }

        int runWarmup() {
            return Math.min(warmup, RUN_WARMUP);
        }
    }

    /** A wallet to pay from, with its session token. */
    private record Payer(String id, String token) {
    }

    /** What the API made for the run: the policy, the wallets (the pool, the hot one, the export's). */
    private record Fleet(List<Payer> pool, Payer hot, Payer export, LoadDriver.Measured created, double fundingSeconds) {
    }

    /** A payment scenario: its wallets, its closed-loop runs by client count, its open-loop runs. */
    private static final class Scenario {
        final String name;
        final boolean hot;
        final List<Payer> payers;
        final Map<Integer, LoadDriver.Measured> runs = new LinkedHashMap<>();
        /** pgbench's runs by script, then by the service's client count they go with. */
        final Map<PgbenchReference.Script, Map<Integer, PgbenchReference.Run>> pgbench =
                new EnumMap<>(PgbenchReference.Script.class);
        /** The open loop the goal is judged on: at half of the peak, or at {@code --open-rate}. */
        OpenLoop halfPeak;
        /** The open loops of {@code --curve}, at fractions of the peak, lowest first. */
        final List<OpenLoop> curve = new ArrayList<>();

        Scenario(String name, boolean hot, List<Payer> payers) {
            this.name = name;
            this.hot = hot;
            this.payers = payers;
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
        Options options = Options.parse(args);
        if (!LoadGeneratorJvm.isThisOne()) {
            System.exit(LoadGeneratorJvm.relaunch(ServiceLoadBenchmark.class, args));
        }
        String commandLine = ProcessHandle.current().info().commandLine()
                .orElse("java ... " + ServiceLoadBenchmark.class.getName() + " " + String.join(" ", args));
        BenchmarkSupport.runInTempDirectory("service-load-benchmark", temp -> run(options, temp, commandLine));
    }

    private static void run(Options options, Path temp, String commandLine) throws Exception {
        long started = System.nanoTime();
        System.out.printf(Locale.ROOT, "Service load benchmark: the server binary over HTTPS with keep-alive; clients %s; "
                        + "%d s warm-up at least (longer while the server's JIT is busy), then %d s before each run; %d s "
                        + "measured per run%n", options.clients(), options.warmup(), options.runWarmup(), options.seconds());
        String machine = BenchmarkSupport.machine();
        System.out.println(machine);
        System.out.printf(Locale.ROOT, "load generator: pid %d, JVM options %s%n", ProcessHandle.current().pid(),
                String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        Path jar = options.serverJar().orElseGet(ServiceLoadBenchmark::defaultServerJar).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("no server binary at " + jar + ": build it with "
                    + "'mvn -B -q -pl bench -am package -DskipTests', or name it with --server-jar");
        }
        Usdc deposit = Usdc.ofMicros(POOL_FUNDING.micros() * WALLETS + HOT_FUNDING.micros() + EXPORT_FUNDING.micros());
        long launching = System.nanoTime();
        try (LaunchedServer server = LaunchedServer.launch(jar, temp, options.serverJvm(), options.pool(),
                deposit.toString())) {
            System.out.printf(Locale.ROOT, "server: %s (built %s), pid %d, JVM options %s, database pool %d; organisation, "
                            + "admin key and deposit by the operator commands, then started, in %.1f s; its log: %s%n", jar,
                    Files.getLastModifiedTime(jar), server.pid(), String.join(" ", server.jvmOptions()), server.pool(),
                    (System.nanoTime() - launching) / 1e9, server.log());
            Jdbi jdbi = server.jdbi();
            System.out.println("database: " + BenchmarkSupport.serverVersion(jdbi));
            System.out.println("database settings: " + BenchmarkSupport.serverSettings(jdbi));
            CpuMeter cpu = new CpuMeter(server.postgresData());
            LoadDriver driver = new LoadDriver(server, cpu, new Disturbances(jdbi, server.gcLog()));

            Fleet fleet = provision(server, driver);
            Scenario many = new Scenario(WALLETS + " wallets", false, fleet.pool());
            Scenario hot = new Scenario("1 hot wallet", true, List.of(fleet.hot()));
            List<Scenario> scenarios = List.of(many, hot);
            AtomicReferenceArray<String> txIds = new AtomicReferenceArray<>(TX_SAMPLE);
            measurePayments(jdbi, driver, server, scenarios, txIds, options);
            List<LoadDriver.Measured> reads = reads(driver, fleet, txIds, options);
            pgbench(server, jdbi, cpu, temp, fleet, scenarios, options);
            List<ExportMeasurement.Outcome> exports = new ArrayList<>();
            if (options.exportRows() > 0) {
                exports.addAll(export(server, jdbi, fleet.export(), options));
            }

            printSummary(scenarios, fleet, reads, exports, options);
            System.out.println(server.logSummary());
            System.out.println(machine);
            System.out.printf(Locale.ROOT, "load average at end: %s; whole run %.0f s%n", BenchmarkSupport.loadAverage(),
                    (System.nanoTime() - started) / 1e9);
            System.out.println("command: " + commandLine);
        }
    }

    /**
     * {@code bench/<folder>/benchmarks.jar} was built with {@code bootstrap/<folder>/agent-wallet.jar}
     * beside it in the same repository; run from elsewhere, {@code bootstrap/target/agent-wallet.jar}
     * of the working directory.
     */
    private static Path defaultServerJar() {
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
    // Provisioning: a policy, the wallets, their funding

    private static Fleet provision(LaunchedServer server, LoadDriver driver) throws Exception {
        String policy;
        try (HttpConnection api = server.api(new AtomicInteger())) {
            policy = created(api.send("POST", "/v1/policies", "{\"name\":\"Bench: no caps\"}"), "POST /v1/policies")
                    .path("id").asText();
        }
        int count = WALLETS + 1;
        Payer[] payers = new Payer[count];
        System.out.printf(Locale.ROOT, "provisioning: %d wallets (POST /v1/wallets) at %d clients ...%n", count,
                PROVISIONING_CLIENTS);
        LoadDriver.Measured created = driver.closedCount("wallet creation", PROVISIONING_CLIENTS, (connection, ticket) -> {
            HttpConnection.Response response = connection.send("POST", "/v1/wallets", walletBody(policy,
                    "bench-agent-" + ticket));
            if (response.status() != 200) {
                return LoadDriver.unexpected(response);
            }
            JsonNode wallet = JSON.readTree(response.body());
            payers[(int) ticket] = new Payer(wallet.path("id").asText(), wallet.path("session_token").asText());
            return null;
        }, count);
        System.out.println("  " + created.summary("wallets"));
        System.out.println("  " + created.cpuLine());
        if (created.ok() != count) {
            throw new IllegalStateException("provisioning made " + created.ok() + " of " + count + " wallets: "
                    + created.problems());
        }
        try (HttpConnection api = server.api(new AtomicInteger())) {
            JsonNode exportWallet = created(api.send("POST", "/v1/wallets", walletBody(policy, "bench-export")),
                    "POST /v1/wallets");
            Payer export = new Payer(exportWallet.path("id").asText(), exportWallet.path("session_token").asText());
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < WALLETS; i++) {
                lines.add(fundingLine(payers[i].id(), POOL_FUNDING));
            }
            lines.add(fundingLine(payers[WALLETS].id(), HOT_FUNDING));
            lines.add(fundingLine(export.id(), EXPORT_FUNDING));
            long funding = System.nanoTime();
            for (int from = 0; from < lines.size(); from += FUNDING_BATCH) {
                created(api.send("POST", "/v1/wallets/fund-batch", "[" + String.join(",", lines.subList(from,
                        Math.min(lines.size(), from + FUNDING_BATCH))) + "]"), "POST /v1/wallets/fund-batch");
            }
            double fundingSeconds = (System.nanoTime() - funding) / 1e9;
            System.out.printf(Locale.ROOT, "  funded %d wallets with POST /v1/wallets/fund-batch (%d per batch) in %.2f s: "
                            + "%s USDC each, the hot wallet %s; each payment pays %s USDC to an address outside the service, "
                            + "under a policy without caps%n", lines.size(), FUNDING_BATCH, fundingSeconds, POOL_FUNDING,
                    HOT_FUNDING, AMOUNT);
            return new Fleet(List.of(payers).subList(0, WALLETS), payers[WALLETS], export, created, fundingSeconds);
        }
    }

    private static String walletBody(String policy, String agent) {
        return "{\"agent_id\":\"" + agent + "\",\"policy_id\":\"" + policy
                + "\",\"label\":\"bench\",\"session_ttl_seconds\":86400}";
    }

    private static String fundingLine(String wallet, Usdc amount) {
        return "{\"wallet_id\":\"" + wallet + "\",\"amount\":\"" + amount + "\"}";
    }

    private static JsonNode created(HttpConnection.Response response, String what) throws IOException {
        if (response.status() != 200) {
            throw new IllegalStateException(what + " answered " + response.status() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    // ---------------------------------------------------------------------------------------------
    // Payments

    /**
     * Pays 0.01 from a random one of {@code payers}, with a unique idempotency key; only a 200 with
     * the transaction confirmed counts. Every eighth payment's id goes to {@code txIds} for the reads.
     */
    private static LoadDriver.Operation payments(List<Payer> payers, String keyPrefix,
                                                 AtomicReferenceArray<String> txIds) {
        return (connection, ticket) -> {
            Payer payer = payers.get(payers.size() == 1 ? 0 : ThreadLocalRandom.current().nextInt(payers.size()));
            HttpConnection.Response response = connection.send("POST", "/v1/payments", "{\"wallet_id\":\"" + payer.id()
                    + "\",\"to\":\"" + PAYEE + "\",\"amount\":\"" + AMOUNT + "\",\"idempotency_key\":\"" + keyPrefix
                    + ticket + "\"}", "Session-Token: " + payer.token());
            String body = response.body();
            if (response.status() != 200) {
                return LoadDriver.unexpected(response);
            }
            if (!body.contains("\"status\":\"confirmed\"")) {
                int at = body.indexOf("\"status\":\"");
                return "200 " + (at < 0 ? "without status" : body.substring(at + 10, body.indexOf('"', at + 10)));
            }
            if ((ticket & 7) == 0) {
                int at = body.indexOf("\"tx_id\":\"");
                if (at >= 0) {
                    txIds.set((int) ((ticket >>> 3) % TX_SAMPLE), body.substring(at + 9, body.indexOf('"', at + 9)));
                }
            }
            return null;
        };
    }

    /**
     * The closed-loop runs of each scenario at each client count, each right after a checkpoint as
     * pgbench's runs are, then each scenario's open loop at half of its best closed-loop rate: a
     * checkpoint, then a warm-up in the open loop's own shape, then the measured run, which so sees
     * the service in its steady state. Each run's idempotency keys have a prefix of their own.
     */
    private static void measurePayments(Jdbi jdbi, LoadDriver driver, LaunchedServer server, List<Scenario> scenarios,
                                        AtomicReferenceArray<String> txIds, Options options) throws InterruptedException {
        warmUp(driver, server, scenarios, txIds, options);
        int warmup = options.runWarmup();
        int run = 0;
        for (Scenario scenario : scenarios) {
            for (int clients : options.clients()) {
                String keys = "r" + run++ + "-";
                PgbenchReference.checkpoint(jdbi);
                scenario.runs.put(clients, measure(() -> driver.closed(scenario.name + ", " + clients + " clients",
                                clients, payments(scenario.payers, keys, txIds), Duration.ofSeconds(warmup),
                                Duration.ofSeconds(options.seconds())),
                        String.format(Locale.ROOT, "%d s warm-up, %d s measured", warmup, options.seconds())));
            }
        }
        for (Scenario scenario : scenarios) {
            boolean fixed = options.openRate().isPresent();
            scenario.halfPeak = openLoop(jdbi, driver, server, scenario,
                    fixed ? "open loop at --open-rate" : "open loop at half of peak",
                    fixed ? options.openRate().getAsInt() : scenario.peak() / 2, "r" + run++ + "-", txIds, options);
            for (double fraction : options.curve()) {
                scenario.curve.add(openLoop(jdbi, driver, server, scenario,
                        String.format(Locale.ROOT, "open loop at %.2f of peak", fraction), scenario.peak() * fraction,
                        "r" + run++ + "-", txIds, options));
            }
        }
    }

    /**
     * One open loop at {@code target} payments/s: a checkpoint, a warm-up in its own shape while the
     * server's JIT is busy, then the measured run, latency counted from each request's scheduled send.
     */
    private static OpenLoop openLoop(Jdbi jdbi, LoadDriver driver, LaunchedServer server, Scenario scenario, String label,
                                     double target, String keys, AtomicReferenceArray<String> txIds, Options options)
            throws InterruptedException {
        int warmup = options.runWarmup();
        String name = String.format(Locale.ROOT, "%s, %s (%.0f/s)", scenario.name, label, target);
        PgbenchReference.checkpoint(jdbi);
        System.out.printf(Locale.ROOT, "open-loop warm-up, %s at %.0f/s on %d connections: %d s or more ...%n",
                scenario.name, target, OPEN_LOOP_CONNECTIONS, warmup);
        whileCompiling(server, Duration.ofSeconds(warmup), OPEN_LOOP_WARMUP_LIMIT, round -> driver.open("warm-up",
                OPEN_LOOP_CONNECTIONS, payments(scenario.payers, keys + "w" + round + "-", txIds), target,
                Duration.ZERO, Duration.ofSeconds(2)).problems());
        LoadDriver.Measured measured = measure(() -> driver.open(name, OPEN_LOOP_CONNECTIONS,
                        payments(scenario.payers, keys, txIds), target, Duration.ofSeconds(warmup),
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

    /**
     * Both scenarios in turn, a second each at the first client count, for {@code --warmup} seconds
     * and on while the server's JIT is still busy (its compiler threads took more than 50 ms of CPU
     * in the last two seconds), for at most {@link #WARMUP_LIMIT} or four times as long: on a loaded
     * two-core machine the compilers get little CPU, and their work (and the slow code before it)
     * would otherwise be measured.
     */
    private static void warmUp(LoadDriver driver, LaunchedServer server, List<Scenario> scenarios,
                               AtomicReferenceArray<String> txIds, Options options) throws InterruptedException {
        if (options.warmup() == 0) {
            return;
        }
        int clients = options.clients().get(0);
        System.out.printf(Locale.ROOT, "service warm-up, both scenarios in turn at %d clients: %d s or more ...%n", clients,
                options.warmup());
        whileCompiling(server, Duration.ofSeconds(options.warmup()), Collections.max(List.of(WARMUP_LIMIT,
                Duration.ofSeconds(4L * options.warmup()))), round -> {
            Map<String, Long> problems = new TreeMap<>();
            for (int i = 0; i < scenarios.size(); i++) {
                String keys = "w" + round + "s" + i + "-";
                driver.closed("warm-up", clients, payments(scenarios.get(i).payers, keys, txIds), Duration.ZERO,
                        Duration.ofSeconds(1)).problems().forEach((problem, n) -> problems.merge(problem, n, Long::sum));
            }
            return problems;
        });
    }

    /**
     * Runs {@code slice} (two seconds of load) again and again for {@code minimum}, and on while the
     * server's JIT is still busy (its compiler threads took more than 50 ms of CPU in the last
     * slice), for at most {@code limit}; prints how long that took.
     */
    private static void whileCompiling(LaunchedServer server, Duration minimum, Duration limit, Slice slice)
            throws InterruptedException {
        long started = System.nanoTime();
        Map<String, Long> problems = new TreeMap<>();
        double compiling;
        int round = 0;
        do {
            CpuMeter.Threads before = CpuMeter.jvmThreads(server.pid());
            slice.run(round++).forEach((problem, n) -> problems.merge(problem, n, Long::sum));
            compiling = jitSeconds(server, before);
        } while (System.nanoTime() - started < minimum.toNanos()
                || (compiling > JIT_BUSY_SECONDS && System.nanoTime() - started < limit.toNanos()));
        System.out.printf(Locale.ROOT, "  warmed up for %.0f s (the server's JIT: %.0f ms of CPU in the last 2 s)%s%n",
                (System.nanoTime() - started) / 1e9, compiling * 1000,
                problems.isEmpty() ? "" : "; NOT AS EXPECTED: " + problems);
    }

    /** Two seconds of load, the {@code round}-th; answers what was not answered as expected. */
    @FunctionalInterface
    private interface Slice {
        Map<String, Long> run(int round) throws InterruptedException;
    }

    /**
     * The CPU the server's compiler threads used since {@code earlier}, those alive now: the JVM
     * starts and ends compiler threads as the work asks, and one that ended is left out.
     */
    private static double jitSeconds(LaunchedServer server, CpuMeter.Threads earlier) {
        return CpuMeter.jvmThreads(server.pid()).byKindSince(earlier).getOrDefault("JIT", 0.0);
    }

    @FunctionalInterface
    private interface Measurement {
        LoadDriver.Measured run() throws InterruptedException;
    }

    /** Runs the measurement and prints its figures. */
    private static LoadDriver.Measured measure(Measurement measurement, String how) throws InterruptedException {
        LoadDriver.Measured measured = measurement.run();
        System.out.printf(Locale.ROOT, "service, %s (%s):%n  %s%n  %s%n  %s%n", measured.name(), how,
                measured.summary("payments"), measured.cpuLine(), measured.disturbances());
        return measured;
    }

    // ---------------------------------------------------------------------------------------------
    // Reads

    private static List<LoadDriver.Measured> reads(LoadDriver driver, Fleet fleet, AtomicReferenceArray<String> txIds,
                                                   Options options) throws InterruptedException {
        List<String> transactions = new ArrayList<>();
        for (int i = 0; i < txIds.length(); i++) {
            Optional.ofNullable(txIds.get(i)).ifPresent(transactions::add);
        }
        if (transactions.isEmpty()) {
            throw new IllegalStateException("no payment went through: nothing to read");
        }
        Map<String, Supplier<String>> targets = new LinkedHashMap<>();
        targets.put("GET /v1/wallets/{id}", () -> "/v1/wallets/" + randomOf(fleet.pool()).id());
        targets.put("GET /v1/transactions/{id}", () -> "/v1/transactions/" + randomOf(transactions));
        targets.put("GET /v1/wallets/{id}/transactions?limit=20",
                () -> "/v1/wallets/" + randomOf(fleet.pool()).id() + "/transactions?limit=20");
        targets.put("GET /v1/transactions?limit=100", () -> "/v1/transactions?limit=100");
        List<LoadDriver.Measured> reads = new ArrayList<>();
        for (Map.Entry<String, Supplier<String>> target : targets.entrySet()) {
            for (int clients : READ_CLIENTS) {
                LoadDriver.Measured measured = driver.closed(target.getKey(), clients, (connection, ticket) -> {
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
    private static void pgbench(LaunchedServer server, Jdbi jdbi, CpuMeter cpu, Path temp, Fleet fleet,
                                List<Scenario> scenarios, Options options) throws IOException {
        Optional<Path> pgbench = options.pgbench() ? Pgbench.find() : Optional.empty();
        if (pgbench.isEmpty()) {
            System.out.println(options.pgbench() ? "pgbench not found (looked at $PGBENCH, /usr/bin/pgbench and the "
                    + "PATH): no reference figures" : "pgbench skipped (--no-pgbench)");
            return;
        }
        PgbenchReference reference = new PgbenchReference(pgbench.get(), temp, server, jdbi, cpu,
                fleet.pool().stream().map(Payer::id).toList(), fleet.hot().id(), PAYEE, AMOUNT.micros());
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

    private static List<ExportMeasurement.Outcome> export(LaunchedServer server, Jdbi jdbi, Payer wallet,
                                                          Options options) throws IOException, InterruptedException {
        System.out.printf(Locale.ROOT, "export: seeding the wallet %s to %d transactions by SQL (one INSERT ... SELECT "
                + "FROM generate_series; confirmed payments, not made through the API) ...%n", wallet.id(),
                options.exportRows());
        long seeding = System.nanoTime();
        long seeded = ExportMeasurement.seed(jdbi, server.orgId(), wallet.id(), options.exportRows(), PAYEE,
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

    private static void printSummary(List<Scenario> scenarios, Fleet fleet, List<LoadDriver.Measured> reads,
                                     List<ExportMeasurement.Outcome> exports, Options options) {
        System.out.printf(Locale.ROOT, "%nSummary (%d s per run; pgbench: the same SQL shape, same database, same "
                + "clients and seconds):%n%n", options.seconds());
        System.out.println("| scenario | clients | service pay/s | p50 ms | p99 ms | p99.9 ms | pgbench tps | ratio |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        for (Scenario scenario : scenarios) {
            scenario.runs.forEach((clients, run) -> {
                Optional<Double> tps = scenario.pgbenchRate(PgbenchReference.Script.REFERENCE, clients);
                System.out.printf(Locale.ROOT, "| %s | %d | %.1f | %.2f | %.2f | %.2f | %s | %s |%n", scenario.name,
                        clients, run.perSecond(), run.ms(50), run.ms(99), run.ms(99.9), rate(tps),
                        ratio(Optional.of(run.perSecond()), tps));
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
                (WALLETS + 2 + FUNDING_BATCH - 1) / FUNDING_BATCH, fleet.fundingSeconds());
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
                        rate(yardstick), rate(own), ratio(own, yardstick), rate(batched), ratio(batched, yardstick),
                        run.perSecond(), ratio(Optional.of(run.perSecond()), own));
            });
        }
        for (Scenario scenario : scenarios) {
            Optional<Double> yardstick = scenario.pgbenchPeak(PgbenchReference.Script.REFERENCE);
            System.out.printf(Locale.ROOT, "Ceiling, %s, best against best: the service's SQL alone %s, batched %s%n",
                    scenario.name, ratio(scenario.pgbenchPeak(PgbenchReference.Script.SERVICE), yardstick),
                    ratio(scenario.pgbenchPeak(PgbenchReference.Script.SERVICE_BATCHED), yardstick));
        }
    }

    private static String rate(Optional<Double> perSecond) {
        return perSecond.map(r -> String.format(Locale.ROOT, "%.1f", r)).orElse("-");
    }

    /** {@code rate} over {@code of}, or "-" if either is missing. */
    private static String ratio(Optional<Double> rate, Optional<Double> of) {
        return rate.flatMap(r -> of.map(o -> String.format(Locale.ROOT, "%.2f", r / o))).orElse("-");
    }
}
