package com.agentwallet.core.testing;

import com.agentwallet.core.event.EventType;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.id.TypedId;

import java.util.List;

/** Reading the events a test caused from the in-memory outbox. */
public final class Outbox {
    private final CoreFixture core;

    public Outbox(CoreFixture core) {
        this.core = core;
    }

    public List<OutboxEvent> all() {
        return core.storage.outbox();
    }

    public List<OutboxEvent> ofType(EventType type) {
        return all().stream().filter(e -> e.event().type() == type).toList();
    }

    /** The only event of {@code type}; fails when there is none or more than one. */
    public OutboxEvent single(EventType type) {
        List<OutboxEvent> found = ofType(type);
        if (found.size() != 1) {
            throw new AssertionError("expected one " + type.wireName() + " event but found " + found.size()
                    + " in " + types());
        }
        return found.get(0);
    }

    public List<EventType> types() {
        return all().stream().map(e -> e.event().type()).toList();
    }

    /** The types of the events whose payload names {@code id} under {@code field} (tx_id, wallet_id, escrow_id...). */
    public List<EventType> typesAbout(String field, TypedId id) {
        return all().stream()
                .filter(e -> id.value().equals(e.event().payload().get(field)))
                .map(e -> e.event().type())
                .toList();
    }

    /** How many events are in the outbox: take a mark, act, then read {@link #since(int)}. */
    public int mark() {
        return all().size();
    }

    public List<OutboxEvent> since(int mark) {
        List<OutboxEvent> events = all();
        return events.subList(mark, events.size());
    }
}
