package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Payments per second through this client against raw {@link HttpClient} requests sending the same
 * bodies, in one run against one server, one payment at a time on one connection each. The two take
 * turns in rounds so that a warming JIT or a growing database favours neither. Run by hand (it asserts
 * nothing; numbers on a shared machine are noisy):
 * {@code mvn -o -B -pl clients/java test-compile org.codehaus.mojo:exec-maven-plugin:3.6.2:java
 * -Dexec.classpathScope=test -Dexec.mainClass=com.agentwallet.client.PaymentThroughput
 * -Dagentwallet.server.jar=$PWD/bootstrap/target/agent-wallet.jar -Dagentwallet.server.config=$PWD/config/embedded.yml}
 * (optional arguments: payments per round, rounds).
 */
public final class PaymentThroughput {
    private PaymentThroughput() {
    }

    public static void main(String[] args) throws Exception {
        int perRound = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        TestServer server = TestServer.get();
        try {
            AgentWallet admin = server.client("admin");
            String policy = admin.policies().create(Map.of("name", "throughput")).path("id").asText();
            JsonNode wallet = admin.wallets().create(Map.of("agentId", "throughput-" + UUID.randomUUID(),
                    "policyId", policy));
            admin.wallets().fund(wallet.path("id").asText(), new BigDecimal("100000"));
            String token = wallet.path("session_token").asText();
            String to = ClientAgainstServerTest.randomAddress();

            AgentWallet client = server.agent(token);
            Runnable viaClient = () -> client.payments().create(Map.of("to", to, "amount", new BigDecimal("0.01")));
            HttpClient http = HttpClient.newBuilder().sslContext(server.trust()).build();
            URI payments = URI.create(server.baseUrl() + "/payments");
            Runnable viaRaw = () -> {
                HttpRequest request = HttpRequest.newBuilder(payments)
                        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"to\":\"" + to + "\",\"amount\":\"0.01\","
                                + "\"idempotencyKey\":\"" + UUID.randomUUID() + "\"}"))
                        .build();
                try {
                    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                    if (response.statusCode() != 200) {
                        throw new IllegalStateException(response.statusCode() + " " + response.body());
                    }
                    Transport.JSON.readTree(response.body());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };

            time(viaClient, perRound / 4);
            time(viaRaw, perRound / 4);
            long clientNanos = 0;
            long rawNanos = 0;
            for (int round = 0; round < rounds; round++) {
                rawNanos += time(viaRaw, perRound);
                clientNanos += time(viaClient, perRound);
            }
            double clientRate = rounds * perRound / (clientNanos / 1e9);
            double rawRate = rounds * perRound / (rawNanos / 1e9);
            System.out.printf(Locale.ROOT, "payments/s: java client %.1f, raw HttpClient %.1f, client/raw %.2f "
                    + "(%d payments each, %d rounds, sequential, %d cpus)%n", clientRate, rawRate,
                    clientRate / rawRate, rounds * perRound, rounds, Runtime.getRuntime().availableProcessors());
        } finally {
            server.stop();
        }
    }

    private static long time(Runnable payment, int count) {
        long started = System.nanoTime();
        for (int i = 0; i < count; i++) {
            payment.run();
        }
        return System.nanoTime() - started;
    }
}
