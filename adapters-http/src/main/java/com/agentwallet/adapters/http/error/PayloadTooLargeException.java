package com.agentwallet.adapters.http.error;

import java.io.IOException;

/**
 * A request body longer than the API accepts ({@code api.maxRequestBytes}). The body's stream
 * throws it as the reader passes the limit, so an IOException; it is answered 413
 * {@code payload_too_large}.
 */
public final class PayloadTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long maxBytes;

    public PayloadTooLargeException(long maxBytes) {
        super("The request body is longer than " + maxBytes + " bytes");
        this.maxBytes = maxBytes;
    }

    /** The contract's answer to it. */
    public ApiException toApiException() {
        return of(maxBytes);
    }

    /** The answer to a body of {@code maxBytes} or more, known before it is read (its Content-Length says so). */
    public static ApiException of(long maxBytes) {
        return ApiException.of(413, "payload_too_large", "The request body is larger than " + maxBytes
                + " bytes, the most this API accepts");
    }
}
