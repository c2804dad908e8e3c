package com.agentwallet.core.event;

import com.agentwallet.core.id.EventId;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/** An event as stored and delivered: the domain event with its id and creation time. */
public record OutboxEvent(EventId id, DomainEvent event, Instant createdAt) {
    public OutboxEvent {
        requireNonNull(id, "id is null");
        requireNonNull(event, "event is null");
        requireNonNull(createdAt, "createdAt is null");
    }
}
