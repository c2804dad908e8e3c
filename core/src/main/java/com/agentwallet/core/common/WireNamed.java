package com.agentwallet.core.common;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** An enum whose wire name is its constant's name in lowercase ({@code PENDING_CO_SIGN} is {@code pending_co_sign}). */
public interface WireNamed {

    String name();

    default String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The constant with that wire name; anything else is a validation error listing the allowed names. */
    static <E extends Enum<E> & WireNamed> E parse(Class<E> type, String wireName, String param) {
        return Arrays.stream(type.getEnumConstants())
                .filter(constant -> constant.wireName().equals(wireName))
                .findFirst()
                .orElseThrow(() -> new ValidationException(param, "'" + param + "' must be one of "
                        + Arrays.stream(type.getEnumConstants()).map(WireNamed::wireName)
                        .collect(Collectors.joining(", "))));
    }
}
