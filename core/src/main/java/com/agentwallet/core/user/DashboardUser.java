package com.agentwallet.core.user;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.OrgId;

import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A person who signs in to the dashboard: one organisation, one role of the API keys' ladder. Only
 * the password's hash is kept. The email is unique across the service, since sign-in names no
 * organisation. {@code failedSignIns} counts the failed sign-ins since the last success; while
 * {@code lockedUntil} lies ahead, sign-in is refused.
 */
public record DashboardUser(UserId id, OrgId orgId, String email, Role role, String passwordHash, int failedSignIns,
                            Optional<Instant> lockedUntil, Instant passwordChangedAt, Instant createdAt) {
    public static final int MAX_EMAIL_LENGTH = 254;

    public DashboardUser {
        requireNonNull(id, "id is null");
        requireNonNull(orgId, "orgId is null");
        requireNonNull(email, "email is null");
        requireNonNull(role, "role is null");
        requireNonNull(passwordHash, "passwordHash is null");
        requireNonNull(lockedUntil, "lockedUntil is null");
        requireNonNull(passwordChangedAt, "passwordChangedAt is null");
        requireNonNull(createdAt, "createdAt is null");
        if (!email.equals(normaliseEmail(email))) {
            throw new IllegalArgumentException("email is not normalised: " + email);
        }
        if (failedSignIns < 0) {
            throw new IllegalArgumentException("failedSignIns is negative");
        }
    }

    /**
     * The address trimmed and in lower case; a validation error unless it has one {@code @} between a
     * local part and a dotted domain, no spaces or control characters, and at most 254 characters.
     */
    public static String normaliseEmail(String email) {
        ValidationException.check(email != null, "email", "'email' is required");
        String normal = email.strip().toLowerCase(Locale.ROOT);
        int at = normal.indexOf('@');
        boolean wellFormed = normal.length() <= MAX_EMAIL_LENGTH && at > 0 && at == normal.lastIndexOf('@')
                && normal.indexOf('.', at) > at + 1 && !normal.endsWith(".")
                && normal.codePoints().noneMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c));
        ValidationException.check(wellFormed, "email", "'email' must be an email address of at most "
                + MAX_EMAIL_LENGTH + " characters");
        return normal;
    }

    public boolean isLocked(Instant now) {
        return lockedUntil.filter(now::isBefore).isPresent();
    }

    public DashboardUser withRole(Role newRole) {
        return new DashboardUser(id, orgId, email, newRole, passwordHash, failedSignIns, lockedUntil,
                passwordChangedAt, createdAt);
    }

    /** A new password, which also ends a lockout: set by the user or by an operator's reset. */
    public DashboardUser withPassword(String newHash, Instant now) {
        return new DashboardUser(id, orgId, email, role, newHash, 0, Optional.empty(), now, createdAt);
    }

    public DashboardUser signedIn() {
        return new DashboardUser(id, orgId, email, role, passwordHash, 0, Optional.empty(), passwordChangedAt,
                createdAt);
    }

    public DashboardUser failedSignIn(Optional<Instant> lockUntil) {
        return new DashboardUser(id, orgId, email, role, passwordHash, failedSignIns + 1, lockUntil,
                passwordChangedAt, createdAt);
    }
}
