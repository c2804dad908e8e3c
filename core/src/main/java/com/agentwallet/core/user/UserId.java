package com.agentwallet.core.user;

import com.agentwallet.core.id.TypedId;

/** Identifies a dashboard user. */
public record UserId(String value) implements TypedId {
    public static final String PREFIX = "usr_";

    public UserId {
        TypedId.requireWellFormed(value, PREFIX);
    }

    @Override
    public String toString() {
        return value;
    }
}
