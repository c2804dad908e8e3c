package com.agentwallet.client;

/** 400: the request was refused as malformed; {@code param} names the field, query parameter or part at fault. */
public class InvalidRequestException extends AgentWalletException {
    private static final long serialVersionUID = 1L;

    private final String param;

    public InvalidRequestException(String code, String message, String requestId, int status, String param) {
        super(code, message, requestId, status);
        this.param = param;
    }

    public String param() {
        return param;
    }
}
