package com.agentwallet.client;

/**
 * The policy check that refused a payment. {@code limit} and {@code attempted} are the wire's strings
 * (an amount such as {@code "5.00"}, or a count for {@code velocity_cap}), kept as sent so no rounding
 * can creep in.
 */
public record Violation(String rule, String limit, String attempted) {
}
