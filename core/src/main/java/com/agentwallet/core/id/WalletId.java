package com.agentwallet.core.id;

/** Identifies an agent wallet. */
public record WalletId(String value) implements TypedId {
    public static final String PREFIX = "wal_";

    public WalletId {
        TypedId.requireWellFormed(value, PREFIX);
    }

    @Override
    public String toString() {
        return value;
    }
}
