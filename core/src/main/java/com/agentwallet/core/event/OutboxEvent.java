package com.agentwallet.core.event;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.id.EventId;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/** An event as stored and delivered: the domain event with its id and creation time. */
public record OutboxEvent(EventId id, DomainEvent event, Instant createdAt) {
    public OutboxEvent {
        requireNonNull(id, "id is null");
        requireNonNull(event, "event is null");
        requireNonNull(createdAt, "createdAt is null");
    }

    /** The delivered body: {@code event}, {@code id}, {@code created_at}, then the payload fields. */
    public Map<String, Object> body() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("event", event.type().wireName());
        body.put("id", id.value());
        body.put("created_at", Timestamps.format(createdAt));
        body.putAll(event.payload());
        return body;
    }
}
