package com.agentwallet.core.policy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static java.util.Objects.requireNonNull;

/** One changed field of a policy, with its wire name and wire-formatted old and new values (null = unset). */
public record FieldChange(String field, Object oldValue, Object newValue) {
    public FieldChange {
        requireNonNull(field, "field is null");
    }

    /** The fields whose values differ, in the order of {@code before}; both maps have the same keys. */
    public static List<FieldChange> diff(Map<String, Object> before, Map<String, Object> after) {
        if (!before.keySet().equals(after.keySet())) {
            throw new IllegalArgumentException("diffing different shapes: " + before.keySet() + " vs " + after.keySet());
        }
        List<FieldChange> changes = new ArrayList<>();
        before.forEach((field, oldValue) -> {
            Object newValue = after.get(field);
            if (!Objects.equals(oldValue, newValue)) {
                changes.add(new FieldChange(field, oldValue, newValue));
            }
        });
        return changes;
    }

    /** The wire form of a diff: {@code {"field": {"old": ..., "new": ...}}}. */
    public static Map<String, Object> toPayload(List<FieldChange> changes) {
        Map<String, Object> payload = new LinkedHashMap<>();
        for (FieldChange change : changes) {
            Map<String, Object> values = new LinkedHashMap<>();
            values.put("old", change.oldValue());
            values.put("new", change.newValue());
            payload.put(change.field(), values);
        }
        return payload;
    }
}
