package com.agentwallet.core.event;

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
        for (DomainEvent event : events) {
            stores.outbox().append(new OutboxEvent(ids.event(), event, clock.instant()));
        }
    }

    public void publish(Stores stores, DomainEvent event) {
        publish(stores, List.of(event));
    }
}
