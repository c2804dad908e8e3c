package com.agentwallet.core.port;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.idempotency.KeyedRequest;

import java.time.Instant;
import java.util.Optional;

/**
 * Idempotency keys of the creating requests other than payments (funding, withdrawals, escrow locks,
 * wallets, policies, webhooks, exports), scoped to the organisation and kept 24 h.
 */
public interface RequestKeyStore {
    /**
     * Inserts the record unless the organisation's key has one; answers whether it did. While another
     * transaction holds an uncommitted record of the key, this waits for it to end, so of two
     * concurrent requests with one key only one goes on.
     */
    boolean insertIfAbsent(KeyedRequest record);

    Optional<KeyedRequest> find(OrgId orgId, String key);

    /** Names what the key's request made, in the transaction that made it. */
    void setSubject(OrgId orgId, String key, String subject);

    void delete(OrgId orgId, String key);

    /**
     * Forgets up to {@code limit} keys of any organisation first used before {@code cutoff}, skipping
     * those another transaction holds; answers how many it forgot.
     */
    int deleteCreatedBefore(Instant cutoff, int limit);
}
