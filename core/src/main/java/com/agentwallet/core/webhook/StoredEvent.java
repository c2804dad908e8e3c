package com.agentwallet.core.webhook;

import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.OrgId;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * An event of the outbox as a delivery reads it back: the JSON body the outbox's adapter rendered when
 * it appended the event, which the core hands to the transport unread (values may be null).
 */
public record StoredEvent(EventId id, OrgId orgId, EventType type, Map<String, Object> body, Instant createdAt) {
    public StoredEvent {
        requireNonNull(id, "id is null");
        requireNonNull(orgId, "orgId is null");
        requireNonNull(type, "type is null");
        body = Collections.unmodifiableMap(new LinkedHashMap<>(body));
        requireNonNull(createdAt, "createdAt is null");
    }
}
