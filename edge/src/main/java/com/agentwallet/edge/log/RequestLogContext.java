package com.agentwallet.edge.log;

import org.slf4j.MDC;

/**
 * The request id in the logging context: from the moment a request is given its {@code Request-Id}
 * until it has been answered, every line logged on its thread carries the id under
 * {@value #REQUEST_ID} (SLF4J's MDC), so that an operator finds a client's failed request by the id
 * the client was answered. The /v1 API and the MCP endpoint each enter it where they make the id;
 * the server's outermost filter leaves it after every request, so that a pooled thread takes no id
 * to the next one. Nothing else is ever put here: no header, key or token.
 */
public final class RequestLogContext {
    /** The key of the request id in the MDC, and so the field of JSON log lines. */
    public static final String REQUEST_ID = "request_id";

    private RequestLogContext() {
    }

    /** Lines logged on this thread from now on carry {@code requestId}. */
    public static void enter(String requestId) {
        MDC.put(REQUEST_ID, requestId);
    }

    /** Lines logged on this thread from now on carry no request id. */
    public static void leave() {
        MDC.remove(REQUEST_ID);
    }
}
