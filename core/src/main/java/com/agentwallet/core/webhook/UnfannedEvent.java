package com.agentwallet.core.webhook;

import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WebhookId;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * An event of the outbox as fan-out reads it: what it needs to choose the event's receivers, without
 * its body, which only a delivery reads ({@link StoredEvent}). {@code pinged} is the webhook a
 * {@code ping} tests.
 */
public record UnfannedEvent(EventId id, OrgId orgId, EventType type, Optional<WebhookId> pinged, Instant createdAt) {
    public UnfannedEvent {
        requireNonNull(id, "id is null");
        requireNonNull(orgId, "orgId is null");
        requireNonNull(type, "type is null");
        requireNonNull(pinged, "pinged is null");
        requireNonNull(createdAt, "createdAt is null");
    }

    /** Whether this event goes to the webhook: a ping only to the webhook it tests, others by subscription. */
    public boolean isFor(Webhook webhook) {
        if (type == EventType.PING) {
            return pinged.filter(webhook.id()::equals).isPresent();
        }
        return webhook.subscription().includes(type) && !webhook.createdAt().isAfter(createdAt);
    }
}
