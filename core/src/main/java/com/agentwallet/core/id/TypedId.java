package com.agentwallet.core.id;

import java.util.regex.Pattern;

/**
 * An opaque identifier with a type prefix ({@code wal_}, {@code tx_}, ...) followed by 24 base62
 * characters. Typed so that a wallet id can never be passed where a policy id is meant.
 */
public interface TypedId {
    int RANDOM_LENGTH = 24;
    Pattern RANDOM_PART = Pattern.compile("[0-9A-Za-z]{" + RANDOM_LENGTH + "}");

    String value();

    /** Whether {@code value} is a well-formed id with {@code prefix}. */
    static boolean isWellFormed(String value, String prefix) {
        return value != null && value.startsWith(prefix)
                && RANDOM_PART.matcher(value.substring(prefix.length())).matches();
    }

    static String requireWellFormed(String value, String prefix) {
        if (!isWellFormed(value, prefix)) {
            throw new IllegalArgumentException("not a " + prefix + " id: " + value);
        }
        return value;
    }
}
