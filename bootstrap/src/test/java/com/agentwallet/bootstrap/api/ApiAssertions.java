package com.agentwallet.bootstrap.api;

import com.agentwallet.core.crypto.Base58;
import com.agentwallet.edge.error.ErrorDocs;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks of the contract's wire format shared by the end-to-end tests: the error body of every
 * refusal, and the shape of each kind of resource (snake_case keys, {@code object}, amounts as
 * strings, timestamps with millis and Z, prefixed ids).
 */
final class ApiAssertions {
    private static final Pattern AMOUNT = Pattern.compile("^[0-9]+\\.[0-9]{2,6}$");
    private static final Pattern TIMESTAMP = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$");
    private static final Pattern SNAKE_CASE = Pattern.compile("^[a-z][a-z0-9_]*$");

    private ApiAssertions() {
    }

    // ---------------------------------------------------------------- errors

    /**
     * The contract's error answer: that status and code, a message, the docs link of the code, the request id of the
     * {@code Request-Id} header, the rate-limit headers, and no trace of a stack in the body. Answers
     * the {@code error} object.
     */
    static JsonNode assertError(ApiResponse answer, int status, String code) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
        JsonNode error = answer.json().path("error");
        assertThat(error.isObject()).as("a JSON error body: " + answer).isTrue();
        assertThat(error.path("code").asText()).as(answer.toString()).isEqualTo(code);
        assertWellFormedError(answer);
        return error;
    }

    /** Everything of {@link #assertError} but the status and code. */
    static void assertWellFormedError(ApiResponse answer) {
        JsonNode error = answer.json().path("error");
        assertThat(error.isObject()).as("a JSON error body: " + answer).isTrue();
        assertThat(error.path("code").asText()).as(answer.toString()).isNotBlank();
        assertThat(error.path("message").asText()).as(answer.toString()).isNotBlank();
        assertThat(error.path("docs").asText()).as("the server's own page of the code: " + answer)
                .isEqualTo(ErrorDocs.SERVED.link(error.path("code").asText()));
        assertThat(answer.header("Request-Id")).as("Request-Id of " + answer).isPresent();
        assertThat(error.path("request_id").asText()).as(answer.toString()).startsWith("req_")
                .isEqualTo(answer.header("Request-Id").orElseThrow());
        assertThat(answer.header("X-RateLimit-Limit")).as("X-RateLimit-Limit of " + answer).isPresent();
        assertThat(answer.header("X-RateLimit-Remaining")).as("X-RateLimit-Remaining of " + answer).isPresent();
        assertThat(answer.header("X-RateLimit-Reset")).as("X-RateLimit-Reset of " + answer).isPresent();
        assertThat(answer.header("Content-Type")).as(answer.toString())
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(answer.raw()).as("no stack trace").doesNotContain("at com.").doesNotContain("Exception")
                .doesNotContain("at org.").doesNotContain("at java.");
    }

    /** A 400 validation_error naming {@code param}, with the contract's error body. */
    static void assertInvalid(ApiResponse answer, String param) {
        JsonNode error = assertError(answer, 400, "validation_error");
        assertThat(error.path("param").asText()).as(answer.toString()).isEqualTo(param);
    }

    /** A 401 session_token_invalid whose violation is the {@code session_token} rule; answers the error. */
    static JsonNode assertSessionTokenRefused(ApiResponse answer) {
        JsonNode error = assertError(answer, 401, "session_token_invalid");
        assertThat(error.path("violation").path("rule").asText()).as(answer.toString()).isEqualTo("session_token");
        return error;
    }

    /** A 422 policy_violation; answers its violation. */
    static JsonNode assertPolicyViolation(ApiResponse answer) {
        JsonNode error = assertError(answer, 422, "policy_violation");
        assertThat(error.path("violation").isObject()).as(answer.toString()).isTrue();
        return error.path("violation");
    }

    // ---------------------------------------------------------------- shapes

    static void assertId(JsonNode value, String prefix) {
        assertThat(value.isTextual()).as("%s is a string", value).isTrue();
        assertThat(value.asText()).matches(Pattern.quote(prefix) + "[0-9A-Za-z]{24}");
    }

    static void assertAmount(JsonNode value, String expected) {
        assertAmountShape(value);
        assertThat(value.asText()).isEqualTo(expected);
    }

    static void assertAmountShape(JsonNode value) {
        assertThat(value.isTextual()).as("amount %s is a JSON string", value).isTrue();
        assertThat(value.asText()).matches(AMOUNT);
    }

    static void assertTimestamp(JsonNode value) {
        assertThat(value.isTextual()).as("timestamp %s is a string", value).isTrue();
        assertThat(value.asText()).matches(TIMESTAMP);
    }

    /** Every key of the body, at every depth, is snake_case (the map of a policy diff has field names as keys). */
    static void assertSnakeCaseKeys(JsonNode node) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                assertThat(field.getKey()).as("key of %s", node).matches(SNAKE_CASE);
                assertSnakeCaseKeys(field.getValue());
            }
        } else if (node.isArray()) {
            node.forEach(ApiAssertions::assertSnakeCaseKeys);
        }
    }

    static void assertList(JsonNode list) {
        assertThat(list.path("object").asText()).isEqualTo("list");
        assertThat(list.path("data").isArray()).as("data of %s", list).isTrue();
        assertThat(list.path("has_more").isBoolean()).as("has_more of %s", list).isTrue();
        assertThat(list.has("next_cursor")).as("next_cursor of %s", list).isTrue();
        if (!list.path("has_more").asBoolean()) {
            assertThat(list.path("next_cursor").isNull()).as("next_cursor of a last page").isTrue();
        }
        assertSnakeCaseKeys(list);
    }

    static void assertWallet(JsonNode wallet) {
        assertThat(wallet.path("object").asText()).isEqualTo("wallet");
        assertId(wallet.path("id"), "wal_");
        assertId(wallet.path("policy_id"), "pol_");
        assertThat(wallet.path("owner_org").asText()).startsWith("org_");
        assertThat(wallet.path("status").asText()).isIn("active", "frozen", "archived");
        assertThat(Base58.decode(wallet.path("solana_address").asText(), 32)).as("solana_address").isPresent();
        assertAmountShape(wallet.path("usdc_balance"));
        assertThat(wallet.path("currency").asText()).isEqualTo("USDC");
        assertThat(wallet.path("tags").isArray()).isTrue();
        assertTimestamp(wallet.path("created_at"));
        assertTimestamp(wallet.path("updated_at"));
        assertSnakeCaseKeys(wallet);
    }

    static void assertPolicy(JsonNode policy) {
        assertThat(policy.path("object").asText()).isEqualTo("policy");
        assertId(policy.path("id"), "pol_");
        assertThat(policy.path("name").isTextual()).isTrue();
        assertThat(policy.path("allowed_recipients").isArray()).isTrue();
        assertThat(policy.path("blocked_categories").isArray()).isTrue();
        for (String amount : List.of("max_per_tx", "max_per_day", "max_per_month", "require_co_sign")) {
            assertThat(policy.has(amount)).as("policy has %s", amount).isTrue();
            if (!policy.path(amount).isNull()) {
                assertAmountShape(policy.path(amount));
            }
        }
        assertTimestamp(policy.path("created_at"));
        assertTimestamp(policy.path("updated_at"));
        assertSnakeCaseKeys(policy);
    }

    static void assertTransaction(JsonNode tx) {
        assertThat(tx.path("object").asText()).isEqualTo("transaction");
        assertId(tx.path("tx_id"), "tx_");
        assertId(tx.path("wallet_id"), "wal_");
        assertThat(tx.path("type").asText())
                .isIn("payment", "funding", "withdrawal", "escrow_lock", "escrow_release", "escrow_refund");
        assertAmountShape(tx.path("amount"));
        assertThat(tx.path("currency").asText()).isEqualTo("USDC");
        assertThat(tx.path("policy_triggered").isBoolean()).isTrue();
        assertTimestamp(tx.path("timestamp"));
        assertSnakeCaseKeys(tx);
    }

    static void assertEscrow(JsonNode escrow) {
        assertThat(escrow.path("object").asText()).isEqualTo("escrow");
        assertId(escrow.path("id"), "escrow_");
        assertId(escrow.path("from_wallet"), "wal_");
        assertAmountShape(escrow.path("amount"));
        assertThat(escrow.path("currency").asText()).isEqualTo("USDC");
        assertThat(escrow.path("status").asText()).isIn("locked", "released", "refunded", "disputed");
        assertTimestamp(escrow.path("created_at"));
        assertTimestamp(escrow.path("timeout_at"));
        assertSnakeCaseKeys(escrow);
    }

    static void assertWebhook(JsonNode webhook) {
        assertThat(webhook.path("object").asText()).isEqualTo("webhook");
        assertId(webhook.path("webhook_id"), "wh_");
        assertThat(webhook.path("url").asText()).startsWith("https://");
        assertThat(webhook.path("events").isArray()).isTrue();
        assertTimestamp(webhook.path("created_at"));
        assertSnakeCaseKeys(webhook);
    }
}
