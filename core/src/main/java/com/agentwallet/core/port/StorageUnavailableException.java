package com.agentwallet.core.port;

/**
 * The books could not be reached: no connection could be had, or the connection broke during the
 * unit of work (a database failover or restart, a network cut). The unit of work is rolled back
 * whole, unless the connection broke while it committed, when PostgreSQL may have committed it
 * whole; either way nothing is half-written, and the request can be retried (a payment with its
 * idempotency key, so that it is booked once).
 */
public final class StorageUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StorageUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
