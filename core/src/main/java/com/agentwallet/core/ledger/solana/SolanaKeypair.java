package com.agentwallet.core.ledger.solana;

import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.crypto.Ed25519KeyPair;

import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A 64-byte Solana secret key as solana-keygen writes it ({@code [n,n,...]}) or as base58 text. */
public final class SolanaKeypair {
    public static final int SECRET_LENGTH = 64;
    private static final Pattern JSON_ARRAY = Pattern.compile("^\\s*\\[([0-9,\\s]+)]\\s*$");

    private SolanaKeypair() {
    }

    /** The key pair, or empty when the text is not a secret key whose second half is its seed's public key. */
    public static Optional<Ed25519KeyPair> parse(String text) {
        Matcher array = JSON_ARRAY.matcher(text);
        byte[] secret;
        if (array.matches()) {
            String[] numbers = array.group(1).split(",");
            secret = new byte[numbers.length];
            for (int i = 0; i < numbers.length; i++) {
                int value = Integer.parseInt(numbers[i].trim());
                if (value > 255) {
                    return Optional.empty();
                }
                secret[i] = (byte) value;
            }
        } else {
            secret = Base58.decode(text.trim()).orElse(new byte[0]);
        }
        if (secret.length != SECRET_LENGTH) {
            return Optional.empty();
        }
        Ed25519KeyPair keyPair = Ed25519KeyPair.fromSeed(Arrays.copyOf(secret, Ed25519KeyPair.SEED_LENGTH));
        return Arrays.equals(keyPair.secretKey(), secret) ? Optional.of(keyPair) : Optional.empty();
    }
}
