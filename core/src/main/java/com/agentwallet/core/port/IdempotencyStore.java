package com.agentwallet.core.port;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.payment.IdempotencyRecord;

import java.util.Optional;

/** Idempotency keys of payment requests, scoped to the organisation and kept 24 h. */
public interface IdempotencyStore {
    /**
     * Holds the key until the transaction ends, whether or not a record exists yet: two requests with
     * one key run one after the other, so the second sees the first's record.
     */
    void lock(OrgId orgId, String key);

    Optional<IdempotencyRecord> find(OrgId orgId, String key);

    /** Inserts a record; a live record with the same key must not exist (the database refuses a duplicate). */
    void insert(IdempotencyRecord record);

    /** Forgets a key, so that it can be used again after its retention. */
    void delete(OrgId orgId, String key);
}
