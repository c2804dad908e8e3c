package com.agentwallet.edge.limit;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Token buckets kept in this process: for client addresses (a flood of requests without a valid
 * key must not turn into writes to the database), and for tests. Bounded: past {@code maxBuckets}
 * it starts again empty, which can only ever let a burst through.
 */
public final class MemoryBuckets implements BucketStore {
    private final int maxBuckets;
    private final Map<String, Held> buckets = new ConcurrentHashMap<>();

    /** A bucket's micro-tokens, the time it was refilled, and what the take that left it so drew. */
    private record Held(long microTokens, long refilledAtMicros, TokenBucket.Draw lastDraw) {
    }

    public MemoryBuckets(int maxBuckets) {
        if (maxBuckets < 1) {
            throw new IllegalArgumentException("maxBuckets must be positive: " + maxBuckets);
        }
        this.maxBuckets = maxBuckets;
    }

    @Override
    public TokenBucket.Draw take(String bucket, RateLimit limit, Instant now) {
        if (buckets.size() > maxBuckets) {
            buckets.clear();
        }
        long nowMicros = TokenBucket.micros(now);
        return buckets.compute(bucket, (name, held) -> {
            long refilled = held == null ? TokenBucket.capacity(limit)
                    : TokenBucket.refilled(limit, held.microTokens(), held.refilledAtMicros(), nowMicros);
            return new Held(refilled - TokenBucket.taken(refilled, 1) * TokenBucket.ONE,
                    held == null ? nowMicros : Math.max(held.refilledAtMicros(), nowMicros),
                    TokenBucket.draws(limit, refilled, 1).get(0));
        }).lastDraw();
    }
}
