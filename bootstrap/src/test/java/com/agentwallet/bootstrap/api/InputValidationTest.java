package com.agentwallet.bootstrap.api;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertInvalid;
import static com.agentwallet.bootstrap.api.ApiFixtures.field;
import static com.agentwallet.bootstrap.api.ApiFixtures.items;
import static com.agentwallet.bootstrap.api.ApiFixtures.payment;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static com.agentwallet.bootstrap.api.ApiFixtures.unique;
import static com.agentwallet.bootstrap.api.ApiFixtures.usdc;
import static com.agentwallet.bootstrap.api.ApiFixtures.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Input the contract refuses: each case is a 400 {@code validation_error} whose {@code param} names
 * the field at fault, and the resource it aimed at is unchanged afterwards. Also: camelCase names are
 * the snake_case ones, in bodies and in queries.
 */
class InputValidationTest {
    private final ApiServer server = ApiServer.shared();
    private final ApiFixtures fx = new ApiFixtures(server);
    private final ApiClient client = server.client();
    private final String admin = server.org().adminKey();

    @Test
    void amountsAsJsonNumbersAreRefused() {
        Baseline baseline = new Baseline();
        ApiFixtures.Wallet wallet = baseline.wallet;

        for (Object number : List.of(12.5, 12)) {
            assertInvalid(fx.pay(wallet.token(), with(payment(wallet.id(), randomAddress(), "1.00"), "amount", number)),
                    "amount");
            assertInvalid(client.post("/wallets/" + wallet.id() + "/fund", admin, Map.of("amount", number)), "amount");
            assertInvalid(client.post("/wallets/" + wallet.id() + "/withdraw", admin, Map.of("amount", number)),
                    "amount");
        }

        baseline.assertUnchanged();
    }

    @Test
    void amountStringsOutsideTheGrammarAreRefused() {
        Baseline baseline = new Baseline();
        ApiFixtures.Wallet wallet = baseline.wallet;

        for (String amount : List.of("1.0000001", "-1.00", "0", "0.000000", "1e3", " 1.00", "1.00 ", "", "1.", ".5",
                "1,00", "+1.00", "NaN")) {
            assertInvalid(fx.pay(wallet.token(), payment(wallet.id(), randomAddress(), amount)), "amount");
            assertInvalid(client.post("/wallets/" + wallet.id() + "/fund", admin, Map.of("amount", amount)), "amount");
        }
        assertInvalid(fx.pay(wallet.token(), payment(wallet.id(), randomAddress(), null)), "amount");

        baseline.assertUnchanged();
    }

    @Test
    void emptyNullAndMalformedBodiesAreRefusedAsTheBody() {
        Baseline baseline = new Baseline();
        ApiFixtures.Wallet wallet = baseline.wallet;

        for (String path : List.of("/payments", "/policies")) {
            assertInvalid(post(path, wallet, ""), "body");
            assertInvalid(post(path, wallet, "null"), "body");
            assertInvalid(post(path, wallet, "{\"wallet_id\": \"" + wallet.id() + "\", "), "body");
            assertInvalid(post(path, wallet, "{'name': 'single quotes'}"), "body");
            assertInvalid(post(path, wallet, "{\"name\": \"x\"} {\"name\": \"y\"}"), "body");
            assertInvalid(post(path, wallet, "[]"), "body");
            assertInvalid(post(path, wallet, "[{\"name\": \"in an array\"}]"), "body");
            assertInvalid(post(path, wallet, "\"just a string\""), "body");
        }
        assertInvalid(client.post("/wallets/fund-batch", admin, Map.of("wallet_id", wallet.id(), "amount", "1.00")),
                "body");

        baseline.assertUnchanged();
    }

