package com.agentwallet.edge.limit;

import com.agentwallet.core.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimitsTest {
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    private final RateLimits limits = new RateLimits(new RateLimit(1, 3), Map.of("org_big", new RateLimit(100, 500)),
            Clock.fixed(NOW, ZoneOffset.UTC), new MemoryBuckets(100));

    @Test
    void theBurstIsServedThenRefusedWithARetryAfter() {
        RateLimits.Outcome first = limits.takeForOrg("org_small");
        limits.takeForOrg("org_small");
        RateLimits.Outcome third = limits.takeForOrg("org_small");
        RateLimits.Outcome fourth = limits.takeForOrg("org_small");

        assertThat(first.allowed()).isTrue();
        assertThat(first.limit()).isEqualTo(3);
        assertThat(first.remaining()).isEqualTo(2);
        assertThat(first.resetEpochSeconds()).isEqualTo(NOW.getEpochSecond() + 1);
        assertThat(third.remaining()).isZero();
        assertThat(third.resetEpochSeconds()).isEqualTo(NOW.getEpochSecond() + 3);
        assertThat(fourth.allowed()).isFalse();
        assertThat(fourth.retryAfterSeconds()).isBetween(1L, 2L);
    }

    @Test
    void theBucketsRefillAsTheInjectedClockMoves() {
        MutableClock clock = MutableClock.atTestEpoch();
        RateLimits moving = new RateLimits(new RateLimit(1, 3), Map.of(), clock, new MemoryBuckets(100));
        for (int i = 0; i < 3; i++) {
            moving.takeForOrg("org_small");
        }
        assertThat(moving.takeForOrg("org_small").allowed()).isFalse();

        clock.advance(Duration.ofMillis(999));
        assertThat(moving.takeForOrg("org_small").allowed()).as("not yet a second").isFalse();
        clock.advance(Duration.ofMillis(1));
        RateLimits.Outcome refilled = moving.takeForOrg("org_small");
        assertThat(refilled.allowed()).as("one token a second").isTrue();
        assertThat(refilled.remaining()).isZero();

        clock.advance(Duration.ofSeconds(3));
        assertThat(moving.takeForOrg("org_small").remaining()).as("full again after burst / rate").isEqualTo(2);
    }

    @Test
    void organisationsHaveTheirOwnBucketsAndConfiguredLimits() {
        for (int i = 0; i < 3; i++) {
            limits.takeForOrg("org_small");
        }

        assertThat(limits.takeForOrg("org_small").allowed()).isFalse();
        assertThat(limits.takeForOrg("org_other").allowed()).isTrue();
        assertThat(limits.takeForOrg("org_big").limit()).isEqualTo(500);
    }

    @Test
    void addressesHaveBucketsApartFromOrganisations() {
        for (int i = 0; i < 3; i++) {
            limits.takeForAddress("10.0.0.1");
        }

        assertThat(limits.takeForAddress("10.0.0.1").allowed()).isFalse();
        assertThat(limits.takeForAddress("10.0.0.2").allowed()).isTrue();
        assertThat(limits.takeForOrg("10.0.0.1").allowed()).isTrue();
    }

    @Test
    void processesDrawingFromOneStoreShareTheOrganisationsBudgetButNotTheAddresses() {
        BucketStore shared = new MemoryBuckets(100);
        MutableClock clock = MutableClock.atTestEpoch();
        RateLimits one = new RateLimits(new RateLimit(1, 3), Map.of(), clock, shared);
        RateLimits two = new RateLimits(new RateLimit(1, 3), Map.of(), clock, shared);

        one.takeForOrg("org_small");
        two.takeForOrg("org_small");
        one.takeForOrg("org_small");

        assertThat(two.takeForOrg("org_small").allowed()).as("three tokens in all, not three each").isFalse();
        assertThat(one.takeForAddress("10.0.0.1").remaining()).isEqualTo(2);
        assertThat(two.takeForAddress("10.0.0.1").remaining()).isEqualTo(2);
    }

    @Test
    void aTakeStampedBeforeTheBucketsLastRefillRefillsNothingAndTheLaterStampStays() {
        BucketStore store = new MemoryBuckets(10);
        RateLimit limit = new RateLimit(1, 3);
        for (int i = 0; i < 3; i++) {
            store.take("org_small", limit, NOW);
        }

        TokenBucket.Draw behind = store.take("org_small", limit, NOW.minusSeconds(5));
        TokenBucket.Draw almost = store.take("org_small", limit, NOW.plusMillis(999));
        TokenBucket.Draw refilled = store.take("org_small", limit, NOW.plusSeconds(1));

        assertThat(behind).isEqualTo(new TokenBucket.Draw(false, 0, 1_000_000_000L));
        assertThat(almost.taken()).as("refilled from the later stamp, not the earlier").isFalse();
        assertThat(refilled).isEqualTo(new TokenBucket.Draw(true, 0, 1_000_000_000L));
    }

    @Test
    void takesOneAfterTheOtherDrawWhatIsLeftThenFindNothing() {
        RateLimit limit = new RateLimit(2, 3);

        assertThat(TokenBucket.draws(limit, 2 * TokenBucket.ONE + 500_000, 4)).containsExactly(
                new TokenBucket.Draw(true, 1, 0),
                new TokenBucket.Draw(true, 0, 250_000_000L),
                new TokenBucket.Draw(false, 0, 250_000_000L),
                new TokenBucket.Draw(false, 0, 250_000_000L));
    }
}
