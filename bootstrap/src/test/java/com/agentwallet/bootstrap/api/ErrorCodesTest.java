package com.agentwallet.bootstrap.api;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertError;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertPolicyViolation;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertSessionTokenRefused;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertWellFormedError;
import static com.agentwallet.bootstrap.api.ApiFixtures.payment;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static com.agentwallet.bootstrap.api.ApiFixtures.sha256Hex;
import static com.agentwallet.bootstrap.api.ApiFixtures.unique;
import static com.agentwallet.bootstrap.api.ApiFixtures.unknownId;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One test per error code of the contract's table (rate limiting has a test class of its own): the
 * status, the code, a message, the docs URL, the request id of the {@code Request-Id} header, the
 * rate-limit headers, the extra fields of the code, and never a stack trace.
 */
class ErrorCodesTest {
    private final ApiServer server = ApiServer.shared();
    private final ApiFixtures fx = new ApiFixtures(server);
    private final ApiClient client = fx.client();
    private final DemoOrg org = fx.org();
    private final String admin = org.adminKey();
    private final String openPolicy = fx.openPolicy();

    // 400 validation_error

    @Test
    void validationErrorNamesTheParam() {
        JsonNode unknownField = assertError(client.post("/policies", admin,
                Map.of("name", "typo", "max_per_txx", "1.00")), 400, "validation_error");
        assertThat(unknownField.path("param").asText()).isEqualTo("max_per_txx");

        JsonNode number = assertError(client.post("/policies", admin,
                Map.of("name", "number", "max_per_tx", 12.5)), 400, "validation_error");
        assertThat(number.path("param").asText()).isEqualTo("max_per_tx");

        JsonNode seventhDecimal = assertError(client.post("/policies", admin,
                Map.of("name", "precise", "max_per_day", "1.0000001")), 400, "validation_error");
        assertThat(seventhDecimal.path("param").asText()).isEqualTo("max_per_day");

        JsonNode badEnum = assertError(client.post("/transactions/export", org.viewerKey(),
                Map.of("format", "xlsx")), 400, "validation_error");
        assertThat(badEnum.path("param").asText()).isEqualTo("format");

        JsonNode missing = assertError(client.post("/policies", admin, Map.of("max_per_tx", "1.00")),
                400, "validation_error");
        assertThat(missing.path("param").asText()).isEqualTo("name");
    }

    @Test
    void malformedJsonIsAValidationErrorWithoutParserInternals() {
        ApiResponse answer = client.post("/policies", admin, "{\"name\": \"broken\", ");

        JsonNode error = assertError(answer, 400, "validation_error");
        assertThat(error.path("param").asText()).isNotBlank();
    }

