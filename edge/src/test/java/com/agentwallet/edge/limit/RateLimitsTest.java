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
            Clock.fixed(NOW, ZoneOffset.UTC));

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
        RateLimits moving = new RateLimits(new RateLimit(1, 3), Map.of(), clock);
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
}
