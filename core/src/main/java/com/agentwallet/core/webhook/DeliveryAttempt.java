package com.agentwallet.core.webhook;

import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.WebhookId;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One try at delivering an event to a webhook, as {@code GET /webhooks/{id}/deliveries} shows it: no
 * status code when the receiver timed out or could not be reached, no next attempt once the event
 * was delivered or given up.
 */
public record DeliveryAttempt(
        EventId eventId,
        EventType event,
        WebhookId webhookId,
        int attempt,
        Optional<Integer> statusCode,
        Optional<String> error,
        long latencyMs,
        Instant attemptedAt,
        Optional<Instant> nextAttemptAt) {

    public DeliveryAttempt {
        requireNonNull(eventId, "eventId is null");
        requireNonNull(event, "event is null");
        requireNonNull(webhookId, "webhookId is null");
        requireNonNull(statusCode, "statusCode is null");
        requireNonNull(error, "error is null");
        requireNonNull(attemptedAt, "attemptedAt is null");
        requireNonNull(nextAttemptAt, "nextAttemptAt is null");
        if (attempt < 1 || attempt > RetrySchedule.MAX_ATTEMPTS) {
            throw new IllegalArgumentException("attempt out of range: " + attempt);
        }
        if (latencyMs < 0) {
            throw new IllegalArgumentException("negative latency: " + latencyMs);
        }
    }

    /**
     * The attempt's place among attempts made at the same instant, for the keyset of the newest-first
     * list: the event id, then the attempt number, zero-padded so that text order is number order.
     */
    public String sortKey() {
        return eventId.value() + "/" + String.format("%02d", attempt);
    }
}
