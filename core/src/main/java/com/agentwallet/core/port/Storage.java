package com.agentwallet.core.port;

import java.util.List;
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

    /**
     * {@code work} in a database transaction, after the rows {@code claim} names are locked. A store
     * may run it in one transaction with other work of the same kind of claim and the same
     * organisation submitted meanwhile (a group commit: one commit, one wait for the disk, and one
     * statement per kind of write for all of them). Then the rows of all their claims are locked
     * first, in the global lock order ({@link Claim#lockAll}), each work runs in turn, seeing what
     * those before it wrote, and all commit together; when one throws, the batch is rolled back and
     * each is run again alone, so that it fails alone. So {@code work} changes nothing but the
     * books, may run more than once, and answers something (not null). By default each runs in a
     * transaction of its own.
     */
    default <T> T inBatch(Claim claim, Function<Stores, T> work) {
        return inTransaction(stores -> {
            Claim.lockAll(stores, List.of(claim));
            return work.apply(stores);
        });
    }
}
