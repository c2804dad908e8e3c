package com.agentwallet.bootstrap.api;

import com.agentwallet.core.webhook.RetrySchedule;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole retry schedule of a failing receiver, on a server of its own whose clock the test makes
 * jump instead of waiting hours: attempts at 0, 1 min, 5 min, 30 min and 2 h, the webhook
 * {@code degraded} and paused after the fifth failure, and re-enabling delivering what waited, in
 * order per wallet. A second, healthy webhook shows when the server has moved past an event.
 */
class WebhookScheduleTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final JumpingClock clock = new JumpingClock();
    private static ApiServer server;
    private static WebhookReceiver failing;
    private static WebhookReceiver healthy;

    @BeforeAll
    static void startServerAndReceivers() {
        server = ApiServer.start(clock, ApiServer.newDataDirectory());
        failing = new WebhookReceiver(server.dataDirectory().resolve("tls/localhost.p12"), "agent-wallet-test");
        healthy = new WebhookReceiver(server.dataDirectory().resolve("tls/localhost.p12"), "agent-wallet-test");
    }

    @AfterAll
    static void stopAll() {
        failing.close();
        healthy.close();
        server.stop();
    }

    @Test
    void aFailingReceiverIsTriedOnTheScheduleThenDegradedAndReEnablingDeliversWhatWaitedInOrder() throws Exception {
        ApiFixtures fixtures = new ApiFixtures(server);
        failing.answer(503);
        String webhook = createWebhook(fixtures, failing);
        createWebhook(fixtures, healthy);

        ApiFixtures.Wallet wallet = fixtures.wallet(fixtures.openPolicy());
        WebhookReceiver.Received announced = healthy.await(post -> post.isEvent("wallet.created", wallet.id()), PATIENCE);
        String created = announced.eventId();
        Instant scheduleStart = Instant.parse(JSON.readTree(announced.body()).path("created_at").asText());

        for (int attempt = 1; attempt <= RetrySchedule.MAX_ATTEMPTS; attempt++) {
            Instant due = RetrySchedule.attemptDue(scheduleStart, attempt);
            clock.jumpTo(due);
            JsonNode logged = awaitAttempt(fixtures, webhook, created, attempt);
            assertThat(Instant.parse(logged.path("attempted_at").asText())).isAfterOrEqualTo(due);
            assertThat(logged.path("status_code").asInt()).isEqualTo(503);
            if (attempt < RetrySchedule.MAX_ATTEMPTS) {
                assertThat(Instant.parse(logged.path("next_attempt_at").asText()))
                        .isEqualTo(RetrySchedule.attemptDue(scheduleStart, attempt + 1));
            } else {
                assertThat(logged.path("next_attempt_at").isNull()).isTrue();
            }
        }
        assertThat(fixtures.client().get("/webhooks/" + webhook, fixtures.org().viewerKey()).text("status"))
                .isEqualTo("degraded");

        fixtures.fund(wallet.id(), "5.00");
        String funded = healthy.await(post -> post.isEvent("wallet.funded", wallet.id()), PATIENCE).eventId();
        clock.jumpTo(clock.instant().plus(Duration.ofDays(1)));
        ApiFixtures.Wallet later = fixtures.wallet(fixtures.openPolicy());
        healthy.await(post -> post.isEvent("wallet.created", later.id()), PATIENCE);
        assertThat(attempts(fixtures, webhook, funded)).as("a degraded webhook is paused").isEmpty();
        assertThat(failing.received()).hasSize(RetrySchedule.MAX_ATTEMPTS);

        failing.answer(200);
        ApiResponse reEnabled = fixtures.client().patch("/webhooks/" + webhook, fixtures.org().adminKey(),
                Map.of("status", "active"));
        assertThat(reEnabled.status()).as(reEnabled.toString()).isEqualTo(200);
        assertThat(reEnabled.text("status")).isEqualTo("active");

        failing.await(post -> post.isEvent("wallet.created", later.id()), PATIENCE);
        failing.await(post -> post.body().contains(funded), PATIENCE);
        List<String> walletOrder = failing.received().stream().filter(post -> post.body().contains(wallet.id()))
                .map(WebhookReceiver.Received::eventId).distinct().toList();
        assertThat(walletOrder).containsExactly(created, funded);
        assertThat(attempts(fixtures, webhook, created)).extracting(logged -> logged.path("status_code").asInt())
                .as("five failures, then one success on a fresh schedule").containsExactlyInAnyOrder(503, 503, 503, 503, 503, 200);
    }

    private static String createWebhook(ApiFixtures fixtures, WebhookReceiver receiver) {
        ApiResponse created = fixtures.client().post("/webhooks", fixtures.org().adminKey(),
                Map.of("url", receiver.url(), "events", List.of("wallet.created", "wallet.funded")));
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        return created.text("webhook_id");
    }

    /** The delivery log's attempts at the event, as the API lists them. */
    private static List<JsonNode> attempts(ApiFixtures fixtures, String webhookId, String eventId) {
        JsonNode log = fixtures.client().get("/webhooks/" + webhookId + "/deliveries?limit=100",
                fixtures.org().viewerKey()).json().path("data");
        return StreamSupport.stream(log.spliterator(), false)
                .filter(attempt -> attempt.path("event_id").asText().equals(eventId)).toList();
    }

    private static JsonNode awaitAttempt(ApiFixtures fixtures, String webhookId, String eventId, int attempt) {
        return Eventually.await(PATIENCE, () -> "no attempt " + attempt + " logged for " + eventId,
                () -> attempts(fixtures, webhookId, eventId).stream()
                        .filter(logged -> logged.path("attempt").asInt() == attempt).findFirst());
    }
}
