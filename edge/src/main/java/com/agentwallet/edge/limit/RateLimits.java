package com.agentwallet.edge.limit;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Token buckets per organisation (their limit by configuration, else the default) and, for
 * requests without a valid key, per client address. Organisations' buckets are kept in the given
 * {@link BucketStore}: in production the database, so that every server process draws from the same
 * bucket and two servers do not double an organisation's budget. Addresses' buckets are kept in this
 * process, at most {@link #MAX_ADDRESSES} of them. The buckets refill by the injected clock, like
 * every other rule of time, so tests move it instead of waiting.
 */
public final class RateLimits {
    static final int MAX_ADDRESSES = 100_000;

    private final RateLimit defaultLimit;
    private final Map<String, RateLimit> orgLimits;
    private final Clock clock;
    private final BucketStore orgBuckets;
    private final BucketStore addressBuckets = new MemoryBuckets(MAX_ADDRESSES);

    public RateLimits(RateLimit defaultLimit, Map<String, RateLimit> orgLimits, Clock clock, BucketStore orgBuckets) {
        this.defaultLimit = requireNonNull(defaultLimit, "defaultLimit is null");
        this.orgLimits = Map.copyOf(orgLimits);
        this.clock = requireNonNull(clock, "clock is null");
        this.orgBuckets = requireNonNull(orgBuckets, "orgBuckets is null");
    }

    /** What the contract's headers say after taking one token: whether it was there, what is left, when it refills. */
    public record Outcome(boolean allowed, long limit, long remaining, long resetEpochSeconds, long retryAfterSeconds) {
        /** The rate-limit headers of every response, and {@code Retry-After} when the token was not there. */
        public Map<String, String> headers() {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("X-RateLimit-Limit", Long.toString(limit));
            headers.put("X-RateLimit-Remaining", Long.toString(remaining));
            headers.put("X-RateLimit-Reset", Long.toString(resetEpochSeconds));
            if (!allowed) {
                headers.put("Retry-After", Long.toString(retryAfterSeconds));
            }
            return headers;
        }

        /** What a caller is told when the token was not there. */
        public String refusal() {
            return "Too many requests; retry after " + retryAfterSeconds + " s, backing off exponentially with jitter";
        }
    }

    public Outcome takeForOrg(String orgId) {
        RateLimit limit = orgLimits.getOrDefault(orgId, defaultLimit);
        return outcome(orgBuckets, orgId, limit);
    }

    public Outcome takeForAddress(String address) {
        return outcome(addressBuckets, address, defaultLimit);
    }

    private Outcome outcome(BucketStore store, String bucket, RateLimit limit) {
        Instant now = clock.instant();
        TokenBucket.Draw draw = store.take(bucket, limit, now);
        long remaining = draw.remaining();
        long nanosToFull = ceilDiv((limit.burst() - remaining) * 1_000_000_000L, limit.perSecond());
        long resetAt = ceilDiv(now.getEpochSecond() * 1_000_000_000L + now.getNano() + nanosToFull, 1_000_000_000L);
        long retryAfter = draw.taken() ? 0 : Math.max(1, ceilDiv(draw.nanosToNextToken(), 1_000_000_000L));
        return new Outcome(draw.taken(), limit.burst(), remaining, resetAt, retryAfter);
    }

    private static long ceilDiv(long dividend, long divisor) {
        return -Math.floorDiv(-dividend, divisor);
    }
}
