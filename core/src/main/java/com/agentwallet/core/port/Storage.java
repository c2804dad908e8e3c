package com.agentwallet.core.port;

import java.util.function.Function;

/**
 * The service's books. {@code work} runs in one database transaction: it commits when {@code work}
 * returns, and nothing of it is kept when {@code work} throws. Use cases lock rows in one global
 * order (an idempotency key, then transaction or escrow rows, then wallets by id, then the
 * organisation) so that concurrent
 * transactions cannot deadlock.
 */
public interface Storage {
    <T> T inTransaction(Function<Stores, T> work);

    /**
     * A read of one statement, which needs no transaction around it: {@code work} reads and writes
     * nothing else. A store may run it without opening a transaction (one round trip to the
     * database instead of two); by default it is a transaction like any other.
     */
    default <T> T readOne(Function<Stores, T> work) {
        return inTransaction(work);
    }
}
