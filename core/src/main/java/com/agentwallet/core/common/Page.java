package com.agentwallet.core.common;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** One page of a list, newest first, with the opaque cursor of the next page when there is one. */
public record Page<T>(List<T> data, boolean hasMore, Optional<String> nextCursor) {
    public Page {
        data = List.copyOf(data);
        requireNonNull(nextCursor, "nextCursor is null");
        if (hasMore != nextCursor.isPresent()) {
            throw new IllegalArgumentException("a next cursor exists exactly when there are more items");
        }
    }
}