    @Test
    void unknownFieldsAreNamed() {
        Baseline baseline = new Baseline();
        ApiFixtures.Wallet wallet = baseline.wallet;

        ApiResponse typo = client.post("/policies", admin, Map.of("name", unique("typo"), "maxPerTxx", "5.00"));
        assertThat(typo.status()).as(typo.toString()).isEqualTo(400);
        assertThat(typo.errorCode()).isEqualTo("validation_error");
        assertThat(typo.json().path("error").path("param").asText())
                .as("the param names the misspelt field (as sent, or in its snake_case form)")
                .isIn("maxPerTxx", "max_per_txx");
        assertInvalid(client.post("/policies", admin, Map.of("name", unique("typo"), "max_per_txx", "5.00")),
                "max_per_txx");
        assertInvalid(fx.pay(wallet.token(), with(payment(wallet.id(), randomAddress(), "1.00"), "foo", 1)), "foo");
        assertInvalid(client.post("/wallets/" + wallet.id() + "/fund", admin,
                Map.of("amount", "1.00", "foo", "bar")), "foo");

        baseline.assertUnchanged();
    }

    @Test
    void oneFieldInCamelCaseAndSnakeCaseAtOnceIsRefused() {
        Baseline baseline = new Baseline();
        ApiFixtures.Wallet wallet = baseline.wallet;

        Map<String, Object> policy = new LinkedHashMap<>();
        policy.put("name", unique("both"));
        policy.put("maxPerTx", "5.00");
        policy.put("max_per_tx", "6.00");
        assertInvalid(client.post("/policies", admin, policy), "max_per_tx");
        assertInvalid(fx.pay(wallet.token(), with(payment(wallet.id(), randomAddress(), "1.00"), "walletId", wallet.id())),
                "wallet_id");

        baseline.assertUnchanged();
    }

    @Test
    void velocityCapMustBeAnInteger() {
        String policyId = fx.policy(Map.of("velocity_cap", 3));
        String before = client.get("/policies/" + policyId, admin).raw();
        String newestPolicy = newestPolicyId();

        for (Object cap : List.of("5", 5.5, true)) {
            assertInvalid(client.post("/policies", admin, Map.of("name", unique("cap"), "velocity_cap", cap)),
                    "velocity_cap");
            assertInvalid(client.patch("/policies/" + policyId, admin, Map.of("velocity_cap", cap)), "velocity_cap");
        }

        assertThat(client.get("/policies/" + policyId, admin).raw()).isEqualTo(before);
        assertThat(newestPolicyId()).isEqualTo(newestPolicy);
    }

    @Test
    void listLimitsOutsideOneToAHundredAreRefused() {
        for (String path : List.of("/transactions", "/wallets", "/policies", "/webhooks", "/payments/a2a")) {
            for (String limit : List.of("0", "101", "abc", "-1", "1.5")) {
                assertInvalid(client.get(path + "?limit=" + limit, admin), "limit");
            }
            ApiResponse hundred = client.get(path + "?limit=100", admin);
            assertThat(hundred.status()).as(path + " " + hundred).isEqualTo(200);
            assertThat(hundred.text("object")).isEqualTo("list");
        }
    }

    @Test
    void unknownQueryParametersAreNamed() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("1.00");

