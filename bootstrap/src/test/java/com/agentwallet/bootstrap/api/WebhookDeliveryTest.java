package com.agentwallet.bootstrap.api;

import com.agentwallet.core.crypto.Hashing;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Webhooks delivered by the running server to a real HTTPS receiver on this machine: signed, with
 * the envelope and payload of the catalogue, logged per attempt, and retried when the receiver fails.
 */
class WebhookDeliveryTest {
    private static final Duration PATIENCE = Duration.ofSeconds(15);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ApiServer server = ApiServer.shared();
    private final ApiFixtures fixtures = new ApiFixtures(server);
    private WebhookReceiver receiver;

    @BeforeEach
    void aReceiver() {
        receiver = new WebhookReceiver(server.dataDirectory().resolve("tls/localhost.p12"), "agent-wallet-test");
    }

    @AfterEach
    void stopTheReceiver() {
        receiver.close();
    }

    @Test
    void aWalletsEventsArriveSignedWithTheCataloguesFields() throws Exception {
        JsonNode webhook = createWebhook(List.of("wallet.created", "wallet.funded"));
        String secret = webhook.path("signing_secret").asText();

        ApiFixtures.Wallet wallet = fixtures.fundedWallet("25.00");
        WebhookReceiver.Received created = receiver.await(post -> post.isEvent("wallet.created", wallet.id()), PATIENCE);
        WebhookReceiver.Received funded = receiver.await(post -> post.isEvent("wallet.funded", wallet.id()), PATIENCE);

        JsonNode body = JSON.readTree(created.body());
        assertThat(created.signature())
                .isEqualTo(Hashing.hmacSha256Hex(secret, created.body().getBytes(StandardCharsets.UTF_8)));
        assertThat(funded.signature())
                .isEqualTo(Hashing.hmacSha256Hex(secret, funded.body().getBytes(StandardCharsets.UTF_8)));
        assertThat(body.path("id").asText()).startsWith("evt_");
        assertThat(Instant.parse(body.path("created_at").asText())).isBeforeOrEqualTo(Instant.now());
        assertThat(body.path("agent_id").asText()).isEqualTo(wallet.created().path("agent_id").asText());
        assertThat(body.path("solana_address").asText()).isEqualTo(wallet.address());
        assertThat(receiver.received()).noneMatch(post -> post.body().contains("\"transaction."));
    }

    @Test
    void theTestEndpointPingsAndTheDeliveryLogShowsTheAttempt() throws Exception {
        String webhookId = createWebhook(List.of("wallet.created")).path("webhook_id").asText();

        String eventId = fixtures.client().post("/webhooks/" + webhookId + "/test", fixtures.org().adminKey(), Map.of())
                .text("event_id");
        receiver.await(post -> post.body().contains(eventId), PATIENCE);

        JsonNode attempt = awaitAttempt(webhookId, eventId);
        assertThat(attempt.path("event").asText()).isEqualTo("ping");
        assertThat(attempt.path("attempt").asInt()).isEqualTo(1);
        assertThat(attempt.path("status_code").asInt()).isEqualTo(200);
        assertThat(attempt.path("next_attempt_at").isNull()).isTrue();
    }

    @Test
    void aFailingReceiverIsLoggedAndRetriedAMinuteLater() throws Exception {
        receiver.answer(503);
        String webhookId = createWebhook(List.of("wallet.created")).path("webhook_id").asText();

        String eventId = fixtures.client().post("/webhooks/" + webhookId + "/test", fixtures.org().adminKey(), Map.of())
                .text("event_id");
        JsonNode attempt = awaitAttempt(webhookId, eventId);

        assertThat(attempt.path("status_code").asInt()).isEqualTo(503);
        assertThat(attempt.path("error").asText()).contains("503");
        assertThat(Duration.between(Instant.parse(attempt.path("attempted_at").asText()),
                Instant.parse(attempt.path("next_attempt_at").asText()))).isBetween(Duration.ofSeconds(55),
                Duration.ofSeconds(60));
    }

    private JsonNode createWebhook(List<String> events) {
        ApiResponse created = fixtures.client().post("/webhooks", fixtures.org().adminKey(),
                Map.of("url", receiver.url(), "events", events));
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        return created.json();
    }

    /** The delivery log's newest attempt for the event, once there is one. */
    private JsonNode awaitAttempt(String webhookId, String eventId) {
        return Eventually.await(PATIENCE, () -> "no attempt logged for " + eventId, () -> StreamSupport.stream(
                        fixtures.client().get("/webhooks/" + webhookId + "/deliveries", fixtures.org().viewerKey())
                                .json().path("data").spliterator(), false)
                .filter(attempt -> attempt.path("event_id").asText().equals(eventId))
                .findFirst());
    }
}
