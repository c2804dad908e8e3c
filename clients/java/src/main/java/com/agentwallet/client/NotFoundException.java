package com.agentwallet.client;

/** 404: no such resource in the caller's organisation (or, for an agent, not its wallet's). */
public class NotFoundException extends AgentWalletException {
    private static final long serialVersionUID = 1L;

    public NotFoundException(String code, String message, String requestId, int status) {
        super(code, message, requestId, status);
    }
}
