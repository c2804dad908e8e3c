package com.agentwallet.core.export;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * How exports are kept and claimed: a ready file is kept for {@code retention}, then deleted; a
 * generator's claim on a job lasts {@code lease} unless renewed, which it is while the file is
 * written, so a job whose generator died is taken over within a lease.
 */
public record ExportSettings(Duration retention, Duration lease) {
    /** Jobs of one organisation written at once; more wait, so that one organisation never takes every generator. */
    public static final int RUNNING_PER_ORGANISATION = 3;
    public static final ExportSettings DEFAULTS = new ExportSettings(Duration.ofDays(7), Duration.ofMinutes(1));

    public ExportSettings {
        requireNonNull(retention, "retention is null");
        requireNonNull(lease, "lease is null");
        if (retention.isNegative() || retention.isZero() || lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("retention and lease must be positive");
        }
    }
}
