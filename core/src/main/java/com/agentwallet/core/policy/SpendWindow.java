package com.agentwallet.core.policy;

import java.time.Duration;

/** The rolling windows of the caps. A spend exactly one window length old has left the window. */
public enum SpendWindow {
    HOUR(Duration.ofMinutes(60)),
    DAY(Duration.ofHours(24)),
    MONTH(Duration.ofDays(30));

    private final Duration length;

    SpendWindow(Duration length) {
        this.length = length;
    }

    public Duration length() {
        return length;
    }
}
