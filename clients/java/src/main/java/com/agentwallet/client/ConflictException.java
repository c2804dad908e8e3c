package com.agentwallet.client;

/**
 * 409: the request clashes with what is there; {@code code} says how: {@code idempotency_conflict} (the
 * key was used with another request), {@code invalid_state} (a retried state change that already took
 * effect answers this too) or {@code already_exists}.
 */
public class ConflictException extends AgentWalletException {
    private static final long serialVersionUID = 1L;

    public ConflictException(String code, String message, String requestId, int status) {
        super(code, message, requestId, status);
    }
}
