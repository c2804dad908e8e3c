package com.agentwallet.core.event;

import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.port.Stores;

import java.time.Clock;
import java.util.List;

import static java.util.Objects.requireNonNull;

/** Gives events their ids and writes them to the outbox of the open transaction. */
public final class EventPublisher {
    private final IdGenerator ids;
    private final Clock clock;

    public EventPublisher(IdGenerator ids, Clock clock) {
        this.ids = requireNonNull(ids, "ids is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public void publish(Stores stores, List<DomainEvent> events) {
        events.forEach(event -> publish(stores, event));
    }

    /** Writes one event; its id is what the event is known by in deliveries. */
    public EventId publish(Stores stores, DomainEvent event) {
        EventId id = ids.event();
        stores.outbox().append(new OutboxEvent(id, event, clock.instant()));
        return id;
    }
}
