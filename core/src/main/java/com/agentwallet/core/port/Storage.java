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
}
