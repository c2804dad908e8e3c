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
    private final Map<String, TokenBucket.State> buckets = new ConcurrentHashMap<>();

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
        return buckets.compute(bucket, (name, held) -> held == null ? TokenBucket.first(limit, nowMicros)
                : TokenBucket.take(limit, held.microTokens(), held.refilledAtMicros(), nowMicros)).draw();
    }
}
