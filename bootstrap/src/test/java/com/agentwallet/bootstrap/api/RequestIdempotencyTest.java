package com.agentwallet.bootstrap.api;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static com.agentwallet.bootstrap.api.ApiFixtures.body;
import static com.agentwallet.bootstrap.api.ApiFixtures.payment;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static com.agentwallet.bootstrap.api.ApiFixtures.unique;
import static com.agentwallet.bootstrap.api.ApiFixtures.usdc;
import static com.agentwallet.bootstrap.api.ApiFixtures.with;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code Idempotency-Key} on every creating request: a retry makes nothing again and answers what the
 * first request made, marked {@code Idempotent-Replayed}; the key with another request is a 409; keys
 * belong to one organisation; a refused request leaves its key unused; and a payment takes the
 * header as well as {@code idempotency_key}.
 */
class RequestIdempotencyTest {
    private static final String KEY = "Idempotency-Key";
    private static final String REPLAYED = "Idempotent-Replayed";

    private final ApiServer server = ApiServer.shared();
    private final ApiFixtures fx = new ApiFixtures(server);

    @Test
    void aFundingRetriedWithItsKeyAllocatesOnce() {
        ApiFixtures.Wallet wallet = fx.wallet(fx.openPolicy());
        String key = unique("fund");
        Map<String, Object> body = body("amount", "30.00", "currency", "USDC");

        ApiResponse first = keyed("/wallets/" + wallet.id() + "/fund", key, body);
        ApiResponse retry = keyed("/wallets/" + wallet.id() + "/fund", key, body);

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(first.header(REPLAYED)).isEmpty();
        assertThat(retry.status()).as(retry.toString()).isEqualTo(200);
        assertThat(retry.header(REPLAYED)).hasValue("true");
        assertThat(usdc(retry.text("usdc_balance"))).isEqualByComparingTo(usdc("30.00"));
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("30.00"));
        assertThat(fx.transactions(wallet.id(), "type=funding")).hasSize(1);
    }

    @Test
    void theSameKeyWithAnotherBodyOrPathIsAConflictAndChangesNothing() {
        ApiFixtures.Wallet wallet = fx.wallet(fx.openPolicy());
        ApiFixtures.Wallet other = fx.wallet(fx.openPolicy());
        String key = unique("fund");
        assertThat(keyed("/wallets/" + wallet.id() + "/fund", key, body("amount", "5.00", "currency", "USDC"))
                .status()).isEqualTo(200);

        List<ApiResponse> conflicts = List.of(
                keyed("/wallets/" + wallet.id() + "/fund", key, body("amount", "6.00", "currency", "USDC")),
                keyed("/wallets/" + other.id() + "/fund", key, body("amount", "5.00", "currency", "USDC")),
                keyed("/wallets/" + wallet.id() + "/withdraw", key, body("amount", "5.00", "currency", "USDC")));

        for (ApiResponse conflict : conflicts) {
            assertThat(conflict.status()).as(conflict.toString()).isEqualTo(409);
            assertThat(conflict.errorCode()).isEqualTo("idempotency_conflict");
        }
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("5.00"));
        assertThat(usdc(fx.balance(other.id()))).isEqualByComparingTo(usdc("0"));
    }

    @Test
    void aRefusedRequestLeavesItsKeyUnusedAndKeysBelongToOneOrganisation() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("10.00");
        String key = unique("withdraw");
        Map<String, Object> tooMuch = body("amount", "11.00", "currency", "USDC");

        ApiResponse refused = keyed("/wallets/" + wallet.id() + "/withdraw", key, tooMuch);
        ApiResponse other = keyed("/wallets/" + wallet.id() + "/withdraw", key, body("amount", "4.00", "currency", "USDC"));
        ApiFixtures theirs = new ApiFixtures(server, server.otherOrg());
        ApiFixtures.Wallet theirWallet = theirs.wallet(theirs.openPolicy());
        ApiResponse theirFund = server.client().call("POST", "/wallets/" + theirWallet.id() + "/fund")
                .key(server.otherOrg().adminKey()).header(KEY, key).body(body("amount", "2.00", "currency", "USDC"))
                .send();

        assertThat(refused.status()).as(refused.toString()).isEqualTo(422);
        assertThat(other.status()).as("the refusal did not use the key up: " + other).isEqualTo(200);
        assertThat(other.header(REPLAYED)).isEmpty();
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("6.00"));
        assertThat(theirFund.status()).as("another organisation's key of the same name: " + theirFund).isEqualTo(200);
        assertThat(theirFund.header(REPLAYED)).isEmpty();
    }

    @Test
    void aWalletCreationReplayAnswersTheSameWalletAndSessionToken() {
        String key = unique("open");
        Map<String, Object> body = body("agent_id", unique("agent"), "label", ApiFixtures.WALLET_LABEL,
                "policy_id", fx.openPolicy());

        ApiResponse first = keyed("/wallets", key, body);
        ApiResponse retry = keyed("/wallets", key, body);

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(retry.header(REPLAYED)).hasValue("true");
        assertThat(retry.text("id")).isEqualTo(first.text("id"));
        assertThat(retry.text("session_token")).isEqualTo(first.text("session_token"));
        assertThat(retry.text("session_token_expires_at")).isEqualTo(first.text("session_token_expires_at"));
    }

    @Test
    void everyOtherCreatingRequestAnswersWhatItsKeyMadeFirst() {
        ApiFixtures.Wallet a = fx.fundedWallet("50.00");
        ApiFixtures.Wallet b = fx.wallet(fx.openPolicy());
        String policyId = fx.openPolicy();
        Map<String, Map<String, Object>> requests = Map.of(
                "/wallets/fund-batch", Map.of("body", List.of(body("wallet_id", b.id(), "amount", "3.00",
                        "currency", "USDC"))),
                "/policies", Map.of("body", body("name", unique("policy"), "max_per_tx", "9.00")),
                "/policies/" + policyId + "/clone", Map.of("body", body("name", unique("clone"))),
                "/webhooks", Map.of("body", body("url", "https://127.0.0.1:9/" + unique("hook"), "events", List.of("*"))),
                "/transactions/export", Map.of("body", body("format", "json", "wallet_id", a.id())));

        requests.forEach((path, request) -> {
            String key = unique("create");
            ApiResponse first = keyed(path, key, request.get("body"));
            ApiResponse retry = keyed(path, key, request.get("body"));

            assertThat(first.status()).as(path + " " + first).isIn(200, 202);
            assertThat(retry.status()).as(path + " " + retry).isEqualTo(first.status());
            assertThat(retry.header(REPLAYED)).as(path).hasValue("true");
            String idField = path.startsWith("/wallets") ? "data" : path.equals("/webhooks") ? "webhook_id" : "id";
            assertThat(retry.json().path(idField)).as(path).isEqualTo(first.json().path(idField));
            if (path.equals("/webhooks")) {
                assertThat(retry.text("signing_secret")).as("the replay shows the secret the first answer showed")
                        .isEqualTo(first.text("signing_secret"));
            }
        });
        assertThat(usdc(fx.balance(b.id()))).isEqualByComparingTo(usdc("3.00"));

        String escrowKey = unique("escrow");
        Map<String, Object> lock = ApiFixtures.escrow(a.id(), b.id(), "7.00");
        ApiResponse locked = server.client().call("POST", "/payments/a2a").key(a.token()).header(KEY, escrowKey)
                .body(lock).send();
        ApiResponse lockedAgain = server.client().call("POST", "/payments/a2a").key(a.token()).header(KEY, escrowKey)
                .body(lock).send();
        assertThat(locked.status()).as(locked.toString()).isEqualTo(200);
        assertThat(lockedAgain.header(REPLAYED)).hasValue("true");
        assertThat(lockedAgain.text("id")).isEqualTo(locked.text("id"));
        assertThat(usdc(fx.balance(a.id()))).isEqualByComparingTo(usdc("43.00"));
    }

    @Test
    void aPaymentTakesTheHeaderAndRefusesAHeaderThatDisagreesWithItsBody() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("20.00");
        String key = unique("pay");
        Map<String, Object> pay = payment(wallet.id(), randomAddress(), "2.00");

        ApiResponse first = server.client().call("POST", "/payments").key(wallet.token()).header(KEY, key)
                .body(pay).send();
        ApiResponse inBody = fx.pay(wallet.token(), with(pay, "idempotency_key", key));
        ApiResponse disagreeing = server.client().call("POST", "/payments").key(wallet.token())
                .header(KEY, unique("other")).body(with(pay, "idempotency_key", key)).send();

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(inBody.header(REPLAYED)).as("the body's key is the header's key").hasValue("true");
        assertThat(inBody.text("tx_id")).isEqualTo(first.text("tx_id"));
        assertThat(disagreeing.status()).as(disagreeing.toString()).isEqualTo(400);
        assertThat(disagreeing.json().path("error").path("param").asText()).isEqualTo("idempotency_key");
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("18.00"));
    }

    @Test
    void aKeyOfSpacesOrOver255CharactersIsA400() {
        ApiFixtures.Wallet wallet = fx.wallet(fx.openPolicy());

        for (String bad : List.of("two words", "k".repeat(256))) {
            ApiResponse refused = keyed("/wallets/" + wallet.id() + "/fund", bad,
                    body("amount", "1.00", "currency", "USDC"));
            assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
            assertThat(refused.json().path("error").path("param").asText()).isEqualTo(KEY);
        }
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("0"));
    }

    private ApiResponse keyed(String path, String key, Object body) {
        return server.client().call("POST", path).key(server.org().adminKey()).header(KEY, key).body(body).send();
    }
}
