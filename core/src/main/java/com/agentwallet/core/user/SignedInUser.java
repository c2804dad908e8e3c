package com.agentwallet.core.user;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.id.OrgId;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/** Who a live session belongs to, with the user's role as it is now, and the session's CSRF token and expiry. */
public record SignedInUser(UserId userId, OrgId orgId, Role role, String email, String csrfToken, Instant expiresAt) {
    public SignedInUser {
        requireNonNull(userId, "userId is null");
        requireNonNull(orgId, "orgId is null");
        requireNonNull(role, "role is null");
        requireNonNull(email, "email is null");
        requireNonNull(csrfToken, "csrfToken is null");
        requireNonNull(expiresAt, "expiresAt is null");
    }
}
