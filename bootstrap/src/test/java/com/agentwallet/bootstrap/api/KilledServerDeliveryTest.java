package com.agentwallet.bootstrap.api;

import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.webhook.WebhookLimits;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server killed with SIGKILL between the commit of events and their delivery: one event is in
 * flight (its receiver holds the POST unanswered), the next is committed and waits behind it. The
 * server started again on the same data directory (taking over the embedded PostgreSQL the killed
 * one left running) delivers both, signed, in the wallet's order: the delivery in flight once the
 * killed server's lease on it has run out, which the restarted server's clock jumps past.
 */
class KilledServerDeliveryTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String KEY_STORE_PASSWORD = "agent-wallet-test";

    @Test
    void eventsCommittedBeforeAKillAreDeliveredByTheRestartedServer() throws Exception {
        Path data = ApiServer.newDataDirectory();
        String webhookId;
        String secret;
        ApiFixtures.Wallet wallet;
        WebhookReceiver receiver;
        try (ServerProcess killed = ServerProcess.start(data)) {
            receiver = new WebhookReceiver(data.resolve("tls/localhost.p12"), KEY_STORE_PASSWORD);
            ApiFixtures fixtures = new ApiFixtures(killed.client(), killed.org());
            ApiResponse webhook = fixtures.client().post("/webhooks", fixtures.org().adminKey(),
                    Map.of("url", receiver.url(), "events", List.of("wallet.created", "wallet.funded")));
            assertThat(webhook.status()).as(webhook.toString()).isEqualTo(200);
            webhookId = webhook.text("webhook_id");
            secret = webhook.text("signing_secret");

            receiver.hold();
            wallet = fixtures.wallet(fixtures.openPolicy());
            receiver.await(post -> post.isEvent("wallet.created", wallet.id()), PATIENCE);
            assertThat(fixtures.fund(wallet.id(), "5.00").path("usdc_balance").asText())
                    .as("the funding, and its event, committed").isEqualTo("5.00");

            killed.kill();
        }
        receiver.release();
        assertThat(receiver.received()).as("before the restart").hasSize(1);

        JumpingClock clock = new JumpingClock();
        clock.jumpTo(clock.instant().plus(WebhookLimits.DEFAULTS.lease()));
        ApiServer restarted = ApiServer.start(clock, data);
        try {
            WebhookReceiver.Received funded = receiver.await(post -> post.isEvent("wallet.funded", wallet.id()), PATIENCE);
            List<WebhookReceiver.Received> walletPosts = receiver.received().stream()
                    .filter(post -> post.body().contains(wallet.id())).toList();
            assertThat(walletPosts).extracting(WebhookReceiver.Received::event)
                    .containsExactly("wallet.created", "wallet.created", "wallet.funded");
            assertThat(walletPosts.get(1).body()).as("the same event, sent again").isEqualTo(walletPosts.get(0).body());
            assertThat(walletPosts).allSatisfy(post -> assertThat(post.signature())
                    .isEqualTo(Hashing.hmacSha256Hex(secret, post.body().getBytes(StandardCharsets.UTF_8))));

            ApiFixtures fixtures = new ApiFixtures(restarted);
            JsonNode log = fixtures.client().get("/webhooks/" + webhookId + "/deliveries", fixtures.org().viewerKey())
                    .json().path("data");
            assertThat(StreamSupport.stream(log.spliterator(), false)
                    .filter(attempt -> funded.body().contains(attempt.path("event_id").asText())))
                    .extracting(attempt -> attempt.path("status_code").asInt()).containsExactly(200);
        } finally {
            receiver.close();
            restarted.stop();
        }
    }
}
