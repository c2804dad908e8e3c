package com.agentwallet.core.id;

/** Identifies a transaction: a payment or any other movement of money. */
public record TxId(String value) implements TypedId {
    public static final String PREFIX = "tx_";

    public TxId {
        TypedId.requireWellFormed(value, PREFIX);
    }

    @Override
    public String toString() {
        return value;
    }
}
