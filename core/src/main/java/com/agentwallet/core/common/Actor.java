package com.agentwallet.core.common;

import static java.util.Objects.requireNonNull;

/**
 * Who asked for a change, for audit logs: an API key id, the id of the wallet whose session token
 * made the request, or the service's own clockwork.
 */
public record Actor(String id) {
    public static final Actor SYSTEM = new Actor("system");

    public Actor {
        requireNonNull(id, "id is null");
    }
}
