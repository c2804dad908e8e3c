package com.agentwallet.client;

/**
 * An error answered by the API (or a request that never got an answer, with status 0). Subclasses name
 * the cases a caller handles differently; anything else arrives as this class with its {@code code}.
 */
public class AgentWalletException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;
    private final String requestId;
    private final int status;

    public AgentWalletException(String code, String message, String requestId, int status) {
        super(message);
        this.code = code;
        this.requestId = requestId;
        this.status = status;
    }

    AgentWalletException(String code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.requestId = null;
        this.status = 0;
    }

    /** The API's error code, e.g. {@code invalid_state}; {@code network_error} when no answer came. */
    public String code() {
        return code;
    }

    /** The {@code Request-Id} the server logged the request under; null when no answer came. */
    public String requestId() {
        return requestId;
    }

    /** The HTTP status; 0 when no answer came. */
    public int status() {
        return status;
    }
}
