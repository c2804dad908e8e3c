package com.agentwallet.core.user;

import com.agentwallet.core.id.OrgId;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A signed-in dashboard session as stored: the SHA-256 of its token (the token itself is only in
 * the browser's cookie), its user, the CSRF token every change must carry, and its absolute expiry.
 */
public record DashboardSession(String tokenHash, UserId userId, OrgId orgId, String csrfToken, Instant createdAt,
                               Instant expiresAt) {
    public DashboardSession {
        requireNonNull(tokenHash, "tokenHash is null");
        requireNonNull(userId, "userId is null");
        requireNonNull(orgId, "orgId is null");
        requireNonNull(csrfToken, "csrfToken is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(expiresAt, "expiresAt is null");
    }
}
