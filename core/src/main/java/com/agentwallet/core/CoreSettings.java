package com.agentwallet.core;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/** The tunable durations of the domain, with the contract's defaults. */
public record CoreSettings(Duration coSignWindow, Duration defaultSessionTtl, Duration minSessionTtl,
                           Duration maxSessionTtl) {
    public static final CoreSettings DEFAULTS =
            new CoreSettings(Duration.ofHours(72), Duration.ofHours(1), Duration.ofMinutes(5), Duration.ofDays(30));

    public CoreSettings {
        requireNonNull(coSignWindow, "coSignWindow is null");
        requireNonNull(defaultSessionTtl, "defaultSessionTtl is null");
        requireNonNull(minSessionTtl, "minSessionTtl is null");
        requireNonNull(maxSessionTtl, "maxSessionTtl is null");
        if (coSignWindow.isNegative() || coSignWindow.isZero()) {
            throw new IllegalArgumentException("coSignWindow must be positive");
        }
        if (defaultSessionTtl.compareTo(minSessionTtl) < 0 || defaultSessionTtl.compareTo(maxSessionTtl) > 0) {
            throw new IllegalArgumentException("defaultSessionTtl must lie between the minimum and maximum");
        }
    }
}
