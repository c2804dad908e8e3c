package com.agentwallet.bench.service;

import com.agentwallet.bench.BenchmarkSupport;
import com.agentwallet.bench.store.CpuMeter;
import com.agentwallet.bench.store.Pgbench;
import com.agentwallet.core.money.Usdc;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jdbi.v3.core.Jdbi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One build of the server under load: launched ({@link LaunchedServer}) with its wallets made
 * through the API (1,000 for the pool, a hot one, one for the export), driven by its own
 * {@link LoadDriver}. What the single run and the comparison of two builds both do to a server:
 * provision it, warm it up until its JIT settles, and measure closed loops of payments.
 */
final class ServerUnderTest implements AutoCloseable {
    static final int WALLETS = 1000;
    static final Usdc AMOUNT = Usdc.parse("0.01");
    static final String PAYEE = BenchmarkSupport.externalAddress("service-load-benchmark-payee");
    private static final int PROVISIONING_CLIENTS = 16;
    /** The server's JIT is still busy while its compiler threads take more than this in two seconds. */
    private static final double JIT_BUSY_SECONDS = 0.05;
    /**
     * The service's warm-up lasts at most this long, or four times {@code --warmup} if that is
     * longer: on this two-core machine the JIT takes about two and a half minutes of load to settle
     * (its threads took 0.3–1.8 ms of CPU per payment in runs measured after 40 s).
     */
    private static final Duration WARMUP_LIMIT = Duration.ofMinutes(3);
    private static final Usdc POOL_FUNDING = Usdc.parse("1000");
    /** The hot wallet pays in every hot run of the service and of pgbench: far more than any run spends. */
    private static final Usdc HOT_FUNDING = Usdc.parse("1000000");
    private static final Usdc EXPORT_FUNDING = Usdc.parse("10");
    static final int FUNDING_BATCH = 100;
    private static final int TX_SAMPLE = 4096;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A wallet to pay from, with its session token. */
    record Payer(String id, String token) {
    }

    /** What the API made for the run: the wallets (the pool, the hot one, the export's), and how fast. */
    record Fleet(List<Payer> pool, Payer hot, Payer export, LoadDriver.Measured created, double fundingSeconds) {
    }

    /** Two seconds of load, the {@code round}-th; answers what was not answered as expected. */
    @FunctionalInterface
    interface Slice {
        Map<String, Long> run(int round) throws InterruptedException;
    }

    @FunctionalInterface
    interface Measurement {
        LoadDriver.Measured run() throws InterruptedException;
    }

    final Path jar;
    final LaunchedServer server;
    final Jdbi jdbi;
    final CpuMeter cpu;
    final LoadDriver driver;
    final Fleet fleet;
    /** A sample of the ids of the payments made, for the reads. */
    private final AtomicReferenceArray<String> txIds = new AtomicReferenceArray<>(TX_SAMPLE);

    private ServerUnderTest(Path jar, LaunchedServer server, Jdbi jdbi, CpuMeter cpu, LoadDriver driver, Fleet fleet) {
        this.jar = jar;
        this.server = server;
        this.jdbi = jdbi;
        this.cpu = cpu;
        this.driver = driver;
        this.fleet = fleet;
    }

