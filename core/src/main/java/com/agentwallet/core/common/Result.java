package com.agentwallet.core.common;

import com.agentwallet.core.id.TypedId;

import java.util.Optional;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/** What a use case or a state transition gives back: a value, or the named reason it was refused. */
public sealed interface Result<T> {

    record Ok<T>(T value) implements Result<T> {
        public Ok {
            requireNonNull(value, "value is null");
        }
    }

    record Refused<T>(Rejection rejection) implements Result<T> {
        public Refused {
            requireNonNull(rejection, "rejection is null");
        }
    }

    static <T> Result<T> ok(T value) {
        return new Ok<>(value);
    }

    static <T> Result<T> refused(Rejection rejection) {
        return new Refused<>(rejection);
    }

    /** The value when present, else a not-found refusal naming the resource and id. */
    static <T> Result<T> found(Optional<T> value, String resource, TypedId id) {
        return value.<Result<T>>map(Result::ok)
                .orElseGet(() -> refused(new Rejection.NotFound(resource, id.value())));
    }

    default boolean isOk() {
        return this instanceof Ok;
    }

    /** The value; a programming error to call on a refusal. */
    default T value() {
        if (this instanceof Ok<T> ok) {
            return ok.value();
        }
        throw new IllegalStateException("refused: " + ((Refused<T>) this).rejection());
    }

    /** The rejection; a programming error to call on a success. */
    default Rejection rejection() {
        if (this instanceof Refused<T> refused) {
            return refused.rejection();
        }
        throw new IllegalStateException("not refused");
    }

    default <U> Result<U> map(Function<? super T, ? extends U> mapper) {
        if (this instanceof Ok<T> ok) {
            return new Ok<>(mapper.apply(ok.value()));
        }
        return new Refused<>(rejection());
    }

    default <U> Result<U> flatMap(Function<? super T, Result<U>> mapper) {
        if (this instanceof Ok<T> ok) {
            return mapper.apply(ok.value());
        }
        return new Refused<>(rejection());
    }
}
