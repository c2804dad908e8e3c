package com.agentwallet.core.id;

/** Identifies a spending policy. */
public record PolicyId(String value) implements TypedId {
    public static final String PREFIX = "pol_";

    public PolicyId {
        TypedId.requireWellFormed(value, PREFIX);
    }

    @Override
    public String toString() {
        return value;
    }
}
