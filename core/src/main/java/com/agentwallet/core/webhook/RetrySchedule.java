package com.agentwallet.core.webhook;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** When delivery attempts are due: at 0, 1 min, 5 min, 30 min and 2 h after the schedule starts. */
public final class RetrySchedule {
    public static final List<Duration> OFFSETS = List.of(Duration.ZERO, Duration.ofMinutes(1), Duration.ofMinutes(5),
            Duration.ofMinutes(30), Duration.ofHours(2));
    public static final int MAX_ATTEMPTS = OFFSETS.size();
    /** A receiver must answer 2xx within this time, or the attempt failed. */
    public static final Duration ACKNOWLEDGE_TIMEOUT = Duration.ofSeconds(5);

    private RetrySchedule() {
    }

    /** When attempt {@code attempt} (1-based) is due. */
    public static Instant attemptDue(Instant scheduleStart, int attempt) {
        if (attempt < 1 || attempt > MAX_ATTEMPTS) {
            throw new IllegalArgumentException("attempt out of range: " + attempt);
        }
        return scheduleStart.plus(OFFSETS.get(attempt - 1));
    }
}
