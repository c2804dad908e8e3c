package com.agentwallet.client;

import java.time.Duration;

/** 429 after the retries ran out; {@code retryAfter} is the server's {@code Retry-After} (null when absent). */
public class RateLimitException extends AgentWalletException {
    private static final long serialVersionUID = 1L;

    private final Duration retryAfter;

    public RateLimitException(String code, String message, String requestId, int status, Duration retryAfter) {
        super(code, message, requestId, status);
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
