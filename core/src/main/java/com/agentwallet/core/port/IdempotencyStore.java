package com.agentwallet.core.port;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.payment.IdempotencyRecord;

import java.time.Instant;
import java.util.Collection;
import java.util.Optional;

/** Idempotency keys of payment requests, scoped to the organisation and kept 24 h. */
public interface IdempotencyStore {
    /**
     * Holds the key until the transaction ends, whether or not a record exists yet: two requests with
     * one key run one after the other, so the second sees the first's record.
     */
    void lock(OrgId orgId, String key);

    /**
     * {@link #lock} of each of the organisation's {@code keys}, in the order of the keys (the global
     * lock order). A store may lock them and read their records all at once; by default each is
     * locked in turn.
     */
    default void lockAll(OrgId orgId, Collection<String> keys) {
        keys.stream().distinct().sorted().forEach(key -> lock(orgId, key));
    }

    Optional<IdempotencyRecord> find(OrgId orgId, String key);

    /** Inserts a record; a live record with the same key must not exist (the database refuses a duplicate). */
    void insert(IdempotencyRecord record);

    /**
     * Keeps the answer the key's first request was given, unless one is kept already (the first to
     * commit stays); a key without a record keeps nothing. Nobody waits for it: a store may send it
     * with what comes next in the unit of work, or with its commit.
     */
    void keepAnswer(OrgId orgId, String key, IdempotencyRecord.Answer answer);

    /** Forgets a key, so that it can be used again after its retention. */
    void delete(OrgId orgId, String key);

    /**
     * Forgets up to {@code limit} keys of any organisation first used before {@code cutoff}, skipping
     * those another transaction holds; answers how many it forgot.
     */
    int deleteCreatedBefore(Instant cutoff, int limit);
}
