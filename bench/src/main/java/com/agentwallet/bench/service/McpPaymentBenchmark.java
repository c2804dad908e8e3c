package com.agentwallet.bench.service;

import com.agentwallet.bench.Arguments;
import com.agentwallet.bench.BenchmarkSupport;
import com.agentwallet.bench.Latencies;
import com.agentwallet.core.money.Usdc;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The cost of one payment through the agents' MCP endpoint against the same payment through /v1, in
 * one run on one server binary: one agent pays with its session token through each door, one
 * payment at a time on a keep-alive HTTPS connection of each, in rounds that alternate which door
 * goes first (so warming up, the database's growth and the machine's other work fall on both
 * alike). Both requests carry an idempotency key and pay the same amount to the same payee; MCP's is
 * the {@code tools/call} of {@code pay} a client sends after it has initialised (the endpoint is
 * stateless, so nothing else is on the wire per payment). Prints the median and 95th percentile of
 * each and the ratio of the medians, MCP to /v1.
 *
 * <pre>java -cp bench/target/benchmarks.jar com.agentwallet.bench.service.McpPaymentBenchmark</pre>
 */
public final class McpPaymentBenchmark {
    private static final String USAGE =
            "usage: McpPaymentBenchmark [--server-jar PATH] [--rounds 10] [--payments 100] [--warmup 300]";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Usdc AMOUNT = Usdc.parse("0.01");
    private static final String PAYEE = BenchmarkSupport.externalAddress("mcp-payment-benchmark-payee");
    private static final String MCP_ACCEPT = "Accept: application/json, text/event-stream";

    record Options(Optional<Path> serverJar, int rounds, int payments, int warmup) {
        static Options parse(String... args) {
            Arguments in = new Arguments(args);
            Optional<Path> serverJar = Optional.empty();
            int rounds = 10;
            int payments = 100;
            int warmup = 300;
            while (in.hasNext()) {
                switch (in.next()) {
                    case "--server-jar" -> serverJar = Optional.of(in.path());
                    case "--rounds" -> rounds = in.positive();
                    case "--payments" -> payments = in.positive();
                    case "--warmup" -> warmup = in.notNegative();
                    default -> throw in.unknown();
                }
            }
            return new Options(serverJar, rounds, payments, warmup);
        }
    }

    /** One way to pay: a request whose answer says the payment was made, or an exception. */
    private interface Door {
        void pay(String idempotencyKey) throws IOException;
    }

