package com.agentwallet.core.policy;

/**
 * The checks of a payment, in the order they run; the first that fails names the violation.
 * {@link #REQUIRE_CO_SIGN} applies to escrow locks only, which cannot carry a co-signature: an
 * escrow at or above the co-sign threshold would otherwise be a way around it.
 */
public enum ViolationRule {
    SESSION_TOKEN("session_token"),
    MAX_PER_TX("max_per_tx"),
    ALLOWED_RECIPIENTS("allowed_recipients"),
    BLOCKED_CATEGORY("blocked_category"),
    MAX_PER_DAY("max_per_day"),
    MAX_PER_MONTH("max_per_month"),
    VELOCITY_CAP("velocity_cap"),
    POLICY_EXPIRED("policy_expired"),
    REQUIRE_CO_SIGN("require_co_sign");

    private final String wireName;

    ViolationRule(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The error code of the contract: a bad session token is an authentication failure of its own. */
    public String errorCode() {
        return this == SESSION_TOKEN ? "session_token_invalid" : "policy_violation";
    }
}
