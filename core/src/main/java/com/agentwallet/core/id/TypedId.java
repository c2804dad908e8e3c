package com.agentwallet.core.id;

/**
 * An opaque identifier with a type prefix ({@code wal_}, {@code tx_}, ...) followed by 24 base62
 * characters. Typed so that a wallet id can never be passed where a policy id is meant.
 */
public interface TypedId {
    int RANDOM_LENGTH = 24;

    String value();

    /**
     * Whether {@code value} is a well-formed id with {@code prefix}: the prefix, then {@link #RANDOM_LENGTH}
     * base62 characters. Checked character by character, not by a regular expression: every id read
     * from a row or a request is checked.
     */
    static boolean isWellFormed(String value, String prefix) {
        if (value == null || value.length() != prefix.length() + RANDOM_LENGTH || !value.startsWith(prefix)) {
            return false;
        }
        for (int i = prefix.length(); i < value.length(); i++) {
            char c = value.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z')) {
                return false;
            }
        }
        return true;
    }

    static String requireWellFormed(String value, String prefix) {
        if (!isWellFormed(value, prefix)) {
            throw new IllegalArgumentException("not a " + prefix + " id: " + value);
        }
        return value;
    }
}
