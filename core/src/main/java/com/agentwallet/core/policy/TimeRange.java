package com.agentwallet.core.policy;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/** The instants {@code t} with {@code after < t <= until}. */
public record TimeRange(Instant after, Instant until) {
    public TimeRange {
        requireNonNull(after, "after is null");
        requireNonNull(until, "until is null");
    }

    public boolean contains(Instant t) {
        return t.isAfter(after) && !t.isAfter(until);
    }

    public boolean isEmpty() {
        return !until.isAfter(after);
    }
}
