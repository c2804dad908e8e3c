package com.agentwallet.core.common;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** Which page of a list to read: at most {@code limit} items after {@code cursor}. */
public record PageRequest(int limit, Optional<String> cursor) {
    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;

    public PageRequest {
        requireNonNull(cursor, "cursor is null");
        ValidationException.check(limit >= 1 && limit <= MAX_LIMIT, "limit",
                "'limit' must be between 1 and " + MAX_LIMIT);
    }

    public static PageRequest first(int limit) {
        return new PageRequest(limit, Optional.empty());
    }

    public static PageRequest firstDefault() {
        return first(DEFAULT_LIMIT);
    }
}
