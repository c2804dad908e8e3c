package com.agentwallet.core.webhook;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.event.EventType;

import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** The events a webhook receives: named ones, or all ({@code *}). {@code ping} always goes through. */
public record Subscription(boolean all, Set<EventType> events) {
    public static final String ALL = "*";

    public Subscription {
        events = events.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(events));
        ValidationException.check(all || !events.isEmpty(), "events", "'events' must name at least one event, or \"*\"");
    }

    /** Parses wire names; {@code "*"} anywhere subscribes to all, an unknown name is a validation error. */
    public static Subscription parse(Collection<String> names) {
        ValidationException.check(names != null && !names.isEmpty(), "events",
                "'events' must name at least one event, or \"*\"");
        if (names.contains(ALL)) {
            return new Subscription(true, Set.of());
        }
        Set<EventType> types = EnumSet.noneOf(EventType.class);
        for (String name : names) {
            types.add(EventType.fromWire(name).orElseThrow(
                    () -> new ValidationException("events", "Unknown event '" + name + "'")));
        }
        return new Subscription(false, types);
    }

    public boolean includes(EventType type) {
        return all || type == EventType.PING || events.contains(type);
    }

    public List<String> wireNames() {
        return all ? List.of(ALL) : events.stream().sorted().map(EventType::wireName).toList();
    }
}
