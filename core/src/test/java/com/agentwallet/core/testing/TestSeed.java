package com.agentwallet.core.testing;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The seed of a randomized test. Every build runs each randomized test on its own fixed seed, so a
 * failure in CI repeats anywhere; {@code -Dagentwallet.test.seed=N} runs them on N instead (to repeat
 * a printed run), and {@code -Dagentwallet.test.seed=random} on a fresh seed each, to explore. The
 * seed in use is printed with the property that repeats it.
 */
public final class TestSeed {
    public static final String PROPERTY = "agentwallet.test.seed";
    private static final String RANDOM = "random";

    private TestSeed() {
    }

    /** The seed {@code test} runs on: {@code fixed}, unless the property names another or asks for a random one. */
    public static long of(String test, long fixed) {
        String given = System.getProperty(PROPERTY, "").strip();
        long seed = given.isEmpty() ? fixed
                : given.equals(RANDOM) ? ThreadLocalRandom.current().nextLong() : parse(given);
        System.out.println(test + ": seed " + seed + " (repeat with -D" + PROPERTY + "=" + seed + ")");
        return seed;
    }

    private static long parse(String given) {
        try {
            return Long.parseLong(given);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PROPERTY + " is a number or \"" + RANDOM + "\", not " + given, e);
        }
    }
}
