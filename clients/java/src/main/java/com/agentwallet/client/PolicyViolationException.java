package com.agentwallet.client;

/** A payment refused by its wallet's policy ({@code policy_violation}, or {@code session_token_invalid}). */
public class PolicyViolationException extends AgentWalletException {
    private static final long serialVersionUID = 1L;

    private final transient Violation violation;

    public PolicyViolationException(String code, String message, String requestId, int status, Violation violation) {
        super(code, message, requestId, status);
        this.violation = violation;
    }

    public Violation violation() {
        return violation;
    }
}
