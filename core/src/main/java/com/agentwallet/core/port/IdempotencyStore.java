package com.agentwallet.core.port;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.payment.IdempotencyRecord;

import java.util.Optional;

/** Idempotency keys of payment requests, scoped to the organisation and kept 24 h. */
public interface IdempotencyStore {
    Optional<IdempotencyRecord> find(OrgId orgId, String key);

    /** Inserts a record; a live record with the same key must not exist (the database refuses a duplicate). */
    void insert(IdempotencyRecord record);

    /** Forgets a key, so that it can be used again after its retention. */
    void delete(OrgId orgId, String key);
}
