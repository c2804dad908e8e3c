package com.agentwallet.core.id;

/** Identifies a transaction export job. */
public record ExportId(String value) implements TypedId {
    public static final String PREFIX = "exp_";

    public ExportId {
        TypedId.requireWellFormed(value, PREFIX);
    }

    @Override
    public String toString() {
        return value;
    }
}