    private McpPaymentBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Options options = Arguments.parseOrExit(args, USAGE, Options::parse);
        BenchmarkSupport.runInTempDirectory("mcp-payment-benchmark", temp -> run(options, temp));
    }

    private static void run(Options options, Path temp) throws Exception {
        Path jar = options.serverJar().orElseGet(ServiceLoadBenchmark::defaultServerJar).toAbsolutePath();
        System.out.printf(Locale.ROOT, "MCP against /v1, one payment at a time: %d rounds of %d payments each way, "
                + "%d warm-up payments each way; server %s%n", options.rounds(), options.payments(), options.warmup(), jar);
        BenchmarkSupport.printMachine();
        long payments = (long) options.payments() * options.rounds() + options.warmup();
        Usdc funding = Usdc.ofMicros(Math.multiplyExact(AMOUNT.micros(), 2 * payments));
        try (LaunchedServer server = LaunchedServer.launch(jar, temp, List.of(), OptionalInt.empty(),
                funding.toString())) {
            AtomicInteger opened = new AtomicInteger();
            HttpConnection admin = server.api(opened);
            String policy = created(admin.send("POST", "/v1/policies", "{\"name\":\"mcp-benchmark\"}")).get("id").asText();
            JsonNode wallet = created(admin.send("POST", "/v1/wallets",
                    "{\"agent_id\":\"mcp-benchmark\",\"policy_id\":\"" + policy + "\"}"));
            String walletId = wallet.get("id").asText();
            created(admin.send("POST", "/v1/wallets/" + walletId + "/fund", "{\"amount\":\"" + funding + "\"}"));
            String token = wallet.get("session_token").asText();
            HttpConnection v1 = server.agent(token, opened);
            HttpConnection mcp = server.agent(token, opened);
            Door viaV1 = key -> paidOverV1(v1.send("POST", "/v1/payments", "{\"to\":\"" + PAYEE + "\",\"amount\":\""
                    + AMOUNT + "\",\"idempotency_key\":\"" + key + "\"}"));
            Door viaMcp = key -> paidOverMcp(mcp.send("POST", "/mcp", "{\"jsonrpc\":\"2.0\",\"id\":\"" + key
                    + "\",\"method\":\"tools/call\",\"params\":{\"name\":\"pay\",\"arguments\":{\"to\":\"" + PAYEE
                    + "\",\"amount\":\"" + AMOUNT + "\",\"idempotency_key\":\"" + key + "\"}}}", MCP_ACCEPT));

            for (int i = 0; i < options.warmup(); i++) {
                viaV1.pay("warm-v1-" + i);
                viaMcp.pay("warm-mcp-" + i);
            }
            Latencies v1Latencies = new Latencies();
            Latencies mcpLatencies = new Latencies();
            for (int round = 0; round < options.rounds(); round++) {
                boolean v1First = round % 2 == 0;
                measure(v1First ? viaV1 : viaMcp, v1First ? "v1" : "mcp", v1First ? v1Latencies : mcpLatencies,
                        round, options.payments());
                measure(v1First ? viaMcp : viaV1, v1First ? "mcp" : "v1", v1First ? mcpLatencies : v1Latencies,
                        round, options.payments());
            }
            JsonNode after = created(admin.send("GET", "/v1/wallets/" + walletId, null));
            if (!after.get("usdc_balance").asText().equals(Usdc.ZERO.toString())) {
                throw new IllegalStateException("every payment should have moved " + AMOUNT + " out of the wallet, "
                        + "which holds " + after.get("usdc_balance").asText() + " at the end");
            }
            print("/v1", v1Latencies);
            print("MCP", mcpLatencies);
            System.out.printf(Locale.ROOT, "MCP / v1: %.2f (ratio of medians), %.2f (ratio of p95)%n",
                    mcpLatencies.ms(50) / v1Latencies.ms(50), mcpLatencies.ms(95) / v1Latencies.ms(95));
        }
    }

    /**
     * {@code payments} payments through {@code door}, each under a key of its own: keys are the
     * organisation's whichever door they come through, so the same key on both would pay once.
     */
    private static void measure(Door door, String name, Latencies latencies, int round, int payments)
            throws IOException {
        for (int i = 0; i < payments; i++) {
            long started = System.nanoTime();
            door.pay(name + "-r" + round + "-" + i);
            latencies.record(System.nanoTime() - started);
        }
    }

    private static void print(String door, Latencies latencies) {
        System.out.printf(Locale.ROOT, "payment through %-4s median %.2f ms, p95 %.2f ms, max %.2f ms (%d payments)%n",
                door + ":", latencies.ms(50), latencies.ms(95), latencies.maxMs(), latencies.count());
    }

    private static JsonNode created(HttpConnection.Response response) throws IOException {
        if (response.status() != 200 && response.status() != 201) {
            throw new IllegalStateException("set-up request answered " + response.status() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    private static void paidOverV1(HttpConnection.Response response) throws IOException {
        String status = created(response).get("status").asText();
        if (!status.equals("confirmed") && !status.equals("pending")) {
            throw new IllegalStateException("a /v1 payment ended " + status + ": " + response.body());
        }
    }

    private static void paidOverMcp(HttpConnection.Response response) throws IOException {
        JsonNode result = created(response).path("result");
        if (result.path("isError").asBoolean(true)) {
            throw new IllegalStateException("an MCP payment was refused: " + response.body());
        }
    }
}
