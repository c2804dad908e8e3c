package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.adapters.http.json.SnakeCaseKeys;
import com.agentwallet.core.common.FieldUpdate;
import com.agentwallet.core.money.Usdc;
import jakarta.ws.rs.container.ContainerRequestContext;

import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** Reading request fields: required ones named when missing, PATCH fields told apart as absent, null or set. */
final class Bodies {
    private Bodies() {
    }

    static <T> T required(T body) {
        if (body == null) {
            throw ApiException.validation("body", "A JSON request body is required");
        }
        return body;
    }

    static <T> T required(T value, String param) {
        if (value == null) {
            throw ApiException.validation(param, "'" + param + "' is required");
        }
        return value;
    }

    static Usdc positiveAmount(String value, String param) {
        return Usdc.parsePositive(required(value, param), param);
    }

    static Optional<Usdc> optionalAmount(String value, String param) {
        return Optional.ofNullable(value).map(text -> Usdc.parse(text, param));
    }

    /** The top-level fields the request body sent (empty without a body). */
    @SuppressWarnings("unchecked")
    static Set<String> sent(ContainerRequestContext request) {
        Object fields = request.getProperty(SnakeCaseKeys.FIELDS_PROPERTY);
        return fields == null ? Set.of() : (Set<String>) fields;
    }

    /** A PATCH field: left out keeps the value, sent as null clears it, sent with a value sets it. */
    static <W, T> FieldUpdate<T> update(Set<String> sent, String name, W value, Function<W, T> parse) {
        if (!sent.contains(name)) {
            return FieldUpdate.keep();
        }
        return value == null ? FieldUpdate.clear() : FieldUpdate.set(parse.apply(value));
    }
}
