package com.agentwallet.core.common;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Base64;

import static java.util.Objects.requireNonNull;

/**
 * The position after which the next page of a newest-first list starts: the sort key (time, id) of
 * the last item of the previous page. Carried to clients as an opaque string; a page stays right
 * even when that item was deleted or no longer matches the filter meanwhile.
 */
public record Cursor(Instant at, String id) {
    public Cursor {
        requireNonNull(at, "at is null");
        requireNonNull(id, "id is null");
    }

    public String encode() {
        String key = at.getEpochSecond() + "." + at.getNano() + "." + id;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.UTF_8));
    }

    /** The cursor a client sent back; anything that is not one of ours is a validation error. */
    public static Cursor decode(String text) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8).split("\\.", 3);
            if (parts.length == 3 && !parts[2].isEmpty()) {
                return new Cursor(Instant.ofEpochSecond(Long.parseLong(parts[0]), Long.parseLong(parts[1])), parts[2]);
            }
        } catch (IllegalArgumentException | DateTimeException e) {
            throw invalid();
        }
        throw invalid();
    }

    /** Whether an item with this sort key comes after the cursor in newest-first order. */
    public boolean precedes(Instant itemAt, String itemId) {
        int order = itemAt.compareTo(at);
        return order < 0 || order == 0 && itemId.compareTo(id) < 0;
    }

    /** The error for a cursor, or a part of one, that is not one of ours. */
    public static ValidationException invalid() {
        return new ValidationException("cursor", "'cursor' is not a cursor of this list");
    }
}
