package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.user.SignedInUser;

import static java.util.Objects.requireNonNull;

/**
 * The signed-in user as the pages need them: who they are, their role (which decides the navigation),
 * the session's CSRF token (every form carries it), and how many payments of their organisation
 * await a co-signature (the inbox's badge; more than {@link DashboardSessions#BADGE_LIMIT} counts
 * one over it).
 */
public record SignedIn(SignedInUser user, int awaitingCoSign) {
    public SignedIn {
        requireNonNull(user, "user is null");
        if (awaitingCoSign < 0) {
            throw new IllegalArgumentException("awaitingCoSign is negative: " + awaitingCoSign);
        }
    }

    public String email() {
        return user.email();
    }

    public Role role() {
        return user.role();
    }

    public String csrfToken() {
        return user.csrfToken();
    }
}
