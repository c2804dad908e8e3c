package com.agentwallet.core.common;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One field of a partial update: keep the current value, or set a new one, where an empty value
 * clears an optional field. Lets PATCH tell "not sent" from "sent as null".
 */
public sealed interface FieldUpdate<T> {

    record Keep<T>() implements FieldUpdate<T> {
    }

    record Set<T>(Optional<T> value) implements FieldUpdate<T> {
        public Set {
            requireNonNull(value, "value is null");
        }
    }

    static <T> FieldUpdate<T> keep() {
        return new Keep<>();
    }

    static <T> FieldUpdate<T> set(T value) {
        return new Set<>(Optional.of(value));
    }

    static <T> FieldUpdate<T> clear() {
        return new Set<>(Optional.empty());
    }

    /** The field's value after the update, for an optional field. */
    default Optional<T> applyTo(Optional<T> current) {
        return this instanceof Set<T> set ? set.value() : current;
    }

    /** The field's value after the update, for a required field: clearing it is a validation error. */
    default T applyToRequired(T current, String param) {
        if (this instanceof Set<T> set) {
            return set.value().orElseThrow(() -> new ValidationException(param, "'" + param + "' cannot be null"));
        }
        return current;
    }

    default boolean isKeep() {
        return this instanceof Keep;
    }
}
