package com.agentwallet.bootstrap.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertError;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertPolicyViolation;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertSessionTokenRefused;
import static com.agentwallet.bootstrap.api.ApiFixtures.escrow;
import static com.agentwallet.bootstrap.api.ApiFixtures.payment;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static com.agentwallet.bootstrap.api.ApiFixtures.unique;
import static com.agentwallet.bootstrap.api.ApiFixtures.usdc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The session token of payment-making requests, in a backend's {@code Session-Token} header or as
 * the agent's own credential: missing, foreign, forged, tampered or rotated-away tokens in the
 * header, and rotated-away ones as the credential, are 401 {@code session_token_invalid} with rule
 * {@code session_token}, recorded as blocked; a token that is not ours as the credential is 401
 * {@code authentication_failed}, with nothing to record it on; a valid token still meets the
 * policy; escrow locks need it like payments.
 */
class SessionTokenTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64URL_DECODE = Base64.getUrlDecoder();
    private static final AtomicInteger REFUSED = new AtomicInteger();
    private static final AtomicInteger NOT_OURS = new AtomicInteger();

    private final ApiServer server = ApiServer.shared();
    private final ApiFixtures fx = new ApiFixtures(server);
    private final ApiClient client = server.client();
    private final String admin = server.org().adminKey();

    @Test
    void aPaymentWithoutATokenIsRefusedAndRecordedAsBlocked() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("100.00");
        String to = randomAddress();

        ApiResponse refused = fx.payOnBehalf(null, payment(wallet.id(), to, "3.00"));
        ApiResponse blank = fx.payOnBehalf("   ", payment(wallet.id(), to, "3.00"));

        refused(refused);
        refused(blank);
        List<JsonNode> blocked = fx.transactions(wallet.id(), "status=blocked");
        assertThat(blocked).hasSize(2);
        assertThat(blocked).allSatisfy(tx -> {
            assertThat(tx.path("type").asText()).isEqualTo("payment");
            assertThat(tx.path("recipient").asText()).isEqualTo(to);
            assertThat(tx.path("violation").path("rule").asText()).isEqualTo("session_token");
        });
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("100.00"));
    }

    @Test
    void theTokenOfAnotherWalletIsRefused() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("100.00");
        ApiFixtures.Wallet sibling = fx.fundedWallet("100.00");
        ApiFixtures other = new ApiFixtures(server, server.otherOrg());
        ApiFixtures.Wallet foreign = other.fundedWallet("100.00");

        refused(fx.payOnBehalf(sibling.token(), payment(wallet.id(), randomAddress(), "3.00")));
        refused(fx.payOnBehalf(foreign.token(), payment(wallet.id(), randomAddress(), "3.00")));

        assertThat(fx.transactions(wallet.id(), "status=blocked")).hasSize(2);
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("100.00"));
        assertThat(usdc(fx.balance(sibling.id()))).isEqualByComparingTo(usdc("100.00"));
        assertThat(fx.transactions(sibling.id(), "type=payment")).isEmpty();
        ApiResponse crossOrg = other.payOnBehalf(wallet.token(), payment(wallet.id(), randomAddress(), "3.00"));
        assertThat(crossOrg.status()).as("another organisation cannot even see the wallet: " + crossOrg)
                .isEqualTo(404);
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("100.00"));
    }

    @Test
    void forgedAndTamperedTokensAreRefused() throws Exception {
        ApiFixtures.Wallet wallet = fx.fundedWallet("100.00");
        ApiFixtures.Wallet sibling = fx.fundedWallet("100.00");
        String[] parts = wallet.token().split("\\.");
        assertThat(parts).as("a compact JWS").hasSize(3);
        JsonNode header = JSON.readTree(B64URL_DECODE.decode(parts[0]));
        assertThat(header.path("alg").asText()).isEqualTo("HS256");
        ObjectNode claims = (ObjectNode) JSON.readTree(B64URL_DECODE.decode(parts[1]));
        assertThat(claims.path("sub").asText()).isEqualTo(wallet.id());

        String none = b64(Map.of("alg", "none", "typ", "JWT")) + "." + parts[1] + ".";
        String noneKeepingSignature = b64(Map.of("alg", "none", "typ", "JWT")) + "." + parts[1] + "." + parts[2];
        String otherSecret = sign(parts[0] + "." + parts[1], "another-secret-that-is-long-enough-for-hs256!");
        ObjectNode later = claims.deepCopy();
        later.put("exp", claims.path("exp").asLong() + 86_400);
        String tamperedExpiry = parts[0] + "." + b64(later) + "." + parts[2];
        ObjectNode newerVersion = claims.deepCopy();
        newerVersion.put("ver", claims.path("ver").asLong() + 1);
        String tamperedVersion = parts[0] + "." + b64(newerVersion) + "." + parts[2];
        String[] siblingParts = sibling.token().split("\\.");
        ObjectNode redirected = (ObjectNode) JSON.readTree(B64URL_DECODE.decode(siblingParts[1]));
        redirected.put("sub", wallet.id());
        String siblingSignatureOnMyClaims = siblingParts[0] + "." + b64(redirected) + "." + siblingParts[2];
        String hs512 = sign512(b64(Map.of("alg", "HS512", "typ", "JWT")) + "." + parts[1]);

        List<String> forgeries = List.of("garbage", "a.b.c", wallet.token() + "x", none, noneKeepingSignature,
                otherSecret, tamperedExpiry, tamperedVersion, siblingSignatureOnMyClaims, hs512,
                parts[0] + "." + parts[1]);
        for (String forged : forgeries) {
            ApiResponse refused = fx.payOnBehalf(forged, payment(wallet.id(), randomAddress(), "3.00"));
            refused(refused);
            assertError(fx.pay(forged, payment(wallet.id(), randomAddress(), "3.00")), 401, "authentication_failed");
            assertError(client.get("/wallets/" + wallet.id(), forged), 401, "authentication_failed");
            NOT_OURS.incrementAndGet();
        }

        assertThat(fx.transactions(wallet.id(), "status=blocked")).as("only the header's forgeries are recorded")
                .hasSize(forgeries.size());
        assertThat(fx.transactions(wallet.id(), "status=confirmed&type=payment")).isEmpty();
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("100.00"));
        ApiResponse genuine = fx.pay(wallet.token(), payment(wallet.id(), randomAddress(), "3.00"));
        assertThat(genuine.status()).as("the untouched token works: " + genuine).isEqualTo(200);
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("97.00"));
    }

    @Test
    void rotationStopsTheOldTokenAtOnceAndTheNewOneWorks() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("100.00");
        assertThat(fx.pay(wallet.token(), payment(wallet.id(), randomAddress(), "1.00")).status()).isEqualTo(200);

        ApiResponse rotated = client.post("/wallets/" + wallet.id() + "/rotate-token", admin, Map.of());
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        assertThat(rotated.text("wallet_id")).isEqualTo(wallet.id());
        String fresh = rotated.text("session_token");
        assertThat(fresh).isNotEqualTo(wallet.token());

        refused(fx.pay(wallet.token(), payment(wallet.id(), randomAddress(), "2.00")));
        ApiResponse paid = fx.pay(fresh, payment(wallet.id(), randomAddress(), "2.00"));
        assertThat(paid.status()).as(paid.toString()).isEqualTo(200);

        ApiResponse again = client.post("/wallets/" + wallet.id() + "/rotate-token", admin, Map.of("ttl_seconds", 600));
        assertThat(again.status()).as(again.toString()).isEqualTo(200);
        refused(fx.pay(fresh, payment(wallet.id(), randomAddress(), "4.00")));
        refused(fx.pay(wallet.token(), payment(wallet.id(), randomAddress(), "4.00")));
        ApiResponse dryRunOld = fx.dryRun(fresh, payment(wallet.id(), randomAddress(), "4.00"));
        assertThat(dryRunOld.text("decision")).as(dryRunOld.toString()).isEqualTo("blocked");
        assertThat(dryRunOld.json().path("violation").path("rule").asText()).isEqualTo("session_token");

        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("97.00"));
        assertThat(fx.transactions(wallet.id(), "status=blocked")).hasSize(3);
    }

    @Test
    void expiriesFollowTheTtl() throws Exception {
        Instant before = Instant.now();
        ApiFixtures.Wallet wallet = fx.wallet(fx.policy(Map.of()));
        assertThat(Duration.between(before, Instant.parse(wallet.tokenExpiresAt())).toSeconds())
                .as("the default TTL is 3600 s").isCloseTo(3600L, within(60L));
        assertThat(exp(wallet.token())).isEqualTo(Instant.parse(wallet.tokenExpiresAt()).getEpochSecond());

        ApiResponse created = client.post("/wallets", admin, Map.of("agent_id", unique("ttl-agent"),
                "policy_id", fx.policy(Map.of()), "session_ttl_seconds", 600));
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        assertThat(Duration.between(before, Instant.parse(created.text("session_token_expires_at"))).toSeconds())
                .isCloseTo(600L, within(60L));

        Instant rotatedAt = Instant.now();
        ApiResponse rotated = client.post("/wallets/" + wallet.id() + "/rotate-token", admin,
                Map.of("ttl_seconds", 900));
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        Instant expiresAt = Instant.parse(rotated.text("expires_at"));
        assertThat(Duration.between(rotatedAt, expiresAt).toSeconds()).isCloseTo(900L, within(60L));
        assertThat(rotated.text("expires_at")).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
        assertThat(exp(rotated.text("session_token"))).isEqualTo(expiresAt.getEpochSecond());
        ApiResponse readBack = client.get("/wallets/" + wallet.id(), admin);
        assertThat(readBack.json().has("session_token")).as("the token is shown only when issued").isFalse();
    }

    @Test
    void aValidTokenDoesNotBypassThePolicy() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("100.00", Map.of("max_per_tx", "10.00"));

        ApiResponse refused = fx.pay(wallet.token(), payment(wallet.id(), randomAddress(), "10.01"));

        assertThat(assertPolicyViolation(refused).path("rule").asText()).isEqualTo("max_per_tx");
        ApiResponse atLimit = fx.pay(wallet.token(), payment(wallet.id(), randomAddress(), "10.00"));
        assertThat(atLimit.status()).as(atLimit.toString()).isEqualTo(200);
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("90.00"));
        ApiResponse noTokenOverLimit = fx.payOnBehalf(null, payment(wallet.id(), randomAddress(), "50.00"));
        assertThat(noTokenOverLimit.json().path("error").path("violation").path("rule").asText())
                .as("the session token is check 1, before max_per_tx").isEqualTo("session_token");
    }

    @Test
    void anEscrowLockNeedsThePayingWalletsToken() {
        ApiFixtures.Wallet payer = fx.fundedWallet("100.00");
        ApiFixtures.Wallet payee = fx.fundedWallet("1.00");

        refused(lock(payer, payee, null));
        refused(lock(payer, payee, payee.token()));
        refused(lock(payer, payee, "garbage"));
        assertThat(usdc(fx.balance(payer.id()))).isEqualByComparingTo(usdc("100.00"));
        assertThat(fx.transactions(payer.id(), "type=escrow_lock&status=blocked")).hasSize(3);
        ApiResponse noEscrows = client.get("/payments/a2a?wallet_id=" + payer.id(), admin);
        assertThat(noEscrows.json().path("data")).isEmpty();

        ApiResponse locked = fx.lockEscrow(payer.token(), escrow(payer.id(), payee.id(), "25.00"));
        assertThat(locked.status()).as(locked.toString()).isEqualTo(200);
        assertThat(locked.text("status")).isEqualTo("locked");
        assertThat(usdc(fx.balance(payer.id()))).isEqualByComparingTo(usdc("75.00"));
    }

    private ApiResponse lock(ApiFixtures.Wallet payer, ApiFixtures.Wallet payee, String token) {
        return fx.lockEscrowOnBehalf(token, escrow(payer.id(), payee.id(), "25.00"));
    }

    private static long exp(String token) throws Exception {
        return JSON.readTree(B64URL_DECODE.decode(token.split("\\.")[1])).path("exp").asLong();
    }

    /** A refused token, counted for the suite's figures. */
    private static void refused(ApiResponse answer) {
        assertSessionTokenRefused(answer);
        REFUSED.incrementAndGet();
    }

    @AfterAll
    static void figures() {
        System.out.printf("session tokens: %d missing, foreign, forged, tampered or rotated tokens refused "
                + "as session_token_invalid; %d forged or tampered ones refused as the credential "
                + "(authentication_failed)%n", REFUSED.get(), NOT_OURS.get());
    }

    private static String b64(Object json) {
        try {
            return B64URL.encodeToString(JSON.writeValueAsBytes(json));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sign(String signingInput, String secret) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return signingInput + "." + B64URL.encodeToString(mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));
    }

    private static String sign512(String signingInput) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA512");
        mac.init(new SecretKeySpec("some-other-secret-of-sixty-four-bytes-for-hs512-xxxxxxxxxxxxxxxx"
                .getBytes(StandardCharsets.UTF_8), "HmacSHA512"));
        return signingInput + "." + B64URL.encodeToString(mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));
    }
}
