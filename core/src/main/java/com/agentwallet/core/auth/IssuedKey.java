package com.agentwallet.core.auth;

import static java.util.Objects.requireNonNull;

/** A new key and its secret, which is shown this once and never stored. */
public record IssuedKey(ApiKey key, String secret) {
    public IssuedKey {
        requireNonNull(key, "key is null");
        requireNonNull(secret, "secret is null");
    }

    @Override
    public String toString() {
        return "IssuedKey[key=" + key + ", secret=<hidden>]";
    }
}
