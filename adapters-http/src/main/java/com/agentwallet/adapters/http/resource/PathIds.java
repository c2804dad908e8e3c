package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.error.ErrorResponses;
import com.agentwallet.core.common.Rejection;

import java.util.function.Function;

/** Ids from the path: a malformed one names nothing that exists, so it is a 404 like an unknown one. */
final class PathIds {
    private PathIds() {
    }

    static <I> I parse(String value, String resource, Function<String, I> constructor) {
        try {
            return constructor.apply(value);
        } catch (IllegalArgumentException e) {
            throw ErrorResponses.of(new Rejection.NotFound(resource, value));
        }
    }
}
