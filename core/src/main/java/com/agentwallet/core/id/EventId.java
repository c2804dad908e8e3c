package com.agentwallet.core.id;

/** Identifies an event; stable across delivery retries so receivers can drop duplicates. */
public record EventId(String value) implements TypedId {
    public static final String PREFIX = "evt_";

    public EventId {
        TypedId.requireWellFormed(value, PREFIX);
    }

    @Override
    public String toString() {
        return value;
    }
}
