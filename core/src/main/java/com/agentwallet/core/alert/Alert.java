package com.agentwallet.core.alert;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * One entry of the alerts feed: what happened ({@code kind}, which says what {@code subjectId} is),
 * when, and a line saying it with its amounts, wallet, rule or reason.
 */
public record Alert(AlertKind kind, Instant at, String description, String subjectId) {
    public Alert {
        requireNonNull(kind, "kind is null");
        requireNonNull(at, "at is null");
        requireNonNull(description, "description is null");
        requireNonNull(subjectId, "subjectId is null");
    }
}
