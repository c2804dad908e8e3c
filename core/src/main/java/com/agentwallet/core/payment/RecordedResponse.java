package com.agentwallet.core.payment;

import static java.util.Objects.requireNonNull;

/**
 * The response a payment request was answered with, kept with its idempotency key so that a replay
 * answers exactly the same. Opaque to the core: the HTTP adapter writes and reads it.
 */
public record RecordedResponse(int status, String body) {
    public RecordedResponse {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("not an HTTP status: " + status);
        }
        requireNonNull(body, "body is null");
    }
}
