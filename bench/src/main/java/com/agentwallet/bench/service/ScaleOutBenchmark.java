package com.agentwallet.bench.service;

import com.agentwallet.bench.Arguments;
import com.agentwallet.bench.BenchmarkSupport;
import com.agentwallet.bench.store.CpuMeter;
import com.agentwallet.core.money.Usdc;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jdbi.v3.core.Jdbi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Payments per second through {@code POST /v1/payments} with one server process and with two on
 * the same PostgreSQL, measured side by side in one run. Server A is launched as the other
 * benchmarks launch it (embedded PostgreSQL, simulator ledger); server B is the same binary with a
 * data directory of its own on A's database, A's simulator journal and A's session signing key
 * ({@link LaunchedServer#second}), started once before the warm-up and running throughout: in the
 * one-process phases it is idle (its background workers still poll the database, as a deployed
 * second process does), and the clients are simply not sent to it.
 *
 * <p>{@code --clients} agents, each with a wallet of its own under a policy without caps and a
 * session token, pay 0.01 USDC to an address outside the service in a closed loop, each on its
 * own keep-alive HTTPS connection, each payment under an idempotency key of its own. A warm-up
 * with the clients split across both servers warms both JVMs; then each round measures the two
 * configurations one right after the other, for {@code --seconds} each: every client on A, and the
 * same clients split evenly (even-numbered on A, odd-numbered on B). The order turns from round to
 * round (one then two, two then one, ...), so the machine's drift falls on both alike. Any answer
 * but a 200 with a paid payment fails the run. At the end the books are checked in the database:
 * every payment answered 200 is one payment row, no other payment row exists, and the wallets hold
 * their funding less what was answered paid.
 *
 * <pre>java -cp bench/target/benchmarks.jar com.agentwallet.bench.service.ScaleOutBenchmark</pre>
 */
public final class ScaleOutBenchmark {
    private static final String USAGE = "usage: ScaleOutBenchmark [--server-jar PATH] [--clients 16] [--seconds 20] "
            + "[--warmup 10] [--rounds 2]";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Usdc AMOUNT = Usdc.parse("0.01");
    /** Far more than any run spends: a client paying 1,000 times a second for 10,000 s. */
    private static final Usdc WALLET_FUNDING = Usdc.parse("100000");
    private static final String PAYEE = BenchmarkSupport.externalAddress("scale-out-benchmark-payee");

    record Options(Optional<Path> serverJar, int clients, int seconds, int warmup, int rounds) {
        static Options parse(String... args) {
            Arguments in = new Arguments(args);
            Optional<Path> serverJar = Optional.empty();
            int clients = 16;
            int seconds = 20;
            int warmup = 10;
            int rounds = 2;
            while (in.hasNext()) {
                switch (in.next()) {
                    case "--server-jar" -> serverJar = Optional.of(in.path());
                    case "--clients" -> clients = in.positive();
                    case "--seconds" -> seconds = in.positive();
                    case "--warmup" -> warmup = in.notNegative();
                    case "--rounds" -> rounds = in.positive();
                    default -> throw in.unknown();
                }
            }
            return new Options(serverJar, clients, seconds, warmup, rounds);
        }
    }

    /** Where the clients are sent. */
    private enum Processes {
        ONE("one process"), TWO("two processes");

        final String label;

        Processes(String label) {
            this.label = label;
        }
    }

    private ScaleOutBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Options options = Arguments.parseOrExit(args, USAGE, Options::parse);
        BenchmarkSupport.runInTempDirectory("scale-out-benchmark", temp -> run(options, temp));
    }

    private static void run(Options options, Path temp) throws Exception {
        Path jar = options.serverJar().orElseGet(ServiceLoadBenchmark::defaultServerJar).toAbsolutePath();
        System.out.printf(Locale.ROOT, "payments/s with one server process and with two on one PostgreSQL: %d clients "
                        + "(closed loop, POST /v1/payments), %d s warm-up on both, then %d rounds of %d s each way; "
                        + "server %s; commit %s%n", options.clients(), options.warmup(), options.rounds(),
                options.seconds(), jar, BenchmarkSupport.commit());
        BenchmarkSupport.printMachine();
        Usdc deposit = Usdc.ofMicros(Math.multiplyExact(WALLET_FUNDING.micros(), (long) options.clients()));
        Path aTemp = Files.createDirectories(temp.resolve("server-a"));
        Path bTemp = Files.createDirectories(temp.resolve("server-b"));
        try (LaunchedServer a = LaunchedServer.launch(jar, aTemp, List.of(), OptionalInt.empty(), deposit.toString())) {
            List<String> tokens = provision(a, options.clients());
            try (LaunchedServer b = a.second(bTemp)) {
                System.out.printf(Locale.ROOT, "server A: pid %d, embedded PostgreSQL on port %d, log %s%n", a.pid(),
                        a.postgresPort(), a.log());
                System.out.printf(Locale.ROOT, "server B: pid %d, on A's database, simulator journal and session "
                        + "signing key, log %s; running throughout, idle in the one-process phases%n", b.pid(), b.log());
                Jdbi jdbi = a.jdbi();
                LoadDriver driver = new LoadDriver(a, new CpuMeter(a.postgresData()), new Disturbances(jdbi, a.gcLog()));
                Set<String> paid = ConcurrentHashMap.newKeySet();
                measure(driver, "warm-up", Processes.TWO, a, b, tokens, paid, Duration.ofSeconds(options.warmup()));
                Duration phase = Duration.ofSeconds(options.seconds());
                double[][] rates = new double[options.rounds()][2];
                long[] ok = new long[2];
                double[] seconds = new double[2];
                for (int round = 0; round < options.rounds(); round++) {
                    List<Processes> order = round % 2 == 0 ? List.of(Processes.ONE, Processes.TWO)
                            : List.of(Processes.TWO, Processes.ONE);
                    for (Processes processes : order) {
                        LoadDriver.Measured measured = measure(driver, "round " + (round + 1) + ", " + processes.label,
                                processes, a, b, tokens, paid, phase);
                        rates[round][processes.ordinal()] = measured.perSecond();
                        ok[processes.ordinal()] += measured.ok();
                        seconds[processes.ordinal()] += measured.seconds();
                    }
                }
                for (int round = 0; round < options.rounds(); round++) {
                    System.out.printf(Locale.ROOT, "round %d: two processes / one process, payments/s: %.2f "
                            + "(%.1f / %.1f)%n", round + 1, rates[round][1] / rates[round][0], rates[round][1],
                            rates[round][0]);
                }
                double one = ok[0] / seconds[0];
                double two = ok[1] / seconds[1];
                System.out.printf(Locale.ROOT, "overall: two processes / one process, payments/s: %.2f (%.1f / %.1f)%n",
                        two / one, two, one);
                checkBooks(jdbi, a.orgId(), options.clients(), paid);
                System.out.println("load average at end: " + BenchmarkSupport.loadAverage());
                System.out.println(a.logSummary().replace("server log:", "server A's log:"));
                System.out.println(b.logSummary().replace("server log:", "server B's log:"));
            }
        }
    }

    /** The agents: a policy without caps, a wallet for each client, funded; answers their session tokens. */
    private static List<String> provision(LaunchedServer server, int clients) throws IOException {
        List<String> tokens = new ArrayList<>();
        List<String> funding = new ArrayList<>();
        try (HttpConnection api = server.api(new AtomicInteger())) {
            String policy = ServerUnderTest.created(api.send("POST", "/v1/policies",
                    "{\"name\":\"Scale-out bench: no caps\"}"), "POST /v1/policies").path("id").asText();
            for (int i = 0; i < clients; i++) {
                JsonNode wallet = ServerUnderTest.created(api.send("POST", "/v1/wallets",
                        ServerUnderTest.walletBody(policy, "scale-out-agent-" + i)), "POST /v1/wallets");
                tokens.add(wallet.path("session_token").asText());
                funding.add(ServerUnderTest.fundingLine(wallet.path("id").asText(), WALLET_FUNDING));
            }
            for (int from = 0; from < funding.size(); from += ServerUnderTest.FUNDING_BATCH) {
                ServerUnderTest.created(api.send("POST", "/v1/wallets/fund-batch", "[" + String.join(",",
                        funding.subList(from, Math.min(funding.size(), from + ServerUnderTest.FUNDING_BATCH))) + "]"),
                        "POST /v1/wallets/fund-batch");
            }
        }
        System.out.printf(Locale.ROOT, "provisioned %d wallets of %s USDC under a policy without caps; each payment "
                + "pays %s USDC to an address outside the service%n", clients, WALLET_FUNDING, AMOUNT);
        return tokens;
    }

    /**
     * {@code length} of payments by every client in a closed loop, all measured, each client on
     * server A, or (two processes) the odd-numbered ones on B; prints the figures and fails on any
     * answer that is not a payment made. The ids answered go into {@code paid}.
     */
    private static LoadDriver.Measured measure(LoadDriver driver, String name, Processes processes, LaunchedServer a,
                                               LaunchedServer b, List<String> tokens, Set<String> paid,
                                               Duration length) throws InterruptedException {
        String keys = name.replaceAll("[^0-9a-z]+", "-") + "-";
        LoadDriver.Measured measured = driver.closed(name, tokens.size(),
                (client, opened) -> (processes == Processes.TWO && client % 2 == 1 ? b : a)
                        .agent(tokens.get(client), opened),
                (connection, ticket) -> pay(connection, keys + ticket, paid), Duration.ZERO, length);
        System.out.printf(Locale.ROOT, "%s: %.1f payments/s, median %.2f ms, p95 %.2f ms; %d paid in %.1f s; "
                        + "non-200 answers %d; %d connections for %d clients%n", name, measured.perSecond(),
                measured.ms(50), measured.ms(95), measured.ok(), measured.seconds(), measured.failed(),
                measured.connections(), measured.clients());
        System.out.println("  " + measured.disturbances().replace("GC pauses of the server", "GC pauses of server A"));
        if (measured.failed() > 0) {
            throw new IllegalStateException(name + ": " + measured.failed() + " payments were not answered 200 with a "
                    + "payment made: " + measured.problems());
        }
        return measured;
    }

    /** One payment; null when it was answered 200 with a payment made (its id then in {@code paid}), else what came. */
    private static String pay(HttpConnection connection, String key, Set<String> paid) throws IOException {
        HttpConnection.Response response = connection.send("POST", "/v1/payments", "{\"to\":\"" + PAYEE
                + "\",\"amount\":\"" + AMOUNT + "\",\"idempotency_key\":\"" + key + "\"}");
        if (response.status() != 200) {
            return LoadDriver.unexpected(response);
        }
        JsonNode payment = JSON.readTree(response.body());
        String status = payment.path("status").asText();
        if (!status.equals("confirmed") && !status.equals("pending")) {
            return "200 " + status;
        }
        String id = payment.path("tx_id").asText();
        if (id.isEmpty()) {
            return "200 without tx_id";
        }
        return paid.add(id) ? null : "200 with a payment answered before";
    }

    /**
     * The books after the run: every payment answered 200 is a payment row of the organisation, and
     * there is no other; the wallets hold their funding less what was answered paid.
     */
    private static void checkBooks(Jdbi jdbi, String orgId, int wallets, Set<String> paid) {
        List<String> ids = List.copyOf(paid);
        long rows = jdbi.withHandle(h -> h.createQuery("SELECT count(*) FROM transactions WHERE org_id = :org "
                + "AND type = 'payment'").bind("org", orgId).mapTo(Long.class).one());
        long answeredRows = jdbi.withHandle(h -> h.createQuery("SELECT count(*) FROM transactions WHERE org_id = :org "
                        + "AND type = 'payment' AND id = ANY(:ids)").bind("org", orgId).bindArray("ids", String.class, ids)
                .mapTo(Long.class).one());
        String statuses = jdbi.withHandle(h -> h.createQuery("SELECT coalesce(string_agg(status || ' ' || n, ', ' "
                        + "ORDER BY status), 'none') FROM (SELECT status, count(*) AS n FROM transactions "
                        + "WHERE org_id = :org AND type = 'payment' GROUP BY status) AS s").bind("org", orgId)
                .mapTo(String.class).one());
        long held = jdbi.withHandle(h -> h.createQuery("SELECT coalesce(sum(balance_micros), 0) FROM wallets "
                + "WHERE org_id = :org").bind("org", orgId).mapTo(Long.class).one());
        long expected = WALLET_FUNDING.micros() * wallets - AMOUNT.micros() * ids.size();
        System.out.printf(Locale.ROOT, "books: %d payments answered 200 (distinct ids), %d payment rows, %d of them "
                        + "answered; by status %s; wallets hold %s USDC, funding less what was paid is %s USDC%n",
                ids.size(), rows, answeredRows, statuses, Usdc.ofMicros(held), Usdc.ofMicros(expected));
        if (rows != ids.size() || answeredRows != ids.size() || held != expected) {
            throw new IllegalStateException("the books do not match the answers: see the line above");
        }
    }
}
