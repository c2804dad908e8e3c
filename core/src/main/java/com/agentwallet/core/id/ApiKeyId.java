package com.agentwallet.core.id;

/** Identifies an API key. */
public record ApiKeyId(String value) implements TypedId {
    public static final String PREFIX = "key_";

    public ApiKeyId {
        TypedId.requireWellFormed(value, PREFIX);
    }

    @Override
    public String toString() {
        return value;
    }
}
