package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;

/**
 * USDC amounts. The client takes and gives them as {@link BigDecimal}, never {@code double}: the API
 * counts exact micro-USDC and refuses a 7th decimal.
 */
public final class Amounts {
    private Amounts() {
    }

    /** The amount field {@code name} of an answer (e.g. {@code usdc_balance}), or null when it is null. */
    public static BigDecimal of(JsonNode resource, String name) {
        JsonNode value = resource.path(name);
        return value.isTextual() ? new BigDecimal(value.asText()) : null;
    }

    static String wire(Object value) {
        return value instanceof BigDecimal amount ? amount.toPlainString() : String.valueOf(value);
    }
}
