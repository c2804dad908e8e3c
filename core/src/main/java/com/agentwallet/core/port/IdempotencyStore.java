package com.agentwallet.core.port;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.payment.IdempotencyRecord;

import java.util.Optional;

/** Idempotency keys of payment requests, scoped to the organisation and kept 24 h. */
public interface IdempotencyStore {
    Optional<IdempotencyRecord> find(OrgId orgId, String key);

    void insert(IdempotencyRecord record);
}
