package com.agentwallet.core.id;

import java.util.Random;

import static java.util.Objects.requireNonNull;

/**
 * Ids from an injected source of randomness: a {@code SecureRandom} in the server, a seeded
 * {@code Random} in tests and benchmarks. 24 base62 characters carry about 143 bits.
 */
public final class RandomIdGenerator implements IdGenerator {
    private static final char[] BASE62 =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

    private final Random random;

    public RandomIdGenerator(Random random) {
        this.random = requireNonNull(random, "random is null");
    }

    @Override
    public String randomPart() {
        char[] chars = new char[TypedId.RANDOM_LENGTH];
        synchronized (random) {
            for (int i = 0; i < chars.length; i++) {
                chars[i] = BASE62[random.nextInt(BASE62.length)];
            }
        }
        return new String(chars);
    }
}
