package com.agentwallet.core.id;

/** Identifies an agent-to-agent escrow. */
public record EscrowId(String value) implements TypedId {
    public static final String PREFIX = "escrow_";

    public EscrowId {
        TypedId.requireWellFormed(value, PREFIX);
    }

    @Override
    public String toString() {
        return value;
    }
}
