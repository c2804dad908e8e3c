package com.agentwallet.core.port;

import com.agentwallet.core.auth.ApiKey;
import com.agentwallet.core.id.ApiKeyId;
import com.agentwallet.core.id.OrgId;

import java.util.List;
import java.util.Optional;

public interface ApiKeyStore {
    void insert(ApiKey key);

    /** The key whose secret hashes to {@code secretHash}, revoked or not. */
    Optional<ApiKey> findByHash(String secretHash);

    /** Reads the key and locks it until the transaction ends. */
    Optional<ApiKey> lock(OrgId orgId, ApiKeyId id);

    void update(ApiKey key);

    /** The organisation's keys, oldest first. */
    List<ApiKey> list(OrgId orgId);
}
