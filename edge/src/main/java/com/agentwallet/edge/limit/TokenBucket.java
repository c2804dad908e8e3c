package com.agentwallet.edge.limit;

import java.time.Instant;

/**
 * The token-bucket arithmetic every {@link BucketStore} applies, in exact integers: a bucket holds
 * micro-tokens and was last refilled at a time in microseconds since the epoch; it refills by
 * {@code perSecond} micro-tokens a microsecond up to {@code burst} tokens, and a take removes one
 * whole token when there is one. A bucket never seen before is full. Time never runs backwards for
 * a bucket: a take stamped earlier than its last refill (another process's clock a little behind)
 * refills nothing and leaves the stamp as it was.
 */
public final class TokenBucket {
    /** Micro-tokens in one token. */
    public static final long ONE = 1_000_000L;

    private TokenBucket() {
    }

    /** The outcome of one take: whether the token was there, whole tokens left, and how long until the next one. */
    public record Draw(boolean taken, long remaining, long nanosToNextToken) {
    }

    /** A bucket's state after a take: micro-tokens held and when it was refilled, and the take's outcome. */
    public record State(long microTokens, long refilledAtMicros, Draw draw) {
    }

    /** A full bucket of this shape, in micro-tokens. */
    public static long capacity(RateLimit limit) {
        return Math.multiplyExact(limit.burst(), ONE);
    }

    /** Microseconds after which an empty bucket of this shape is full: no longer gap refills more. */
    public static long fullAfterMicros(RateLimit limit) {
        return ceilDiv(capacity(limit), limit.perSecond());
    }

    /** The instant in microseconds since the epoch. */
    public static long micros(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
    }

    /** Takes one token from a bucket holding {@code microTokens} refilled at {@code refilledAtMicros}. */
    public static State take(RateLimit limit, long microTokens, long refilledAtMicros, long nowMicros) {
        long elapsed = Math.min(Math.max(nowMicros - refilledAtMicros, 0), fullAfterMicros(limit));
        long refilled = Math.min(capacity(limit), microTokens + elapsed * limit.perSecond());
        boolean taken = refilled >= ONE;
        long left = taken ? refilled - ONE : refilled;
        return new State(left, Math.max(refilledAtMicros, nowMicros), draw(limit, taken, left));
    }

    /** The first take from a bucket never seen before. */
    public static State first(RateLimit limit, long nowMicros) {
        return take(limit, capacity(limit), nowMicros, nowMicros);
    }

    /** What a take that left {@code leftMicroTokens} tells its caller. */
    public static Draw draw(RateLimit limit, boolean taken, long leftMicroTokens) {
        long wait = leftMicroTokens >= ONE ? 0 : ceilDiv(ONE - leftMicroTokens, limit.perSecond()) * 1_000L;
        return new Draw(taken, leftMicroTokens / ONE, wait);
    }

    static long ceilDiv(long dividend, long divisor) {
        return -Math.floorDiv(-dividend, divisor);
    }
}