    @Test
    void aZeroOrNegativePaymentAmountIsAValidationError() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("5.00");
        for (String amount : List.of("0", "0.00", "-1.00", "1.0000001", "1e3", "")) {
            JsonNode error = assertError(fx.pay(wallet, randomAddress(), amount),
                    400, "validation_error");
            assertThat(error.path("param").asText()).as(amount).isEqualTo("amount");
        }
    }

    @Test
    void aPaymentOrEscrowToItsOwnWalletIsAValidationErrorAndNothingIsRecordedOrMoved() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("5.00");
        Map<String, Object> toItself = payment(wallet.id(), wallet.address(), "1.00");

        JsonNode dryRun = assertError(fx.dryRun(wallet.token(), toItself), 400, "validation_error");
        JsonNode paid = assertError(fx.pay(wallet.token(), toItself), 400, "validation_error");
        JsonNode lockedToAddress = assertError(fx.lockEscrow(wallet, wallet.address(), "1.00", Map.of()),
                400, "validation_error");
        JsonNode lockedToId = assertError(fx.lockEscrow(wallet, wallet.id(), "1.00", Map.of()), 400, "validation_error");

        assertThat(dryRun.path("param").asText()).isEqualTo("to");
        assertThat(paid.path("param").asText()).isEqualTo("to");
        assertThat(paid.path("message").asText()).isEqualTo("A wallet cannot pay its own address");
        assertThat(lockedToAddress.path("param").asText()).isEqualTo("to_wallet");
        assertThat(lockedToId.path("param").asText()).isEqualTo("to_wallet");
        assertThat(client.get("/wallets/" + wallet.id(), admin).text("usdc_balance")).isEqualTo("5.00");
        assertThat(client.get("/wallets/" + wallet.id() + "/transactions", admin).json().path("data"))
                .allMatch(tx -> tx.path("type").asText().equals("funding"));
    }

    // 401 authentication_failed

    @Test
    void authenticationFailed() {
        assertError(client.call("GET", "/wallets").send(), 401, "authentication_failed");
        assertError(client.call("GET", "/wallets").header("Authorization", "Bearer " + unknownId("sk_unknown")).send(),
                401, "authentication_failed");
        assertError(client.call("GET", "/wallets").header("Authorization", "Basic Zm9vOmJhcg==").send(),
                401, "authentication_failed");
    }

    // 403 insufficient_permissions

    @Test
    void insufficientPermissionsNamesTheRequiredRole() {
        JsonNode error = assertError(client.post("/wallets", org.viewerKey(),
                Map.of("agent_id", unique("viewer"), "policy_id", openPolicy)),
                403, "insufficient_permissions");

        assertThat(error.path("required_role").asText()).isEqualTo("admin");
    }

    // 403 https_required

    @Test
    void httpsRequiredOverPlainHttp() {
        ApiResponse answer = client.call("GET", "/wallets").key(org.viewerKey()).overPlainHttp().send();

        assertError(answer, 403, "https_required");
    }

    @Test
    void httpsRequiredComesBeforeAuthentication() {
        ApiResponse answer = client.call("POST", "/policies").body(Map.of("name", "x")).overPlainHttp().send();

        assertError(answer, 403, "https_required");
    }

    // 404 not_found

    @Test
    void notFoundForAnUnknownId() {
        assertError(client.get("/wallets/wal_" + "Z".repeat(24), org.viewerKey()), 404, "not_found");
        assertError(client.get("/policies/pol_" + "Z".repeat(24), org.viewerKey()), 404, "not_found");
        assertError(client.get("/payments/tx_" + "Z".repeat(24), org.viewerKey()), 404, "not_found");
        // a malformed id names nothing either
        assertError(client.get("/wallets/not-an-id", org.viewerKey()), 404, "not_found");
    }

    @Test
    void notFoundForAnUnknownPath() {
        assertError(client.get("/nope", org.viewerKey()), 404, "not_found");
        assertError(client.post("/wallets/" + "wal_" + "Z".repeat(24) + "/nope", admin, Map.of()), 404, "not_found");
    }

    @Test
    void aWrongMethodOnAnExistingPathIsAJsonError() {
        ApiResponse answer = client.delete("/transactions", admin);

        assertThat(answer.status()).as(answer.toString()).isEqualTo(405);
        assertWellFormedError(answer);
        ApiResponse put = client.put("/policies", admin, Map.of("name", "x"));
        assertThat(put.status()).as(put.toString()).isEqualTo(405);
        assertWellFormedError(put);
    }

    // 409 idempotency_conflict

    @Test
    void idempotencyConflictForTheSameKeyWithAnotherRequest() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("10.00");
        String key = unique("errors");
        String to = randomAddress();
        ApiResponse first = fx.pay(wallet, to, "1.00", Map.of("idempotency_key", key));
        assertThat(first.status()).as(first.toString()).isEqualTo(200);

        assertError(fx.pay(wallet, to, "2.00", Map.of("idempotency_key", key)), 409, "idempotency_conflict");
        assertThat(fx.balance(wallet.id()))
                .as("only the first payment moved money").isEqualTo("9.00");
    }

    // 409 invalid_state

    @Test
    void invalidStateWhenPayingFromAFrozenWallet() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("10.00");
        ApiResponse frozen = client.patch("/wallets/" + wallet.id(), org.operatorKey(), Map.of("status", "frozen"));
        assertThat(frozen.status()).as(frozen.toString()).isEqualTo(200);

        assertError(fx.pay(wallet, randomAddress(), "1.00"), 409, "invalid_state");
        assertThat(fx.balance(wallet.id())).isEqualTo("10.00");
    }

    @Test
    void invalidStateWhenCompletingARefundedEscrow() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("10.00");
        String escrow = fx.disputedEscrow(wallet, "4.00");
        ApiResponse refunded = client.post("/payments/a2a/" + escrow + "/resolve", org.operatorKey(),
                Map.of("outcome", "refund"));
        assertThat(refunded.status()).as(refunded.toString()).isEqualTo(200);
        assertThat(refunded.text("status")).isEqualTo("refunded");

        assertError(client.post("/payments/a2a/" + escrow + "/complete", admin,
                Map.of("proof_type", "output_hash", "proof", sha256Hex("late"))), 409, "invalid_state");
        assertThat(client.get("/payments/a2a/" + escrow, org.viewerKey()).text("status")).isEqualTo("refunded");
    }

    // 409 already_exists

    @Test
    void alreadyExistsForASecondWalletOfTheSameAgent() {
        String agent = unique("errors-agent");
        ApiResponse first = client.post("/wallets", admin, Map.of("agent_id", agent, "policy_id", openPolicy));
        assertThat(first.status()).as(first.toString()).isEqualTo(200);

        assertError(client.post("/wallets", admin, Map.of("agent_id", agent, "policy_id", openPolicy)),
                409, "already_exists");
        // the same agent id in the other organisation is another wallet (another address)
        ApiResponse other = client.post("/wallets", server.otherOrg().adminKey(),
                Map.of("agent_id", agent, "policy_id", new ApiFixtures(server, server.otherOrg()).openPolicy()));
        assertThat(other.status()).as(other.toString()).isEqualTo(200);
        assertThat(other.text("solana_address")).isNotEqualTo(first.text("solana_address"));
    }

    // 422 proof_mismatch

    @Test
    void proofMismatchMovesNothing() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("10.00");
        ApiResponse locked = fx.lockEscrow(wallet, randomAddress(), "3.00",
                Map.of("expected_proof", sha256Hex("the right output")));
        assertThat(locked.status()).as(locked.toString()).isEqualTo(200);
        String escrow = locked.text("id");

        assertError(client.post("/payments/a2a/" + escrow + "/complete", admin,
                Map.of("proof_type", "output_hash", "proof", sha256Hex("another output"))),
                422, "proof_mismatch");
        assertThat(client.get("/payments/a2a/" + escrow, org.viewerKey()).text("status")).isEqualTo("locked");
    }

    // 401 session_token_invalid

    @Test
    void sessionTokenInvalidIsRecordedAsBlocked() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("10.00");
        String to = randomAddress();
        ApiResponse answer = fx.payOnBehalf(null, payment(wallet.id(), to, "1.25"));

        JsonNode error = assertSessionTokenRefused(answer);
        assertThat(error.path("violation").path("limit").asText()).isNotBlank();
        assertThat(error.path("violation").path("attempted").asText()).isNotBlank();

        JsonNode blocked = onlyBlocked(wallet.id());
        assertThat(blocked.path("amount").asText()).isEqualTo("1.25");
        assertThat(blocked.path("recipient").asText()).isEqualTo(to);
        assertThat(blocked.path("violation").path("rule").asText()).isEqualTo("session_token");
        assertThat(fx.balance(wallet.id())).isEqualTo("10.00");
    }

    @Test
    void sessionTokenOfAnotherWalletIsInvalid() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("10.00");
        ApiFixtures.Wallet other = fx.wallet(openPolicy);
        ApiResponse answer = fx.payOnBehalf(other.token(), payment(wallet.id(), randomAddress(), "1.00"));

        assertSessionTokenRefused(answer);
        onlyBlocked(wallet.id());
    }

    /** An agent's token reaches no other wallet: paying from one is a 404, and nothing is recorded on it. */
    @Test
    void anAgentPayingFromAnotherWalletFindsNoSuchWallet() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("10.00");
        ApiFixtures.Wallet other = fx.wallet(openPolicy);
        ApiResponse answer = fx.pay(other.token(), payment(wallet.id(), randomAddress(), "1.00"));

        assertError(answer, 404, "not_found");
        assertThat(fx.transactions(wallet.id(), "")).extracting(tx -> tx.path("type").asText())
                .containsOnly("funding");
        assertThat(fx.balance(wallet.id())).isEqualTo("10.00");
    }

    /** A payment with a rotated token as the agent's credential fails the first check, recorded like any other. */
    @Test
    void anAgentsRotatedTokenFailsTheFirstCheckAndIsRecordedAsBlocked() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("10.00");
        ApiResponse rotated = client.post("/wallets/" + wallet.id() + "/rotate-token", admin, Map.of());
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        ApiResponse answer = fx.pay(wallet.token(), payment(wallet.id(), randomAddress(), "1.00"));

        JsonNode error = assertSessionTokenRefused(answer);

        assertThat(error.path("violation").path("attempted").asText()).isEqualTo("revoked");
        onlyBlocked(wallet.id());
        assertThat(fx.balance(wallet.id())).isEqualTo("10.00");
    }

    // 422 policy_violation

    @Test
    void policyViolationMaxPerTx() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("50.00", Map.of("max_per_tx", "10.00"));

        JsonNode violation = assertPolicyViolation(fx.pay(wallet, randomAddress(), "10.01"));

        assertThat(violation.path("rule").asText()).isEqualTo("max_per_tx");
        assertThat(violation.path("limit").asText()).isEqualTo("10.00");
        assertThat(violation.path("attempted").asText()).isEqualTo("10.01");
        assertThat(onlyBlocked(wallet.id()).path("violation").path("rule").asText()).isEqualTo("max_per_tx");
        assertThat(fx.balance(wallet.id())).isEqualTo("50.00");
    }

    @Test
    void policyViolationAllowedRecipients() {
        String allowed = randomAddress();
        ApiFixtures.Wallet wallet = fx.fundedWallet("50.00", Map.of("allowed_recipients", List.of(allowed)));
        String stranger = randomAddress();

        JsonNode violation = assertPolicyViolation(fx.pay(wallet, stranger, "1.00"));

        assertThat(violation.path("rule").asText()).isEqualTo("allowed_recipients");
        assertThat(violation.path("limit").asText()).isNotBlank();
        assertThat(violation.path("attempted").asText()).isEqualTo(stranger);
        assertThat(fx.pay(wallet, allowed, "1.00").status()).as("the allowed one").isEqualTo(200);
    }

    @Test
    void policyViolationMaxPerDayAttemptsTheWindowTotal() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("50.00", Map.of("max_per_day", "10.00"));
        ApiResponse first = fx.pay(wallet, randomAddress(), "6.00");
        assertThat(first.status()).as(first.toString()).isEqualTo(200);

        JsonNode violation = assertPolicyViolation(fx.pay(wallet, randomAddress(), "4.50"));

        assertThat(violation.path("rule").asText()).isEqualTo("max_per_day");
        assertThat(violation.path("limit").asText()).isEqualTo("10.00");
        assertThat(violation.path("attempted").asText()).as("6.00 already spent plus this 4.50").isEqualTo("10.50");
        // a blocked attempt does not count toward the window: 4.00 still fits exactly
        assertThat(fx.pay(wallet, randomAddress(), "4.00").status()).isEqualTo(200);
    }

    @Test
    void policyViolationVelocityCapAttemptsTheCount() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("50.00", Map.of("velocity_cap", 2));
        for (int i = 0; i < 2; i++) {
            ApiResponse paid = fx.pay(wallet, randomAddress(), "1.00");
            assertThat(paid.status()).as(paid.toString()).isEqualTo(200);
        }

        JsonNode violation = assertPolicyViolation(fx.pay(wallet, randomAddress(), "1.00"));

        assertThat(violation.path("rule").asText()).isEqualTo("velocity_cap");
        assertThat(violation.path("limit").asText()).isEqualTo("2");
        assertThat(violation.path("attempted").asText()).as("the third in the hour").isEqualTo("3");
    }

    // 422 insufficient_funds

    @Test
    void insufficientFundsInTheWallet() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("2.00");

        assertError(fx.pay(wallet, randomAddress(), "2.01"), 422, "insufficient_funds");
        assertThat(fx.balance(wallet.id())).isEqualTo("2.00");
    }

    @Test
    void insufficientFundsInTheOrganisation() {
        ApiFixtures.Wallet wallet = fx.wallet(openPolicy);

        assertError(client.post("/wallets/" + wallet.id() + "/fund", admin,
                Map.of("amount", "1000000000.00", "currency", "USDC")), 422, "insufficient_funds");
        assertError(client.post("/wallets/fund-batch", admin,
                List.of(Map.of("wallet_id", wallet.id(), "amount", "1000000000.00"))), 422, "insufficient_funds");
        assertThat(fx.balance(wallet.id())).isEqualTo("0.00");
    }

    @Test
    void insufficientFundsWhenWithdrawingMoreThanTheWalletHolds() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("1.00");

        assertError(client.post("/wallets/" + wallet.id() + "/withdraw", admin,
                Map.of("amount", "1.01", "currency", "USDC")), 422, "insufficient_funds");
        assertThat(fx.balance(wallet.id())).isEqualTo("1.00");
    }

    /** The wallet's one blocked transaction. */
    private JsonNode onlyBlocked(String walletId) {
        List<JsonNode> history = fx.transactions(walletId, "status=blocked");
        assertThat(history).as(history.toString()).hasSize(1);
        JsonNode blocked = history.get(0);
        assertThat(blocked.path("status").asText()).isEqualTo("blocked");
        assertThat(blocked.path("type").asText()).isEqualTo("payment");
        return blocked;
    }
}
