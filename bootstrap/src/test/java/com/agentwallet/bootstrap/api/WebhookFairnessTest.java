package com.agentwallet.bootstrap.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One organisation's hanging receiver holds up no other, on a server of its own with two webhook
 * workers and one delivery in flight per organisation: while organisation A's receiver holds its
 * POST unanswered, organisation B's event is delivered, and A's other webhook waits its turn. And an
 * organisation gets no more webhooks than its limit (two here): one more is {@code 409 invalid_state}.
 */
class WebhookFairnessTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final int LIMIT = 2;

    private static ApiServer server;
    private static WebhookReceiver hanging;
    private static WebhookReceiver healthy;

    @BeforeAll
    static void startServerAndReceivers() {
        server = ApiServer.start(Clock.systemUTC(), ApiServer.newDataDirectory(),
                ConfigOverride.config("webhooks.workers", "2"),
                ConfigOverride.config("webhooks.inFlightPerOrganisation", "1"),
                ConfigOverride.config("webhooks.maxPerOrganisation", String.valueOf(LIMIT)));
        hanging = new WebhookReceiver(server.dataDirectory().resolve("tls/localhost.p12"), "agent-wallet-test");
        healthy = new WebhookReceiver(server.dataDirectory().resolve("tls/localhost.p12"), "agent-wallet-test");
    }

    @AfterAll
    static void stopAll() {
        hanging.close();
        healthy.close();
        server.stop();
    }

    /**
     * A's two webhooks both point at the hanging receiver. Without the organisation's share, the
     * second worker would take A's second webhook and hang too, and B's event would wait until both
     * of A's attempts timed out and were logged; with it, B's event arrives while A's first attempt
     * is held and nothing of A has been logged yet.
     */
    @Test
    void aHangingReceiverOfOneOrganisationHoldsUpNoOtherOrganisationsDelivery() {
        ApiFixtures a = new ApiFixtures(server, server.org());
        ApiFixtures b = new ApiFixtures(server, server.otherOrg());
        deleteAllWebhooks(a);
        hanging.hold();
        List<String> aWebhooks = List.of(createWebhook(a, hanging).text("webhook_id"),
                createWebhook(a, hanging).text("webhook_id"));
        createWebhook(b, healthy);

        ApiFixtures.Wallet aWallet = a.wallet(a.openPolicy());
        hanging.await(post -> post.isEvent("wallet.created", aWallet.id()), PATIENCE);
        ApiFixtures.Wallet bWallet = b.wallet(b.openPolicy());
        healthy.await(post -> post.isEvent("wallet.created", bWallet.id()), PATIENCE);

        assertThat(hanging.received()).as("A has one delivery in flight, its share").hasSize(1);
        for (String webhook : aWebhooks) {
            assertThat(log(a, webhook)).as("A's attempts are still in flight, none logged").isEmpty();
        }
        hanging.release();
        Eventually.await(PATIENCE, () -> "A's second webhook never got its turn", () -> Optional.of(hanging.received())
                .filter(posts -> posts.stream().filter(post -> post.isEvent("wallet.created", aWallet.id())).count() >= 2));
    }

    @Test
    void anOrganisationAtItsWebhookLimitGetsNoMoreUntilItDeletesOne() {
        ApiFixtures b = new ApiFixtures(server, server.otherOrg());
        int existing = webhookIds(b).size();
        List<String> made = new ArrayList<>();
        for (int i = existing; i < LIMIT; i++) {
            made.add(createWebhook(b, healthy).text("webhook_id"));
        }

        ApiResponse refused = b.client().post("/webhooks", b.org().adminKey(),
                Map.of("url", healthy.url(), "events", List.of("wallet.created")));

        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.json().path("error").path("code").asText()).isEqualTo("invalid_state");
        assertThat(webhookIds(b)).hasSize(LIMIT);
        for (String webhook : made) {
            assertThat(b.client().delete("/webhooks/" + webhook, b.org().adminKey()).status()).isEqualTo(200);
        }
    }

    private static ApiResponse createWebhook(ApiFixtures fixtures, WebhookReceiver receiver) {
        ApiResponse created = fixtures.client().post("/webhooks", fixtures.org().adminKey(),
                Map.of("url", receiver.url(), "events", List.of("wallet.created")));
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        return created;
    }

    private static List<String> webhookIds(ApiFixtures fixtures) {
        List<String> ids = new ArrayList<>();
        fixtures.client().get("/webhooks?limit=100", fixtures.org().viewerKey()).json().path("data")
                .forEach(webhook -> ids.add(webhook.path("webhook_id").asText()));
        return ids;
    }

    private static void deleteAllWebhooks(ApiFixtures fixtures) {
        for (String webhook : webhookIds(fixtures)) {
            assertThat(fixtures.client().delete("/webhooks/" + webhook, fixtures.org().adminKey()).status()).isEqualTo(200);
        }
    }

    private static List<JsonNode> log(ApiFixtures fixtures, String webhookId) {
        List<JsonNode> attempts = new ArrayList<>();
        fixtures.client().get("/webhooks/" + webhookId + "/deliveries?limit=100", fixtures.org().viewerKey()).json()
                .path("data").forEach(attempts::add);
        return attempts;
    }
}
