package com.agentwallet.client;

/** 403: the credential may not do this; {@code requiredRole} is the lowest API-key role that may (null if none does). */
public class PermissionException extends AgentWalletException {
    private static final long serialVersionUID = 1L;

    private final String requiredRole;

    public PermissionException(String code, String message, String requestId, int status, String requiredRole) {
        super(code, message, requestId, status);
        this.requiredRole = requiredRole;
    }

    public String requiredRole() {
        return requiredRole;
    }
}
