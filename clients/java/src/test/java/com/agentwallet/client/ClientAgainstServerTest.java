package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The client against the real server: started once for this JVM by {@link TestServer}. */
class ClientAgainstServerTest {
    private static TestServer server;
    private static AgentWallet admin;

    @BeforeAll
    static void startServer() {
        server = TestServer.get();
        admin = server.client("admin");
    }

    static String randomAddress() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base58.encode(key);
    }

    /** A funded wallet under a new policy with these rules; its session token is the agent's credential. */
    static JsonNode wallet(Map<String, ?> rules, String funds) {
        JsonNode wallet = admin.wallets().create(Map.of("agentId", "agent-" + UUID.randomUUID(), "policyId", policy(rules)));
        admin.wallets().fund(wallet.path("id").asText(), new BigDecimal(funds));
        return wallet;
    }

    /** A new policy's id. */
    static String policy(Map<String, ?> rules) {
        Map<String, Object> policy = new java.util.HashMap<>(rules);
        policy.put("name", "client test " + UUID.randomUUID());
        return admin.policies().create(policy).path("id").asText();
    }

    /**
     * An admin's calls through {@code proxy}, whose first answer it cuts, over TLS 1.2, which keeps record
     * types visible to the proxy; {@code http} keeps the answers that arrived.
     */
    static Transport throughProxy(ResponseDroppingProxy proxy, RecordingHttpClient http) {
        return new Transport(http, URI.create("https://localhost:" + proxy.port() + "/v1"), server.key("admin"),
                Duration.ofSeconds(30), 3);
    }

    static RecordingHttpClient tls12() {
        return new RecordingHttpClient(HttpClient.newBuilder().sslContext(server.trust("TLSv1.2")).build());
    }

    private static void assertReplayedOnce(RecordingHttpClient http) {
        assertThat(http.responses()).singleElement().satisfies(response ->
                assertThat(response.headers().firstValue("Idempotent-Replayed")).hasValue("true"));
    }

    @Test
    void anAgentPaysWithItsSessionTokenAlone() {
        JsonNode wallet = wallet(Map.of(), "10.00");
        AgentWallet agent = server.agent(wallet.path("session_token").asText());

        JsonNode payment = agent.payments().create(Map.of("to", randomAddress(), "amount", new BigDecimal("1.25")));

        assertThat(payment.path("status").asText()).isEqualTo("confirmed");
        assertThat(Amounts.of(payment, "amount")).isEqualByComparingTo("1.25");
        assertThat(Amounts.of(agent.wallets().retrieve(wallet.path("id").asText()), "usdc_balance"))
                .isEqualByComparingTo("8.75");
    }

    @Test
    void aPolicyViolationCarriesItsRuleLimitAndAttempt() {
        JsonNode wallet = wallet(Map.of("maxPerTx", new BigDecimal("5.00")), "100.00");
        AgentWallet agent = server.agent(wallet.path("session_token").asText());

        assertThatThrownBy(() -> agent.payments().create(Map.of("to", randomAddress(), "amount", new BigDecimal("6"))))
                .isInstanceOfSatisfying(PolicyViolationException.class, e -> {
                    assertThat(e.status()).isEqualTo(422);
                    assertThat(e.code()).isEqualTo("policy_violation");
                    assertThat(e.requestId()).startsWith("req_");
                    assertThat(e.violation()).isEqualTo(new Violation("max_per_tx", "5.00", "6.00"));
                });
        assertThat(agent.payments().dryRun(Map.of("to", randomAddress(), "amount", new BigDecimal("6")))
                .path("decision").asText()).isEqualTo("blocked");
    }

    @Test
    void typedErrorsNameWhatWentWrong() {
        JsonNode wallet = wallet(Map.of(), "1.00");
        AgentWallet agent = server.agent(wallet.path("session_token").asText());

        assertThatThrownBy(() -> agent.wallets().fund(wallet.path("id").asText(), BigDecimal.ONE))
                .isInstanceOfSatisfying(PermissionException.class,
                        e -> assertThat(e.requiredRole()).isEqualTo("admin"));
        assertThatThrownBy(() -> admin.wallets().retrieve("wal_000000000000000000000000"))
                .isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> admin.wallets().fund(wallet.path("id").asText(), new BigDecimal("0.0000001")))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.param()).isEqualTo("amount"));
        AgentWallet stranger = AgentWallet.builder().baseUrl(server.baseUrl()).apiKey("sk_unknownunknownunknown00")
                .sslContext(server.trust()).build();
        assertThatThrownBy(() -> stranger.wallets().retrieve(wallet.path("id").asText()))
                .isInstanceOf(AuthenticationException.class);
    }

    @Test
    void listsFollowTheirCursorsAcrossPages() {
        JsonNode wallet = wallet(Map.of(), "1.00");
        String walletId = wallet.path("id").asText();
        admin.wallets().fundBatch(Map.of(walletId, new BigDecimal("0.01")));
        for (int i = 0; i < 5; i++) {
            admin.wallets().fund(walletId, new BigDecimal("0.01"));
        }

        List<String> ids = new ArrayList<>();
        admin.wallets().transactions(walletId, Map.of("limit", 2, "type", "funding"))
                .forEach(tx -> ids.add(tx.path("tx_id").asText()));

        assertThat(ids).hasSize(7).doesNotHaveDuplicates();
        assertThat(admin.transactions().list(Map.of("walletId", walletId, "limit", 3)).stream().count()).isEqualTo(7);
    }

    @Test
    void aPaymentWhoseAnswerWasCutIsRetriedAndPaysOnce() throws Exception {
        JsonNode wallet = wallet(Map.of(), "10.00");
        String walletId = wallet.path("id").asText();
        try (ResponseDroppingProxy proxy = new ResponseDroppingProxy(server.httpsPort())) {
            // TLS 1.2 keeps record types visible to the proxy, which drops the first response it sees.
            SSLContext tls12 = server.trust("TLSv1.2");
            AgentWallet agent = AgentWallet.builder().baseUrl("https://localhost:" + proxy.port() + "/v1")
                    .sessionToken(wallet.path("session_token").asText()).sslContext(tls12).build();

            JsonNode payment = agent.payments().create(Map.of("to", randomAddress(), "amount", new BigDecimal("2.00")));

            assertThat(proxy.droppedResponses()).isEqualTo(1);
            assertThat(proxy.connections()).isGreaterThanOrEqualTo(2);
            List<JsonNode> payments = admin.wallets().transactions(walletId, Map.of("type", "payment")).stream().toList();
            assertThat(payments).extracting(tx -> tx.path("tx_id").asText())
                    .containsExactly(payment.path("tx_id").asText());
            assertThat(Amounts.of(admin.wallets().retrieve(walletId), "usdc_balance")).isEqualByComparingTo("8.00");
        }
    }

    @Test
    void aFundingWhoseAnswerWasCutIsRetriedAndFundsOnce() throws Exception {
        String walletId = admin.wallets().create(Map.of("agentId", "agent-" + UUID.randomUUID(),
                "policyId", policy(Map.of()))).path("id").asText();
        RecordingHttpClient http = tls12();
        try (ResponseDroppingProxy proxy = new ResponseDroppingProxy(server.httpsPort())) {
            JsonNode funded = new Wallets(throughProxy(proxy, http)).fund(walletId, new BigDecimal("3.00"));

            assertThat(proxy.droppedResponses()).isEqualTo(1);
            assertReplayedOnce(http);
            assertThat(Amounts.of(funded, "usdc_balance")).isEqualByComparingTo("3.00");
        }
        assertThat(Amounts.of(admin.wallets().retrieve(walletId), "usdc_balance")).isEqualByComparingTo("3.00");
        assertThat(admin.wallets().transactions(walletId, Map.of("type", "funding")).stream()).hasSize(1);
    }

    @Test
    void aWalletCreationWhoseAnswerWasCutAnswersTheSameWalletAndTokenOnRetry() throws Exception {
        Map<String, Object> params = Map.of("agentId", "agent-" + UUID.randomUUID(), "policyId", policy(Map.of()),
                "idempotencyKey", "wallet-" + UUID.randomUUID());
        RecordingHttpClient http = tls12();
        JsonNode created;
        try (ResponseDroppingProxy proxy = new ResponseDroppingProxy(server.httpsPort())) {
            created = new Wallets(throughProxy(proxy, http)).create(params);

            assertThat(proxy.droppedResponses()).isEqualTo(1);
            assertReplayedOnce(http);
        }
        JsonNode again = admin.wallets().create(params);
        assertThat(again.path("id").asText()).isEqualTo(created.path("id").asText()).isNotBlank();
        assertThat(again.path("session_token").asText()).isEqualTo(created.path("session_token").asText()).isNotBlank();
        assertThat(server.agent(created.path("session_token").asText()).wallets().retrieve(created.path("id").asText())
                .path("agent_id").asText()).isEqualTo(params.get("agentId"));
    }

    @Test
    void aCallersKeyReusedWithAnotherAmountIsAConflictAndFundsOnce() {
        String walletId = wallet(Map.of(), "1.00").path("id").asText();
        String key = "fund-" + UUID.randomUUID();

        admin.wallets().fund(walletId, new BigDecimal("5.00"), key);
        JsonNode replayed = admin.wallets().fund(walletId, new BigDecimal("5.00"), key);

        assertThat(Amounts.of(replayed, "usdc_balance")).isEqualByComparingTo("6.00");
        assertThatThrownBy(() -> admin.wallets().fund(walletId, new BigDecimal("6.00"), key))
                .isInstanceOfSatisfying(ConflictException.class, e -> {
                    assertThat(e.status()).isEqualTo(409);
                    assertThat(e.code()).isEqualTo("idempotency_conflict");
                });
        assertThat(Amounts.of(admin.wallets().retrieve(walletId), "usdc_balance")).isEqualByComparingTo("6.00");
    }

    @Test
    void aCoSignedPaymentGoesThroughOnceTheOperatorSigns() {
        CoSigner coSigner = CoSigner.fromSolanaSecretKey(server.coSignerSecretKey());
        JsonNode wallet = wallet(Map.of("requireCoSign", new BigDecimal("10.00"), "coSigner", coSigner.publicKey()),
                "50.00");
        AgentWallet agent = server.agent(wallet.path("session_token").asText());

        JsonNode held = agent.payments().create(Map.of("to", randomAddress(), "amount", new BigDecimal("20.00")));
        assertThat(held.path("status").asText()).isEqualTo("pending_co_sign");

        AgentWallet operator = server.client("operator");
        JsonNode signed = operator.payments().coSign(held.path("tx_id").asText(),
                coSigner.sign(held.path("co_sign_payload").asText()));

        assertThat(signed.path("status").asText()).isEqualTo("confirmed");
        assertThat(Amounts.of(admin.wallets().retrieve(wallet.path("id").asText()), "usdc_balance"))
                .isEqualByComparingTo("30.00");
    }

    @Test
    void aRealWebhookDeliveryVerifiesWithItsSigningSecret() throws Exception {
        BlockingQueue<Delivery> deliveries = new LinkedBlockingQueue<>();
        HttpsServer receiver = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.setHttpsConfigurator(new HttpsConfigurator(server.serverTls()));
        receiver.createContext("/hook", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            deliveries.add(new Delivery(body, exchange.getRequestHeaders().getFirst(WebhookSignature.HEADER)));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        try {
            JsonNode webhook = admin.webhooks().create(Map.of(
                    "url", "https://localhost:" + receiver.getAddress().getPort() + "/hook",
                    "events", List.of("policy.expired")));
            String secret = webhook.path("signing_secret").asText();

            admin.webhooks().test(webhook.path("webhook_id").asText());
            Delivery delivery = deliveries.poll(90, TimeUnit.SECONDS);

            assertThat(delivery).as("a delivery within 90 s").isNotNull();
            assertThat(Transport.JSON.readTree(delivery.body()).path("event").asText()).isEqualTo("ping");
            assertThat(WebhookSignature.verify(delivery.body(), delivery.signature(), secret)).isTrue();
            byte[] tampered = delivery.body().clone();
            tampered[tampered.length - 2] ^= 1;
            assertThat(WebhookSignature.verify(tampered, delivery.signature(), secret)).isFalse();
            assertThat(WebhookSignature.verify(delivery.body(), delivery.signature(), secret + "x")).isFalse();
            admin.webhooks().delete(webhook.path("webhook_id").asText());
        } finally {
            receiver.stop(0);
        }
    }

    @Test
    void everyResourceAnswersThroughTheClient() {
        CoSigner coSigner = CoSigner.fromSolanaSecretKey(server.coSignerSecretKey());
        JsonNode payer = wallet(Map.of("requireCoSign", new BigDecimal("10.00"), "coSigner", coSigner.publicKey()),
                "100.00");
        String payerId = payer.path("id").asText();
        String token = payer.path("session_token").asText();
        String policyId = payer.path("policy_id").asText();
        String address = randomAddress();

        assertThat(admin.recipients().setCategory(address, "compute").path("category").asText()).isEqualTo("compute");
        assertThat(admin.recipients().retrieve(address).path("address").asText()).isEqualTo(address);
        assertThat(admin.policies().update(policyId, Map.of("maxPerDay", new BigDecimal("500"))).path("max_per_day")
                .asText()).isEqualTo("500.00");
        assertThat(admin.policies().auditLog(policyId).stream().count()).isGreaterThanOrEqualTo(2);
        String copy = admin.policies().clone(policyId, Map.of()).path("id").asText();
        assertThat(admin.policies().delete(copy).path("id").asText()).isEqualTo(copy);
        assertThat(admin.policies().list(Map.of("limit", 100)).iterator().hasNext()).isTrue();

        assertThat(admin.payments().dryRun(Map.of("walletId", payerId, "to", address, "amount", new BigDecimal("1")),
                token).path("decision").asText()).isEqualTo("allowed");
        JsonNode paid = admin.payments().create(
                Map.of("walletId", payerId, "to", address, "amount", new BigDecimal("1")), token);
        assertThat(admin.payments().retrieve(paid.path("tx_id").asText()).path("status").asText()).isEqualTo("confirmed");
        assertThat(admin.transactions().retrieve(paid.path("tx_id").asText()).path("type").asText()).isEqualTo("payment");
        JsonNode held = server.agent(token).payments().create(Map.of("to", address, "amount", new BigDecimal("10")));
        assertThat(server.client("operator").payments().reject(held.path("tx_id").asText(), "not today")
                .path("status").asText()).isEqualTo("rejected");

        JsonNode escrow = server.agent(token).escrows().create(Map.of("toWallet", address,
                "amount", new BigDecimal("1"), "taskDescription", "summarise", "timeoutSeconds", 3600));
        String escrowId = escrow.path("id").asText();
        assertThat(admin.escrows().retrieve(escrowId).path("status").asText()).isEqualTo("locked");
        assertThat(admin.escrows().list(Map.of("walletId", payerId)).stream().count()).isEqualTo(1);
        assertThat(admin.escrows().dispute(escrowId, "wrong output", "cd".repeat(32)).path("status").asText())
                .isEqualTo("disputed");
        assertThat(server.client("operator").escrows().resolve(escrowId, "refund").path("status").asText())
                .isEqualTo("refunded");
        String second = admin.escrows().create(Map.of("fromWallet", payerId, "toWallet", address,
                "amount", new BigDecimal("1"), "taskDescription", "t", "timeoutSeconds", 3600), token)
                .path("id").asText();
        assertThat(admin.escrows().complete(second, "ab".repeat(32)).path("status").asText()).isEqualTo("released");

        assertThat(admin.wallets().update(payerId, Map.of("label", "renamed")).path("label").asText())
                .isEqualTo("renamed");
        assertThat(admin.wallets().autoTopup(payerId, Map.of("enabled", false)).path("id").asText()).isEqualTo(payerId);
        assertThat(admin.wallets().withdraw(payerId, new BigDecimal("1")).path("id").asText()).isEqualTo(payerId);
        assertThat(admin.wallets().rotateToken(payerId, 600).path("session_token").asText()).isNotEqualTo(token);
        assertThat(admin.wallets().list(Map.of("status", "active", "limit", 5)).iterator().hasNext()).isTrue();
        assertThat(admin.wallets().withdrawAll(payerId).path("usdc_balance").asText()).isEqualTo("0.00");
        assertThat(admin.wallets().archive(payerId).path("status").asText()).isEqualTo("archived");

        JsonNode export = admin.transactions().export(Map.of("format", "csv", "walletId", payerId));
        assertThat(export.path("status").asText()).isEqualTo("pending");
        assertThat(admin.transactions().retrieveExport(export.path("id").asText()).path("id").asText())
                .isEqualTo(export.path("id").asText());

        String hook = admin.webhooks().create(Map.of("url", "https://localhost:9/nobody", "events", List.of("*")))
                .path("webhook_id").asText();
        assertThat(admin.webhooks().update(hook, Map.of("events", List.of("policy.expired"))).path("events").get(0)
                .asText()).isEqualTo("policy.expired");
        assertThat(admin.webhooks().retrieve(hook).path("webhook_id").asText()).isEqualTo(hook);
        assertThat(admin.webhooks().deliveries(hook, Map.of()).stream()).isEmpty();
        Set<String> hooks = new HashSet<>();
        admin.webhooks().list(Map.of()).forEach(w -> hooks.add(w.path("webhook_id").asText()));
        assertThat(hooks).contains(hook);
        admin.webhooks().delete(hook);
    }

    private record Delivery(byte[] body, String signature) {
    }
}
