package com.agentwallet.core.user;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/** A successful sign-in: the session's token, for the cookie, shown this once; its CSRF token; its expiry. */
public record SignedIn(DashboardUser user, String sessionToken, String csrfToken, Instant expiresAt) {
    public SignedIn {
        requireNonNull(user, "user is null");
        requireNonNull(sessionToken, "sessionToken is null");
        requireNonNull(csrfToken, "csrfToken is null");
        requireNonNull(expiresAt, "expiresAt is null");
    }

    /** Without the tokens: a logged sign-in must not hand out the session. */
    @Override
    public String toString() {
        return "SignedIn[user=" + user.id() + ", sessionToken=<hidden>, csrfToken=<hidden>, expiresAt=" + expiresAt + "]";
    }
}
