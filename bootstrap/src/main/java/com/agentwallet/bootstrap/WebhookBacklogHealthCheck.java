package com.agentwallet.bootstrap;

import com.agentwallet.adapters.persistence.PostgresWebhookBacklog;
import com.codahale.metrics.health.HealthCheck;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * The webhook backlog, over every server on the database: healthy while at most {@code maxDue}
 * deliveries are due and undelivered and the oldest has been due for no longer than {@code maxOldest}. One query on the due index, counting at most {@code maxDue + 1} rows.
 */
final class WebhookBacklogHealthCheck extends HealthCheck {
    private final PostgresWebhookBacklog backlog;
    private final Clock clock;
    private final int maxDue;
    private final Duration maxOldest;

    WebhookBacklogHealthCheck(PostgresWebhookBacklog backlog, Clock clock, int maxDue, Duration maxOldest) {
        this.backlog = requireNonNull(backlog, "backlog is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.maxDue = maxDue;
        this.maxOldest = requireNonNull(maxOldest, "maxOldest is null");
    }

    /** A failed read is reported by its message: an exception would put its stack trace on the classic page. */
    @Override
    protected Result check() {
        Instant now = clock.instant();
        PostgresWebhookBacklog.Due due;
        try {
            due = backlog.due(now, maxDue + 1);
        } catch (RuntimeException e) {
            return Result.unhealthy("cannot read the webhook backlog: " + e.getMessage());
        }
        Duration oldest = due.oldest().map(since -> Duration.between(since, now)).orElse(Duration.ZERO);
        if (due.count() > maxDue) {
            return Result.unhealthy("more than %d webhook deliveries are due; the oldest for %s", maxDue, oldest);
        }
        if (oldest.compareTo(maxOldest) > 0) {
            return Result.unhealthy("%d webhook deliveries are due; the oldest for %s (bound %s)", due.count(), oldest,
                    maxOldest);
        }
        return Result.healthy("%d webhook deliveries are due; the oldest for %s", due.count(), oldest);
    }
}
