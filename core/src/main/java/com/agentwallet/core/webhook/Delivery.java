package com.agentwallet.core.webhook;

import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.WebhookId;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One event on its way to one webhook. Attempts are due at fixed offsets from {@code scheduleStart}
 * (the event's creation, or the instant a degraded webhook was re-enabled).
 */
public record Delivery(
        EventId eventId,
        WebhookId webhookId,
        DeliveryStatus status,
        int attemptsMade,
        Instant scheduleStart,
        Optional<Instant> nextAttemptAt) {

    public Delivery {
        requireNonNull(eventId, "eventId is null");
        requireNonNull(webhookId, "webhookId is null");
        requireNonNull(status, "status is null");
        requireNonNull(scheduleStart, "scheduleStart is null");
        requireNonNull(nextAttemptAt, "nextAttemptAt is null");
        if (attemptsMade < 0 || attemptsMade > RetrySchedule.MAX_ATTEMPTS) {
            throw new IllegalArgumentException("attempts out of range: " + attemptsMade);
        }
        if ((status == DeliveryStatus.SCHEDULED) != nextAttemptAt.isPresent()) {
            throw new IllegalArgumentException("a next attempt is due exactly while scheduled");
        }
    }

    /** A new delivery, first attempt due at once. */
    public static Delivery schedule(EventId eventId, WebhookId webhookId, Instant eventCreatedAt) {
        return new Delivery(eventId, webhookId, DeliveryStatus.SCHEDULED, 0, eventCreatedAt,
                Optional.of(RetrySchedule.attemptDue(eventCreatedAt, 1)));
    }
}
