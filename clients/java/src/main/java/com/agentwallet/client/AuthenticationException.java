package com.agentwallet.client;

/** 401: the credential is missing, unknown, revoked, or a session token that is expired or not ours. */
public class AuthenticationException extends AgentWalletException {
    private static final long serialVersionUID = 1L;

    public AuthenticationException(String code, String message, String requestId, int status) {
        super(code, message, requestId, status);
    }
}
