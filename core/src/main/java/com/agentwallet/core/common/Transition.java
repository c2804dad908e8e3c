package com.agentwallet.core.common;

import com.agentwallet.core.event.DomainEvent;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** A state machine's step: the new state and the events the step causes. */
public record Transition<S>(S state, List<DomainEvent> events) {
    public Transition {
        requireNonNull(state, "state is null");
        events = List.copyOf(events);
    }

    public static <S> Result<Transition<S>> to(S state, DomainEvent... events) {
        return Result.ok(new Transition<>(state, List.of(events)));
    }

    public static <S> Result<Transition<S>> refuse(String message) {
        return Result.refused(new Rejection.InvalidState(message));
    }
}
