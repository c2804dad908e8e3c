package com.agentwallet.edge.limit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The token-bucket arithmetic every {@link BucketStore} applies, in exact integers: a bucket holds
 * micro-tokens and was last refilled at a time in microseconds since the epoch; it refills by
 * {@code perSecond} micro-tokens a microsecond up to {@code burst} tokens, and each take removes one
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

    /** The micro-tokens a bucket holding {@code microTokens}, refilled at {@code refilledAtMicros}, holds at {@code nowMicros}. */
    public static long refilled(RateLimit limit, long microTokens, long refilledAtMicros, long nowMicros) {
        long elapsed = Math.min(Math.max(nowMicros - refilledAtMicros, 0), fullAfterMicros(limit));
        return Math.min(capacity(limit), microTokens + elapsed * limit.perSecond());
    }

    /** How many of {@code count} takes, one after the other, find a token in a bucket holding {@code refilled}. */
    public static long taken(long refilled, int count) {
        return Math.min(count, refilled / ONE);
    }

    /** The outcomes of {@code count} takes, one after the other, from a bucket holding {@code refilled}. */
    public static List<Draw> draws(RateLimit limit, long refilled, int count) {
        long taken = taken(refilled, count);
        List<Draw> draws = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            boolean found = i < taken;
            draws.add(draw(limit, found, refilled - (found ? i + 1 : taken) * ONE));
        }
        return draws;
    }

    private static Draw draw(RateLimit limit, boolean taken, long leftMicroTokens) {
        long wait = leftMicroTokens >= ONE ? 0 : ceilDiv(ONE - leftMicroTokens, limit.perSecond()) * 1_000L;
        return new Draw(taken, leftMicroTokens / ONE, wait);
    }

    static long ceilDiv(long dividend, long divisor) {
        return -Math.floorDiv(-dividend, divisor);
    }
}
