package com.agentwallet.core.auth;

import com.agentwallet.core.id.ApiKeyId;
import com.agentwallet.core.id.OrgId;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * An API key as stored: only the SHA-256 of its secret is kept. It belongs to one organisation and
 * one role for its whole life; a revoked key authenticates nothing. {@code lastUsedAt} is when it
 * last authenticated a request, as last written to the books ({@link ApiKeyService#recordUsage}).
 */
public record ApiKey(ApiKeyId id, OrgId orgId, Role role, String secretHash, Instant createdAt,
                     Optional<Instant> revokedAt, Optional<Instant> lastUsedAt) {
    public ApiKey {
        requireNonNull(id, "id is null");
        requireNonNull(orgId, "orgId is null");
        requireNonNull(role, "role is null");
        requireNonNull(secretHash, "secretHash is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(revokedAt, "revokedAt is null");
        requireNonNull(lastUsedAt, "lastUsedAt is null");
    }

    /** A key never used yet. */
    public ApiKey(ApiKeyId id, OrgId orgId, Role role, String secretHash, Instant createdAt,
                  Optional<Instant> revokedAt) {
        this(id, orgId, role, secretHash, createdAt, revokedAt, Optional.empty());
    }

    public boolean isRevoked() {
        return revokedAt.isPresent();
    }

    public ApiKey revokedAt(Instant now) {
        return new ApiKey(id, orgId, role, secretHash, createdAt, Optional.of(now), lastUsedAt);
    }
}
