package com.agentwallet.core.escrow;

import com.agentwallet.core.common.ValidationException;

import java.util.regex.Pattern;

/** Completion proofs and dispute evidence: a lowercase hex SHA-256 ({@code proof_type} {@code output_hash}). */
public final class Proof {
    public static final String OUTPUT_HASH = "output_hash";
    private static final Pattern SHA256_HEX = Pattern.compile("^[0-9a-f]{64}$");

    private Proof() {
    }

    public static String requireHash(String value, String param) {
        ValidationException.check(value != null && SHA256_HEX.matcher(value).matches(), param,
                "'" + param + "' must be a 64-character lowercase hex SHA-256");
        return value;
    }

    public static void requireType(String proofType) {
        ValidationException.check(OUTPUT_HASH.equals(proofType), "proof_type", "'proof_type' must be output_hash");
    }
}
