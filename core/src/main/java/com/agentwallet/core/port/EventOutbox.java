package com.agentwallet.core.port;

import com.agentwallet.core.event.OutboxEvent;

/** Events, written in the same transaction as the change they describe; a dispatcher delivers them. */
public interface EventOutbox {
    void append(OutboxEvent event);
}
