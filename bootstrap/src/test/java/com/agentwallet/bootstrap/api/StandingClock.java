package com.agentwallet.bootstrap.api;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * A clock that reads the same instant until the test moves it: what depends on time passing (a
 * token bucket's refill) then changes only when the test says so, however slowly the machine runs.
 */
final class StandingClock extends Clock {
    private volatile Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    /** Moves the clock forward to {@code instant}; never back. */
    void jumpTo(Instant instant) {
        if (instant.isAfter(now)) {
            now = instant;
        }
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
