package com.agentwallet.edge.limit;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * Token buckets per organisation (their limit by configuration, else the default) and, for
 * requests without a valid key, per client address. The address table is bounded: when it grows
 * past {@link #MAX_ADDRESSES} it starts again empty, which can only ever let a burst through. The
 * buckets refill by the injected clock, like every other rule of time, so tests move it instead of
 * waiting.
 */
public final class RateLimits {
    static final int MAX_ADDRESSES = 100_000;

    private final RateLimit defaultLimit;
    private final Map<String, RateLimit> orgLimits;
    private final Clock clock;
    private final TimeMeter time;
    private final Map<String, Bucket> orgBuckets = new ConcurrentHashMap<>();
    private final Map<String, Bucket> addressBuckets = new ConcurrentHashMap<>();

    public RateLimits(RateLimit defaultLimit, Map<String, RateLimit> orgLimits, Clock clock) {
        this.defaultLimit = requireNonNull(defaultLimit, "defaultLimit is null");
        this.orgLimits = Map.copyOf(orgLimits);
        this.clock = requireNonNull(clock, "clock is null");
        this.time = new ClockTime(clock);
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
        return take(orgBuckets.computeIfAbsent(orgId, id -> bucket(limit)), limit);
    }

    public Outcome takeForAddress(String address) {
        if (addressBuckets.size() > MAX_ADDRESSES) {
            addressBuckets.clear();
        }
        return take(addressBuckets.computeIfAbsent(address, id -> bucket(defaultLimit)), defaultLimit);
    }

    private Bucket bucket(RateLimit limit) {
        return Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(limit.burst())
                        .refillGreedy(limit.perSecond(), Duration.ofSeconds(1)).build())
                .withCustomTimePrecision(time)
                .build();
    }

    private Outcome take(Bucket bucket, RateLimit limit) {
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        long remaining = probe.getRemainingTokens();
        long nanosToFull = ceilDiv((limit.burst() - remaining) * 1_000_000_000L, limit.perSecond());
        long resetAt = ceilDiv(clock.millis() * 1_000_000L + nanosToFull, 1_000_000_000L);
        long retryAfter = probe.isConsumed() ? 0 : Math.max(1, ceilDiv(probe.getNanosToWaitForRefill(), 1_000_000_000L));
        return new Outcome(probe.isConsumed(), limit.burst(), remaining, resetAt, retryAfter);
    }

    /** The clock's time in nanoseconds since the epoch, to the clock's own precision. */
    private record ClockTime(Clock clock) implements TimeMeter {
        @Override
        public long currentTimeNanos() {
            Instant now = clock.instant();
            return now.getEpochSecond() * 1_000_000_000L + now.getNano();
        }

        @Override
        public boolean isWallClockBased() {
            return true;
        }
    }

    private static long ceilDiv(long dividend, long divisor) {
        return -Math.floorDiv(-dividend, divisor);
    }
}
