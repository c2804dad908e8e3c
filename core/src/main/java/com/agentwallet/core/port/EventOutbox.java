package com.agentwallet.core.port;

import com.agentwallet.core.alert.AlertingEvent;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.id.OrgId;

import java.time.Instant;
import java.util.List;

/**
 * Events, written in the same transaction as the change they describe; a dispatcher delivers them.
 * The adapter renders each event to the JSON body its receivers get as it appends it.
 */
public interface EventOutbox {
    void append(OutboxEvent event);

    /**
     * The organisation's events of {@link AlertingEvent#TYPES} appended at or after {@code since},
     * newest first (the later appended first among those of the same instant), at most {@code limit}
     * of them, each read back as {@link AlertingEvent#of} would read the event appended.
     */
    List<AlertingEvent> recentAlerts(OrgId orgId, Instant since, int limit);
}
