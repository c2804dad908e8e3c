package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Retries against a local fake of the API that answers a scripted status first, then success. */
class RetryTest {
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private final List<String> keys = new CopyOnWriteArrayList<>();
    private HttpServer fake;

    /** Answers {@code firstStatus} (with {@code Retry-After} when given) once, then 200 with a small wallet. */
    private AgentWallet clientOf(int firstStatus, String retryAfter, boolean always) throws IOException {
        fake = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        fake.createContext("/v1/", exchange -> {
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            keys.add(String.valueOf(exchange.getRequestHeaders().getFirst("Idempotency-Key")));
            if (always || bodies.size() == 1) {
                if (retryAfter != null) {
                    exchange.getResponseHeaders().add("Retry-After", retryAfter);
                }
                answer(exchange, firstStatus, "{\"error\":{\"code\":\"" + (firstStatus == 429 ? "rate_limit_exceeded"
                        : "service_unavailable") + "\",\"message\":\"try later\",\"request_id\":\"req_1\"}}");
            } else {
                answer(exchange, 200, "{\"object\":\"wallet\",\"id\":\"wal_1\",\"tx_id\":\"tx_1\"}");
            }
        });
        fake.start();
        return AgentWallet.builder().baseUrl("http://127.0.0.1:" + fake.getAddress().getPort() + "/v1")
                .apiKey("sk_test").build();
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @AfterEach
    void stop() {
        fake.stop(0);
    }

    @Test
    void a503IsRetriedAndThePaymentKeepsItsIdempotencyKey() throws Exception {
        AgentWallet client = clientOf(503, null, false);

        JsonNode payment = client.payments().create(Map.of("to", "addr", "amount", new BigDecimal("1.50")));

        assertThat(payment.path("tx_id").asText()).isEqualTo("tx_1");
        assertThat(bodies).hasSize(2);
        JsonNode first = Transport.JSON.readTree(bodies.get(0));
        assertThat(first.path("idempotencyKey").asText()).isNotBlank();
        assertThat(first.path("amount").asText()).isEqualTo("1.50");
        assertThat(Transport.JSON.readTree(bodies.get(1))).isEqualTo(first);
        assertThat(keys).containsExactly(first.path("idempotencyKey").asText(), first.path("idempotencyKey").asText());
    }

    @Test
    void a429IsWaitedOutForItsRetryAfter() throws Exception {
        AgentWallet client = clientOf(429, "1", false);

        long started = System.nanoTime();
        JsonNode wallet = client.wallets().retrieve("wal_1");
        long waitedMillis = (System.nanoTime() - started) / 1_000_000;

        assertThat(wallet.path("id").asText()).isEqualTo("wal_1");
        assertThat(bodies).hasSize(2);
        assertThat(waitedMillis).as("waited per Retry-After").isGreaterThanOrEqualTo(1000);
    }

    @Test
    void aRateLimitThatOutlastsTheRetriesCarriesItsRetryAfter() throws Exception {
        AgentWallet client = clientOf(429, "0", true);

        assertThatThrownBy(() -> client.wallets().retrieve("wal_1"))
                .isInstanceOfSatisfying(RateLimitException.class, e -> {
                    assertThat(e.retryAfter()).isZero();
                    assertThat(e.requestId()).isEqualTo("req_1");
                });
        assertThat(bodies).hasSize(4);
    }

    @Test
    void aFundingIsRetriedAfterEvery5xxUnderOneIdempotencyKey() throws Exception {
        AgentWallet client = clientOf(503, "0", true);

        assertThatThrownBy(() -> client.wallets().fund("wal_1", BigDecimal.TEN))
                .isInstanceOfSatisfying(AgentWalletException.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.code()).isEqualTo("service_unavailable");
                });
        assertThat(bodies).hasSize(4);
        assertThat(keys).doesNotContain("null").containsOnly(keys.get(0));
    }

    @Test
    void eachCallMakesItsOwnKeyAndACallersKeyIsSentAsItIs() throws Exception {
        AgentWallet client = clientOf(200, null, false);

        client.wallets().fund("wal_1", BigDecimal.ONE);
        client.wallets().fund("wal_1", BigDecimal.ONE);
        client.wallets().fund("wal_1", BigDecimal.ONE, "fund-1");
        client.wallets().create(Map.of("agentId", "agent-1", "idempotencyKey", "wallet-1"));
        client.wallets().retrieve("wal_1");

        assertThat(keys.subList(0, 2)).doesNotContain("null").doesNotHaveDuplicates();
        assertThat(keys.subList(2, 5)).containsExactly("fund-1", "wallet-1", "null");
        assertThat(Transport.JSON.readTree(bodies.get(3))).isEqualTo(Transport.JSON.readTree("{\"agentId\":\"agent-1\"}"));
    }
}
