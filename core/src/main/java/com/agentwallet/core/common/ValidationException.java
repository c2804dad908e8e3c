package com.agentwallet.core.common;

import static java.util.Objects.requireNonNull;

/**
 * Input that breaks a rule of the contract (a bad amount, an unknown enum value, a missing field).
 * Thrown while building commands and values, before anything is read or changed, so it always
 * means "nothing happened". The HTTP adapter answers it with 400 {@code validation_error}.
 */
public final class ValidationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String param;

    public ValidationException(String param, String message) {
        super(requireNonNull(message, "message is null"));
        this.param = requireNonNull(param, "param is null");
    }

    /** The request field the error is about, in the wire's snake_case. */
    public String param() {
        return param;
    }

    public static void check(boolean condition, String param, String message) {
        if (!condition) {
            throw new ValidationException(param, message);
        }
    }
}
