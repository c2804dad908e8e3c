package com.agentwallet.core.id;

/** Identifies an organisation. */
public record OrgId(String value) implements TypedId {
    public static final String PREFIX = "org_";

    public OrgId {
        TypedId.requireWellFormed(value, PREFIX);
    }

    @Override
    public String toString() {
        return value;
    }
}
