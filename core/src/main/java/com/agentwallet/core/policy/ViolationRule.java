package com.agentwallet.core.policy;

import com.agentwallet.core.common.WireNamed;

/**
 * The checks of a payment, in the order they run; the first that fails names the violation.
 * {@link #REQUIRE_CO_SIGN} applies to escrow locks only, which cannot carry a co-signature: an
 * escrow at or above the co-sign threshold would otherwise be a way around it. A rule's
 * {@link #wireName()} is the spec's name of the rule, stored with a blocked transaction; which error
 * a violation answers with is for the driving adapter to say.
 */
public enum ViolationRule implements WireNamed {
    SESSION_TOKEN,
    MAX_PER_TX,
    ALLOWED_RECIPIENTS,
    BLOCKED_CATEGORY,
    MAX_PER_DAY,
    MAX_PER_MONTH,
    VELOCITY_CAP,
    POLICY_EXPIRED,
    REQUIRE_CO_SIGN
}
