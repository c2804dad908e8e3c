package com.agentwallet.core.port;

import com.agentwallet.core.event.EventType;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.webhook.StoredEvent;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Events, written in the same transaction as the change they describe; a dispatcher delivers them.
 * The adapter renders each event to the JSON body its receivers get as it appends it.
 */
public interface EventOutbox {
    void append(OutboxEvent event);

    /**
     * The organisation's events of {@code types} created at or after {@code since}, newest first (the
     * later appended first among those created at the same instant), at most {@code limit} of them,
     * with the bodies they were stored with.
     */
    List<StoredEvent> recent(OrgId orgId, Set<EventType> types, Instant since, int limit);
}
