package com.agentwallet.core.port;

/**
 * The books could not be reached or could not take the unit of work at the moment: no connection
 * could be had, the connection broke during the unit of work (a database failover or restart, a
 * network cut), or the database rolled it back for a reason of the moment (a deadlock with a session
 * from outside the service, a lock or statement timeout). The unit of work is rolled back whole,
 * unless the connection broke while it committed, when PostgreSQL may have committed it whole;
 * either way nothing is half-written, and the request can be retried (a payment with its
 * idempotency key, so that it is booked once).
 */
public final class StorageUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StorageUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
