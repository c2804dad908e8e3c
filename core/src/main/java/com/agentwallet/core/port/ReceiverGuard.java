package com.agentwallet.core.port;

import java.net.URI;

/**
 * Decides whether events may be sent to a receiver URL. The adapter resolves the host and refuses
 * private, loopback and link-local addresses unless the server is configured to allow them: a
 * webhook must not become a way to reach the service's own network.
 */
public interface ReceiverGuard {

    /**
     * Returns when {@code receiver} (an absolute {@code https://} URL with a host) may be used;
     * throws {@link com.agentwallet.core.common.ValidationException} with param {@code url} when not.
     */
    void requirePermitted(URI receiver);
}
