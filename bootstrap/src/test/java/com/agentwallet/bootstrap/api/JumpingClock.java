package com.agentwallet.bootstrap.api;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * The system clock, to the millisecond, plus a lead the test makes jump: a running server on it
 * lives through hours of schedule in a few seconds, while its work still takes real time.
 */
final class JumpingClock extends Clock {
    private volatile Duration lead = Duration.ZERO;

    /** Moves the clock forward so that it reads at least {@code instant} from now on. */
    void jumpTo(Instant instant) {
        Duration behind = Duration.between(instant(), instant);
        if (!behind.isNegative()) {
            lead = lead.plus(behind);
        }
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(lead).truncatedTo(ChronoUnit.MILLIS);
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
