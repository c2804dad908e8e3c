package com.agentwallet.core.testing;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Administrative-write sequences for tests that build ledger instructions by hand: increasing across
 * the JVM, as the books' {@code AdminSequence} is across servers, so no write is stale unless a test
 * makes it so.
 */
public final class Sequences {
    private static final AtomicLong LAST = new AtomicLong();

    private Sequences() {
    }

    public static long next() {
        return LAST.incrementAndGet();
    }
}
