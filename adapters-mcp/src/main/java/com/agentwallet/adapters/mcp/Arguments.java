package com.agentwallet.adapters.mcp;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.money.Usdc;

import java.util.Map;
import java.util.Optional;

/**
 * A tool call's arguments, read by name. The SDK has checked them against the tool's input schema;
 * these checks name the argument again in the domain's own words (an amount of more than 6
 * decimals, an empty key), as a {@link ValidationException} the tool answers as a validation error.
 */
final class Arguments {
    private final Map<String, Object> values;

    Arguments(Map<String, Object> values) {
        this.values = values == null ? Map.of() : values;
    }

    String required(String name) {
        return optional(name).orElseThrow(() -> new ValidationException(name, "'" + name + "' is required"));
    }

    Optional<String> optional(String name) {
        Object value = values.get(name);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof String text)) {
            throw new ValidationException(name, "'" + name + "' must be a string");
        }
        return Optional.of(text);
    }

    /** A positive amount of USDC, a decimal string of at most 6 decimals such as "12.50". */
    Usdc amount(String name) {
        return Usdc.parsePositive(required(name), name);
    }

    Optional<Long> whole(String name) {
        Object value = values.get(name);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())) {
            throw new ValidationException(name, "'" + name + "' must be a whole number");
        }
        return Optional.of(number.longValue());
    }
}
