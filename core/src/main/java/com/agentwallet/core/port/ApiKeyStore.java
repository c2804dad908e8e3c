package com.agentwallet.core.port;

import com.agentwallet.core.auth.ApiKey;
import com.agentwallet.core.id.ApiKeyId;
import com.agentwallet.core.id.OrgId;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

public interface ApiKeyStore {
    void insert(ApiKey key);

    /** The key whose secret hashes to {@code secretHash}, revoked or not. */
    Optional<ApiKey> findByHash(String secretHash);

    /** Reads the key and locks it until the transaction ends. */
    Optional<ApiKey> lock(OrgId orgId, ApiKeyId id);

    /** Writes the key's revocation; when it was last used is left as it is. */
    void update(ApiKey key);

    /**
     * Sets when each key was last used, unless a later time is set already (another server process
     * may have written a later use first); keys that no longer exist are skipped.
     */
    void recordUse(Map<ApiKeyId, Instant> lastUsed);

    /** The organisation's keys, oldest first. */
    List<ApiKey> list(OrgId orgId);
}
