package com.agentwallet.core.port;

import com.agentwallet.core.event.OutboxEvent;

/**
 * Events, written in the same transaction as the change they describe; a dispatcher delivers them.
 * The adapter renders each event to the JSON body its receivers get as it appends it.
 */
public interface EventOutbox {
    void append(OutboxEvent event);
}