        assertInvalid(client.get("/transactions?limt=5", admin), "limt");
        assertInvalid(client.get("/wallets?limt=5", admin), "limt");
        assertInvalid(client.get("/policies?foo=1", admin), "foo");
        assertInvalid(client.get("/wallets/" + wallet.id() + "/transactions?wallet_id=" + wallet.id(), admin),
                "wallet_id");
    }

    @Test
    void badEnumsAndTimestampsInQueriesAreNamed() {
        assertInvalid(client.get("/transactions?status=bogus", admin), "status");
        assertInvalid(client.get("/transactions?type=bogus", admin), "type");
        assertInvalid(client.get("/wallets?status=bogus", admin), "status");
        assertInvalid(client.get("/payments/a2a?status=bogus", admin), "status");
        assertInvalid(client.get("/transactions?from=yesterday", admin), "from");
        assertInvalid(client.get("/transactions?to=2026-13-01T00:00:00Z", admin), "to");
        assertThat(client.get("/transactions?from=2020-01-01T00:00:00.000Z&status=confirmed&type=payment", admin)
                .status()).isEqualTo(200);
    }

    @Test
    void aBadWalletStatusChangesNothing() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("10.00");

        assertInvalid(client.patch("/wallets/" + wallet.id(), admin, Map.of("status", "bogus")), "status");

        assertThat(client.get("/wallets/" + wallet.id(), admin).text("status")).isEqualTo("active");
    }

    @Test
    void webhooksNeedHttpsAndKnownEvents() {
        String newestBefore = newestWebhookId();

        assertInvalid(client.post("/webhooks", admin, Map.of("url", "http://127.0.0.1:9/hook", "events", List.of("*"))),
                "url");
        assertInvalid(client.post("/webhooks", admin, Map.of("url", "https://127.0.0.1:9/hook",
                "events", List.of("transaction.completed", "transaction.exploded"))), "events");
        assertInvalid(client.post("/webhooks", admin, Map.of("url", "https://127.0.0.1:9/hook", "events", List.of())),
                "events");

        assertThat(newestWebhookId()).isEqualTo(newestBefore);
    }

    @Test
    void escrowProofsMustBe64LowercaseHex() {
        ApiFixtures.Wallet payer = fx.fundedWallet("100.00");
        ApiFixtures.Wallet payee = fx.wallet(fx.policy(Map.of()));
        String hex = "ab".repeat(32);

        ApiResponse badExpected = fx.lockEscrow(payer, payee.id(), "10.00", Map.of("expected_proof", hex.toUpperCase()));
        assertInvalid(badExpected, "expected_proof");
        assertThat(usdc(fx.balance(payer.id()))).isEqualByComparingTo(usdc("100.00"));
        assertThat(fx.transactions(payer.id(), "type=escrow_lock")).isEmpty();

        ApiResponse locked = fx.lockEscrow(payer, payee.id(), "10.00", Map.of());
        assertThat(locked.status()).as(locked.toString()).isEqualTo(200);
        String escrow = "/payments/a2a/" + locked.text("id");
        for (String proof : List.of(hex.toUpperCase(), hex.substring(1), hex + "0", "zz" + hex.substring(2), "")) {
            assertInvalid(client.post(escrow + "/complete", admin, Map.of("proof_type", "output_hash", "proof", proof)),
                    "proof");
        }
        assertInvalid(client.post(escrow + "/complete", admin, Map.of("proof_type", "sha1", "proof", hex)),
                "proof_type");

        ApiResponse after = client.get(escrow, admin);
        assertThat(after.text("status")).isEqualTo("locked");
        assertThat(after.json().path("proof").isNull()).isTrue();
        assertThat(usdc(fx.balance(payee.id()))).isEqualByComparingTo(BigDecimal.ZERO);
    }

    @Test
    void rotateTokenTtlBelow300IsRefusedAnd300Works() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("10.00");
        Map<String, Object> probe = payment(wallet.id(), randomAddress(), "1.00");

        assertInvalid(client.post("/wallets/" + wallet.id() + "/rotate-token", admin, Map.of("ttl_seconds", 299)),
                "ttl_seconds");
        assertInvalid(client.post("/wallets/" + wallet.id() + "/rotate-token", admin, Map.of("ttl_seconds", "300")),
                "ttl_seconds");
        assertThat(fx.dryRun(wallet.token(), probe).text("decision"))
                .as("a refused rotation leaves the old token working").isEqualTo("allowed");

        Instant before = Instant.now();
        ApiResponse rotated = client.post("/wallets/" + wallet.id() + "/rotate-token", admin, Map.of("ttl_seconds", 300));
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        Instant expiresAt = Instant.parse(rotated.text("expires_at"));
        assertThat(Duration.between(before, expiresAt).toSeconds()).isCloseTo(300L, within(30L));
        assertThat(fx.dryRun(rotated.text("session_token"), probe).text("decision")).isEqualTo("allowed");
    }

    @Test
    void currencyOtherThanUsdcIsRefused() {
        Baseline baseline = new Baseline();
        ApiFixtures.Wallet wallet = baseline.wallet;

        assertInvalid(fx.pay(wallet.token(), with(payment(wallet.id(), randomAddress(), "1.00"), "currency", "EUR")),
                "currency");
        assertInvalid(client.post("/wallets/" + wallet.id() + "/fund", admin,
                Map.of("amount", "1.00", "currency", "EUR")), "currency");
        assertInvalid(client.post("/wallets/" + wallet.id() + "/withdraw", admin,
                Map.of("amount", "1.00", "currency", "EUR")), "currency");

        baseline.assertUnchanged();
    }

    @Test
    void camelCaseNamesWorkLikeSnakeCaseInBodiesAndQueries() {
        Map<String, Object> policyBody = new LinkedHashMap<>();
        policyBody.put("name", unique("camel"));
        policyBody.put("maxPerTx", "5.00");
        policyBody.put("velocityCap", 3);
        policyBody.put("allowedRecipients", List.of());
        ApiResponse policy = client.post("/policies", admin, policyBody);
        assertThat(policy.status()).as(policy.toString()).isEqualTo(200);
        assertThat(usdc(policy.text("max_per_tx"))).isEqualByComparingTo(usdc("5.00"));
        assertThat(policy.json().path("velocity_cap").asInt()).isEqualTo(3);

        String agentId = unique("camel-agent");
        ApiResponse created = client.post("/wallets", admin, Map.of("agentId", agentId, "policyId", policy.text("id")));
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        assertThat(created.text("agent_id")).isEqualTo(agentId);
        assertThat(created.text("policy_id")).isEqualTo(policy.text("id"));
        String walletId = created.text("id");
        String token = created.text("session_token");
        fx.fund(walletId, "20.00");

        String to = randomAddress();
        String key = unique("camel-key");
        Map<String, Object> camel = new LinkedHashMap<>();
        camel.put("walletId", walletId);
        camel.put("to", to);
        camel.put("amount", "2.00");
        camel.put("idempotencyKey", key);
        ApiResponse paid = fx.pay(token, camel);
        assertThat(paid.status()).as(paid.toString()).isEqualTo(200);
        assertThat(paid.text("wallet_id")).isEqualTo(walletId);

        Map<String, Object> snake = with(payment(walletId, to, "2.00"), "idempotency_key", key);
        snake.remove("currency");
        ApiResponse replay = fx.pay(token, snake);
        assertThat(replay.header("Idempotent-Replayed")).as("the snake_case spelling is the same request")
                .hasValue("true");
        assertThat(replay.text("tx_id")).isEqualTo(paid.text("tx_id"));

        ApiResponse overCap = fx.pay(token, Map.of("walletId", walletId, "to", to, "amount", "6.00"));
        assertThat(overCap.status()).as("maxPerTx was taken as max_per_tx: " + overCap).isEqualTo(422);
        assertThat(overCap.json().path("error").path("violation").path("rule").asText()).isEqualTo("max_per_tx");

        List<String> camelQuery = txIds(client.get("/transactions?walletId=" + walletId + "&type=payment&limit=100",
                admin));
        List<String> snakeQuery = txIds(client.get("/transactions?wallet_id=" + walletId + "&type=payment&limit=100",
                admin));
        assertThat(camelQuery).hasSize(2).isEqualTo(snakeQuery).contains(paid.text("tx_id"));
        assertThat(usdc(fx.balance(walletId))).isEqualByComparingTo(usdc("18.00"));
    }

    private ApiResponse post(String path, ApiFixtures.Wallet wallet, String rawBody) {
        return client.call("POST", path).key(admin).header("Session-Token", wallet.token()).body(rawBody).send();
    }

    /**
     * A wallet funded with 100.00, and what a refused request must leave as it was: the wallet's
     * balance and history, and the organisation's newest policy.
     */
    private final class Baseline {
        final ApiFixtures.Wallet wallet = fx.fundedWallet("100.00");
        private final List<String> history = fx.txIds(wallet.id(), "");
        private final String newestPolicy = newestPolicyId();

        void assertUnchanged() {
            assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("100.00"));
            assertThat(fx.txIds(wallet.id(), "")).as("no transaction was recorded").isEqualTo(history);
            assertThat(newestPolicyId()).as("no policy was created").isEqualTo(newestPolicy);
        }
    }

    private String newestPolicyId() {
        return client.get("/policies?limit=1", admin).json().path("data").path(0).path("id").asText();
    }

    private String newestWebhookId() {
        return client.get("/webhooks?limit=1", admin).json().path("data").path(0).path("webhook_id").asText();
    }

    private static List<String> txIds(ApiResponse list) {
        return field(items(list), "tx_id");
    }
}
