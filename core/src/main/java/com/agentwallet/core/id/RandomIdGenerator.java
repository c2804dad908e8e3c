package com.agentwallet.core.id;

import java.util.Random;

import static java.util.Objects.requireNonNull;

/**
 * Ids from an injected source of randomness: a {@code SecureRandom} in the server, a seeded
 * {@code Random} in tests and benchmarks. 24 base62 characters carry about 143 bits. An id's bytes
 * come from the source in one call (both sources are safe to share between threads; a
 * {@code SecureRandom} locks and mixes its state once a call, not once a character), and each byte
 * below {@link #UNBIASED} makes a character, so that every character is equally likely; a byte above
 * is left out and another drawn.
 */
public final class RandomIdGenerator implements IdGenerator {
    private static final char[] BASE62 =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    /** The bytes below it are four times the alphabet: each character is the value of four of them. */
    private static final int UNBIASED = 4 * BASE62.length;
    /** Bytes drawn at once: the 24 an id needs, and some for those left out. */
    private static final int DRAW = 32;

    private final Random random;

    public RandomIdGenerator(Random random) {
        this.random = requireNonNull(random, "random is null");
    }

    @Override
    public String randomPart() {
        char[] chars = new char[TypedId.RANDOM_LENGTH];
        byte[] bytes = new byte[DRAW];
        int next = bytes.length;
        int made = 0;
        while (made < chars.length) {
            if (next == bytes.length) {
                random.nextBytes(bytes);
                next = 0;
            }
            int value = bytes[next++] & 0xFF;
            if (value < UNBIASED) {
                chars[made++] = BASE62[value % BASE62.length];
            }
        }
        return new String(chars);
    }
}
