package com.agentwallet.bootstrap.api;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertError;
import static com.agentwallet.bootstrap.api.ApiFixtures.body;
import static com.agentwallet.bootstrap.api.ApiFixtures.field;
import static com.agentwallet.bootstrap.api.ApiFixtures.items;
import static com.agentwallet.bootstrap.api.ApiFixtures.sha256Hex;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Escrow between agents of two organisations, over HTTPS. The parties are the sending wallet's
 * agent and organisation and the receiving wallet's agent and organisation: both sides read the
 * escrow; the receiving side completes it, the sending side disputes it, and neither the other way
 * round; after the deadline neither completes nor disputes, and the clockwork refunds it. The
 * server runs on a clock the test moves past deadlines.
 */
class EscrowPartiesTest {
    private static final JumpingClock CLOCK = new JumpingClock();
    private static final String PROOF = sha256Hex("the summary");

    private static ApiServer server;
    private static ApiClient client;
    private static DemoOrg sending;
    private static DemoOrg receiving;
    private static ApiFixtures senderFx;
    private static ApiFixtures receiverFx;

    private ApiFixtures.Wallet sender;
    private ApiFixtures.Wallet receiver;
    private String escrow;

    @BeforeAll
    static void aServerOnAClockTheTestMoves() {
        server = ApiServer.onTestLedger(CLOCK);
        client = server.client();
        sending = server.org();
        receiving = server.otherOrg();
        senderFx = new ApiFixtures(server, sending);
        receiverFx = new ApiFixtures(server, receiving);
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @BeforeEach
    void theSendersAgentLocksTenForAnAgentOfAnotherOrganisation() {
        sender = senderFx.fundedWallet("100.00");
        receiver = receiverFx.wallet(receiverFx.openPolicy());
        // ten minutes: the agents' tokens (an hour) outlive the deadline
        ApiResponse locked = senderFx.lockEscrow(sender.token(), ApiFixtures.with(
                ApiFixtures.escrow(sender.id(), receiver.id(), "10.00"), "timeout_seconds", 600));
        assertThat(locked.status()).as(locked.toString()).isEqualTo(200);
        escrow = locked.text("id");
    }

    @Test
    void bothSidesReadItAndListItAndNobodyElseSeesIt() {
        for (String credential : new String[] {sender.token(), receiver.token(), sending.viewerKey(),
                receiving.viewerKey()}) {
            ApiResponse read = client.get("/payments/a2a/" + escrow, credential);
            assertThat(read.status()).as(read.toString()).isEqualTo(200);
            assertThat(read.text("to_wallet")).isEqualTo(receiver.id());
            assertThat(field(items(client.get("/payments/a2a?limit=100", credential)), "id")).contains(escrow);
        }
        ApiFixtures.Wallet stranger = receiverFx.wallet(receiverFx.openPolicy());

        assertError(client.get("/payments/a2a/" + escrow, stranger.token()), 404, "not_found");
        assertThat(field(items(client.get("/payments/a2a", stranger.token())), "id")).doesNotContain(escrow);
        assertError(client.post("/payments/a2a/" + escrow + "/complete", stranger.token(), completion()), 404,
                "not_found");
    }

    @Test
    void theReceiversAgentCompletesItAndTheSendersAgentCannot() {
        JsonNode refused = assertError(client.post("/payments/a2a/" + escrow + "/complete", sender.token(),
                completion()), 403, "insufficient_permissions");
        assertThat(refused.path("required_role").asText()).isEqualTo("admin");
        assertThat(status()).isEqualTo("locked");

        ApiResponse released = client.post("/payments/a2a/" + escrow + "/complete", receiver.token(), completion());

        assertThat(released.status()).as(released.toString()).isEqualTo(200);
        assertThat(released.text("status")).isEqualTo("released");
        Eventually.await(Duration.ofSeconds(20), () -> "the receiver was not paid",
                () -> Optional.of(receiverFx.balance(receiver.id())).filter("10.00"::equals));
        assertError(client.post("/payments/a2a/" + escrow + "/dispute", sender.token(), dispute()), 409,
                "invalid_state");
        assertThat(status()).isEqualTo("released");
    }

    @Test
    void theSendersAgentDisputesItAndTheReceivingSideCannot() {
        for (String credential : new String[] {receiver.token(), receiving.adminKey()}) {
            JsonNode refused = assertError(client.post("/payments/a2a/" + escrow + "/dispute", credential, dispute()),
                    403, "insufficient_permissions");
            assertThat(refused.path("required_role").asText()).isEqualTo("admin");
        }
        assertThat(status()).isEqualTo("locked");

        ApiResponse disputed = client.post("/payments/a2a/" + escrow + "/dispute", sender.token(), dispute());

        assertThat(disputed.status()).as(disputed.toString()).isEqualTo(200);
        assertThat(disputed.text("status")).isEqualTo("disputed");
        JsonNode notTheirs = assertError(client.post("/payments/a2a/" + escrow + "/resolve", receiving.operatorKey(),
                body("outcome", "release")), 403, "insufficient_permissions");
        assertThat(notTheirs.path("required_role").asText()).isEqualTo("operator");
        assertError(client.post("/payments/a2a/" + escrow + "/resolve", sender.token(), body("outcome", "refund")),
                403, "insufficient_permissions");
        assertThat(status()).isEqualTo("disputed");
        ApiResponse resolved = client.post("/payments/a2a/" + escrow + "/resolve", sending.operatorKey(),
                body("outcome", "refund"));
        assertThat(resolved.text("status")).as(resolved.toString()).isEqualTo("refunded");
    }

    @Test
    void theReceivingOrganisationsKeyCompletesIt() {
        ApiResponse released = client.post("/payments/a2a/" + escrow + "/complete", receiving.adminKey(), completion());

        assertThat(released.status()).as(released.toString()).isEqualTo(200);
        assertThat(released.text("status")).isEqualTo("released");
    }

    @Test
    void afterTheDeadlineNeitherSideCompletesNorDisputesAndTheSenderIsRefunded() {
        Instant deadline = Instant.parse(client.get("/payments/a2a/" + escrow, sender.token()).text("timeout_at"));
        CLOCK.jumpTo(deadline);

        assertError(client.post("/payments/a2a/" + escrow + "/complete", receiver.token(), completion()), 409,
                "invalid_state");
        assertError(client.post("/payments/a2a/" + escrow + "/complete", sending.adminKey(), completion()), 409,
                "invalid_state");
        assertError(client.post("/payments/a2a/" + escrow + "/dispute", sender.token(), dispute()), 409,
                "invalid_state");
        Eventually.await(Duration.ofSeconds(20), () -> "escrow " + escrow + " was not refunded",
                () -> Optional.of(status()).filter("refunded"::equals));
        Eventually.await(Duration.ofSeconds(20), () -> "the sender was not refunded",
                () -> Optional.of(senderFx.balance(sender.id())).filter("100.00"::equals));
        assertThat(receiverFx.balance(receiver.id())).isEqualTo("0.00");
    }

    private String status() {
        return client.get("/payments/a2a/" + escrow, sending.viewerKey()).text("status");
    }

    private static Map<String, Object> completion() {
        return body("proof_type", "output_hash", "proof", PROOF);
    }

    private static Map<String, Object> dispute() {
        return body("reason", "the summary is empty", "evidence", sha256Hex("empty"));
    }
}
