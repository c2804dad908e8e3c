package com.agentwallet.core.policy;

import static java.util.Objects.requireNonNull;

/**
 * A failed check: the rule, its bound ({@code limit}) and what the payment would have made of it
 * ({@code attempted}): the amount for {@code max_per_tx}, the window total including this payment
 * for day and month caps, the count including this payment for {@code velocity_cap}.
 */
public record Violation(ViolationRule rule, String limit, String attempted) {
    public Violation {
        requireNonNull(rule, "rule is null");
        requireNonNull(limit, "limit is null");
        requireNonNull(attempted, "attempted is null");
    }

    public String describe() {
        return switch (rule) {
            case SESSION_TOKEN -> "A valid session token scoped to wallet " + limit + " is required (" + attempted + ")";
            case MAX_PER_TX -> "Amount " + attempted + " exceeds max_per_tx " + limit;
            case ALLOWED_RECIPIENTS -> "Recipient " + attempted + " is not in the policy's allowed_recipients";
            case BLOCKED_CATEGORY -> "Recipient " + attempted + " is in blocked category '" + limit + "'";
            case MAX_PER_DAY -> "Rolling 24 h total " + attempted + " would exceed max_per_day " + limit;
            case MAX_PER_MONTH -> "Rolling 30 day total " + attempted + " would exceed max_per_month " + limit;
            case VELOCITY_CAP -> "Transaction " + attempted + " in the last 60 minutes would exceed velocity_cap " + limit;
            case POLICY_EXPIRED -> "The policy expired at " + limit;
            case REQUIRE_CO_SIGN -> "Escrow amount " + attempted + " is at or above the co-sign threshold " + limit
                    + "; send it as a co-signed payment";
        };
    }
}
