package com.agentwallet.adapters.persistence;

import com.agentwallet.core.auth.ApiKey;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.id.ApiKeyId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.port.ApiKeyStore;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

final class JdbiApiKeys implements ApiKeyStore {
    private static final RowMapper<ApiKey> ROW = (rs, ctx) -> new ApiKey(new ApiKeyId(rs.getString("id")),
            new OrgId(rs.getString("org_id")), Role.fromWire(rs.getString("role"), "role"), rs.getString("key_hash"),
            Rows.instant(rs, "created_at"), Rows.optionalInstant(rs, "revoked_at"),
            Rows.optionalInstant(rs, "last_used_at"));

    private final Handle handle;

    JdbiApiKeys(Handle handle) {
        this.handle = handle;
    }

    @Override
    public void insert(ApiKey key) {
        handle.createUpdate("INSERT INTO api_keys (id, org_id, role, key_hash, revoked, created_at, revoked_at) "
                        + "VALUES (:id, :org, :role, :hash, :revoked, :createdAt, :revokedAt)")
                .bind("id", key.id().value())
                .bind("org", key.orgId().value())
                .bind("role", key.role().wireName())
                .bind("hash", key.secretHash())
                .bind("revoked", key.isRevoked())
                .bind("createdAt", Rows.timestamp(key.createdAt()))
                .bind("revokedAt", Rows.timestamp(key.revokedAt()))
                .execute();
    }

    @Override
    public Optional<ApiKey> findByHash(String secretHash) {
        return handle.createQuery("SELECT * FROM api_keys WHERE key_hash = :hash").bind("hash", secretHash)
                .map(ROW).findOne();
    }

    @Override
    public Optional<ApiKey> lock(OrgId orgId, ApiKeyId id) {
        return handle.createQuery("SELECT * FROM api_keys WHERE id = :id AND org_id = :org FOR NO KEY UPDATE")
                .bind("id", id.value()).bind("org", orgId.value()).map(ROW).findOne();
    }

    @Override
    public void update(ApiKey key) {
        handle.createUpdate("UPDATE api_keys SET revoked = :revoked, revoked_at = :revokedAt WHERE id = :id AND org_id = :org")
                .bind("id", key.id().value())
                .bind("org", key.orgId().value())
                .bind("revoked", key.isRevoked())
                .bind("revokedAt", Rows.timestamp(key.revokedAt()))
                .execute();
    }

    /** One statement for the whole batch, the keys in id order so that concurrent writers lock alike. */
    @Override
    public void recordUse(Map<ApiKeyId, Instant> lastUsed) {
        List<Map.Entry<ApiKeyId, Instant>> sorted = lastUsed.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(Comparator.comparing(ApiKeyId::value))).toList();
        handle.createUpdate("UPDATE api_keys SET last_used_at = used.at FROM unnest(:ids, CAST(:ats AS timestamptz[])) AS used (id, at) "
                        + "WHERE api_keys.id = used.id AND (last_used_at IS NULL OR last_used_at < used.at)")
                .bindArray("ids", String.class, sorted.stream().map(entry -> entry.getKey().value()).toList())
                .bindArray("ats", String.class, sorted.stream().map(entry -> entry.getValue().toString()).toList())
                .execute();
    }

    @Override
    public List<ApiKey> list(OrgId orgId) {
        return handle.createQuery("SELECT * FROM api_keys WHERE org_id = :org ORDER BY created_at, id")
                .bind("org", orgId.value()).map(ROW).list();
    }
}
