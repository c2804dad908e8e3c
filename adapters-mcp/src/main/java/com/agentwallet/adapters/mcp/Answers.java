package com.agentwallet.adapters.mcp;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.core.policy.ViolationRule;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * How tool results look to a model: a sentence or two it can act on, and the same facts as
 * structured content with snake_case keys and amounts as decimal strings beside their currency. A
 * refusal is a result with {@code isError} set, carrying the code /v1 would answer, never a
 * protocol error, so the model reads why.
 */
final class Answers {
    /** The rules whose limit and attempt are amounts of USDC; the others count payments or name things. */
    private static final Set<ViolationRule> AMOUNT_RULES =
            EnumSet.of(ViolationRule.MAX_PER_TX, ViolationRule.MAX_PER_DAY, ViolationRule.MAX_PER_MONTH);

    private Answers() {
    }

    static CallToolResult ok(String text, Map<String, Object> structured) {
        return CallToolResult.builder().addTextContent(text).structuredContent(structured).isError(false).build();
    }

    static CallToolResult error(String code, String text, Map<String, Object> detail) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("message", text);
        error.putAll(detail);
        return CallToolResult.builder().addTextContent(text).structuredContent(Map.of("error", error)).isError(true)
                .build();
    }

    static CallToolResult invalid(ValidationException e) {
        return error("validation_error", e.getMessage(), Map.of("param", e.param()));
    }

    static CallToolResult refused(Rejection rejection) {
        return rejection.match(REFUSALS);
    }

    /** "12.50 USDC". */
    static String usdc(Usdc amount) {
        return amount + " " + Usdc.CURRENCY;
    }

    /** A blocked payment in words: the rule, its limit and what this payment would have made of it. */
    static String blocked(Violation violation) {
        String unit = AMOUNT_RULES.contains(violation.rule()) ? " " + Usdc.CURRENCY : "";
        return "Blocked by the policy rule " + violation.rule().wireName() + " (limit " + violation.limit() + unit
                + ", this payment would make it " + violation.attempted() + unit + "): " + violation.describe() + ".";
    }

    static Map<String, Object> violation(Violation violation) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("rule", violation.rule().wireName());
        json.put("limit", violation.limit());
        json.put("attempted", violation.attempted());
        return json;
    }

    private static final Rejection.Cases<CallToolResult> REFUSALS = new Rejection.Cases<>() {
        @Override
        public CallToolResult notFound(Rejection.NotFound rejection) {
            return error("not_found", rejection.message() + " (among your wallet's own)", Map.of());
        }

        @Override
        public CallToolResult invalidState(Rejection.InvalidState rejection) {
            return error("invalid_state", rejection.message(), Map.of());
        }

        @Override
        public CallToolResult alreadyExists(Rejection.AlreadyExists rejection) {
            return error("already_exists", rejection.message(), Map.of());
        }

        @Override
        public CallToolResult idempotencyConflict(Rejection.IdempotencyConflict rejection) {
            return error("idempotency_conflict", rejection.message()
                    + ": use a new key for a new payment, and the same key only to retry the very same one", Map.of());
        }

        @Override
        public CallToolResult policyViolated(Rejection.PolicyViolated rejection) {
            boolean session = rejection.violation().rule() == ViolationRule.SESSION_TOKEN;
            return error(session ? "session_token_invalid" : "policy_violation",
                    blocked(rejection.violation()) + " The attempt is recorded as blocked; retrying it cannot succeed.",
                    Map.of("violation", violation(rejection.violation())));
        }

        @Override
        public CallToolResult insufficientFunds(Rejection.InsufficientFunds rejection) {
            return error("insufficient_funds", rejection.message(), Map.of());
        }

        @Override
        public CallToolResult proofMismatch(Rejection.ProofMismatch rejection) {
            return error("proof_mismatch", rejection.message(), Map.of());
        }

        @Override
        public CallToolResult sameCredential(Rejection.SameCredential rejection) {
            return error("same_credential", rejection.message(), Map.of());
        }

        @Override
        public CallToolResult forbidden(Rejection.Forbidden rejection) {
            return error("insufficient_permissions", rejection.message(),
                    Map.of("required_role", rejection.required().wireName()));
        }

        @Override
        public CallToolResult invalidInput(Rejection.InvalidInput rejection) {
            return error("validation_error", rejection.message(), Map.of("param", rejection.param()));
        }

        @Override
        public CallToolResult signInRefused(Rejection.SignInRefused rejection) {
            return error("authentication_failed", rejection.message(), Map.of());
        }

        @Override
        public CallToolResult accountLocked(Rejection.AccountLocked rejection) {
            return error("rate_limit_exceeded", rejection.message(), Map.of());
        }
    };
}
