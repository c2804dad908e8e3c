package com.agentwallet.core.testing;

import com.agentwallet.core.event.DomainEvent;
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

    /** The only event of {@code type}, as the record of {@code kind} that carries it. */
    public <E extends DomainEvent> E single(EventType type, Class<E> kind) {
        return kind.cast(single(type).event());
    }

    public List<EventType> types() {
        return all().stream().map(e -> e.event().type()).toList();
    }

    /**
     * The types of the events about {@code id}: the transaction, wallet or escrow an event describes,
     * a transaction's wallet, and the transaction that moved a wallet's balance.
     */
    public List<EventType> typesAbout(TypedId id) {
        return all().stream()
                .filter(e -> isAbout(e.event(), id))
                .map(e -> e.event().type())
                .toList();
    }

    private static boolean isAbout(DomainEvent event, TypedId id) {
        if (event instanceof DomainEvent.OfTransaction about) {
            return about.tx().id().equals(id) || about.tx().walletId().equals(id);
        }
        if (event instanceof DomainEvent.WalletBalanceMoved moved && moved.tx().id().equals(id)) {
            return true;
        }
        if (event instanceof DomainEvent.OfWallet about) {
            return about.wallet().id().equals(id);
        }
        return event instanceof DomainEvent.OfEscrow about && about.escrow().id().equals(id);
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
