package com.agentwallet.core.webhook;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * How much of the service one organisation's webhooks may take: how many webhooks it may have, how
 * many of its deliveries may be in flight at once over every server process, and how long a claimed
 * delivery is leased to the worker attempting it before another worker may try it again.
 */
public record WebhookLimits(int perOrganisation, int inFlightPerOrganisation, Duration lease) {
    public static final WebhookLimits DEFAULTS = new WebhookLimits(16, 2, Duration.ofMinutes(1));

    public WebhookLimits {
        requireNonNull(lease, "lease is null");
        if (perOrganisation < 1 || inFlightPerOrganisation < 1) {
            throw new IllegalArgumentException("webhook limits must be at least 1");
        }
        // A lease that could run out while its receiver may still answer would send every slow delivery twice.
        if (lease.compareTo(RetrySchedule.ACKNOWLEDGE_TIMEOUT.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("the delivery lease must be at least twice the acknowledge timeout");
        }
    }
}