    /** Launches the server of {@code jar} with its data in {@code temp}, and provisions its wallets. */
    static ServerUnderTest start(Path jar, Path temp, ServiceLoadOptions options) throws Exception {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("no server binary at " + jar + ": build it with "
                    + "'mvn -B -q -pl bench -am package -DskipTests', or name it with --server-jar");
        }
        Files.createDirectories(temp);
        Usdc deposit = Usdc.ofMicros(POOL_FUNDING.micros() * WALLETS + HOT_FUNDING.micros() + EXPORT_FUNDING.micros());
        long launching = System.nanoTime();
        LaunchedServer server = LaunchedServer.launch(jar, temp, options.serverJvm(), options.pool(), deposit.toString());
        try {
            System.out.printf(Locale.ROOT, "server: %s (built %s), pid %d, JVM options %s, database pool %d; "
                            + "organisation, admin key and deposit by the operator commands, then started, in %.1f s; "
                            + "its log: %s%n", jar, Files.getLastModifiedTime(jar), server.pid(),
                    String.join(" ", server.jvmOptions()), server.pool(), (System.nanoTime() - launching) / 1e9,
                    server.log());
            Jdbi jdbi = server.jdbi();
            System.out.println("database: " + BenchmarkSupport.serverVersion(jdbi));
            System.out.println("database settings: " + BenchmarkSupport.serverSettings(jdbi));
            CpuMeter cpu = new CpuMeter(server.postgresData());
            LoadDriver driver = new LoadDriver(server, cpu, new Disturbances(jdbi, server.gcLog()));
            return new ServerUnderTest(jar, server, jdbi, cpu, driver, provision(server, driver));
        } catch (Exception | Error e) {
            server.close();
            throw e;
        }
    }

    /** The wallets of a scenario: the pool, or the hot wallet alone. */
    List<Payer> payers(boolean hot) {
        return hot ? List.of(fleet.hot()) : fleet.pool();
    }

    /** The ids of payments made so far, a sample of at most {@value #TX_SAMPLE}. */
    List<String> transactions() {
        List<String> transactions = new ArrayList<>();
        for (int i = 0; i < txIds.length(); i++) {
            Optional.ofNullable(txIds.get(i)).ifPresent(transactions::add);
        }
        return transactions;
    }

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

    /** The batches {@code fund-batch} took to fund every wallet. */
    static int fundingBatches() {
        return (WALLETS + 2 + FUNDING_BATCH - 1) / FUNDING_BATCH;
    }

    static String walletBody(String policy, String agent) {
        return "{\"agent_id\":\"" + agent + "\",\"policy_id\":\"" + policy
                + "\",\"label\":\"bench\",\"session_ttl_seconds\":86400}";
    }

    static String fundingLine(String wallet, Usdc amount) {
        return "{\"wallet_id\":\"" + wallet + "\",\"amount\":\"" + amount + "\"}";
    }

    static JsonNode created(HttpConnection.Response response, String what) throws IOException {
        if (response.status() != 200) {
            throw new IllegalStateException(what + " answered " + response.status() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /**
     * Pays 0.01 from a random one of the scenario's wallets, with a unique idempotency key; only a
     * 200 with the transaction confirmed counts. Every eighth payment's id is kept for the reads.
     */
    LoadDriver.Operation payments(boolean hot, String keyPrefix) {
        List<Payer> payers = payers(hot);
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
     * One closed-loop run of payments: a checkpoint (as before each of pgbench's runs), the run's
     * warm-up, then {@code --seconds} measured; prints its figures.
     */
    LoadDriver.Measured closed(String scenario, boolean hot, int clients, String keyPrefix, ServiceLoadOptions options)
            throws InterruptedException {
        int warmup = options.runWarmup();
        Pgbench.checkpoint(jdbi);
        return measure(() -> driver.closed(scenario + ", " + clients + " clients", clients, payments(hot, keyPrefix),
                Duration.ofSeconds(warmup), Duration.ofSeconds(options.seconds())),
                String.format(Locale.ROOT, "%d s warm-up, %d s measured", warmup, options.seconds()));
    }

    /** Runs the measurement and prints its figures. */
    static LoadDriver.Measured measure(Measurement measurement, String how) throws InterruptedException {
        LoadDriver.Measured measured = measurement.run();
        System.out.printf(Locale.ROOT, "service, %s (%s):%n  %s%n  %s%n  %s%n", measured.name(), how,
                measured.summary("payments"), measured.cpuLine(), measured.disturbances());
        return measured;
    }

    /**
     * Both scenarios in turn, a second each at the first client count, for {@code --warmup} seconds
     * and on while the server's JIT is still busy (its compiler threads took more than 50 ms of CPU
     * in the last two seconds), for at most {@link #WARMUP_LIMIT} or four times as long: on a loaded
     * two-core machine the compilers get little CPU, and their work (and the slow code before it)
     * would otherwise be measured.
     */
    void warmUp(ServiceLoadOptions options) throws InterruptedException {
        if (options.warmup() == 0) {
            return;
        }
        int clients = options.clients().get(0);
        System.out.printf(Locale.ROOT, "service warm-up, both scenarios in turn at %d clients: %d s or more ...%n", clients,
                options.warmup());
        whileCompiling(Duration.ofSeconds(options.warmup()), Collections.max(List.of(WARMUP_LIMIT,
                Duration.ofSeconds(4L * options.warmup()))), round -> {
            Map<String, Long> problems = new TreeMap<>();
            for (boolean hot : new boolean[]{false, true}) {
                String keys = "w" + round + (hot ? "h" : "p") + "-";
                driver.closed("warm-up", clients, payments(hot, keys), Duration.ZERO, Duration.ofSeconds(1)).problems()
                        .forEach((problem, n) -> problems.merge(problem, n, Long::sum));
            }
            return problems;
        });
    }

    /**
     * Runs {@code slice} (two seconds of load) again and again for {@code minimum}, and on while the
     * server's JIT is still busy (its compiler threads took more than 50 ms of CPU in the last
     * slice), for at most {@code limit}; prints how long that took.
     */
    void whileCompiling(Duration minimum, Duration limit, Slice slice) throws InterruptedException {
        long started = System.nanoTime();
        Map<String, Long> problems = new TreeMap<>();
        double compiling;
        int round = 0;
        do {
            CpuMeter.Threads before = CpuMeter.jvmThreads(server.pid());
            slice.run(round++).forEach((problem, n) -> problems.merge(problem, n, Long::sum));
            compiling = jitSeconds(before);
        } while (System.nanoTime() - started < minimum.toNanos()
                || (compiling > JIT_BUSY_SECONDS && System.nanoTime() - started < limit.toNanos()));
        System.out.printf(Locale.ROOT, "  warmed up for %.0f s (the server's JIT: %.0f ms of CPU in the last 2 s)%s%n",
                (System.nanoTime() - started) / 1e9, compiling * 1000,
                problems.isEmpty() ? "" : "; NOT AS EXPECTED: " + problems);
    }

    /**
     * The CPU the server's compiler threads used since {@code earlier}, those alive now: the JVM
     * starts and ends compiler threads as the work asks, and one that ended is left out.
     */
    private double jitSeconds(CpuMeter.Threads earlier) {
        return CpuMeter.jvmThreads(server.pid()).byKindSince(earlier).getOrDefault("JIT", 0.0);
    }

    @Override
    public void close() {
        server.close();
    }
}
