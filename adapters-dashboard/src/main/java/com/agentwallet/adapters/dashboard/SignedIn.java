package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;

import static java.util.Objects.requireNonNull;

/**
 * The user a session cookie belongs to, as the pages need them: who they are, their role (which
 * decides the navigation), the session's CSRF token (every form carries it), and how many payments
 * of their organisation await a co-signature (the inbox's badge; shown to operators and above).
 */
public record SignedIn(String email, Role role, String csrfToken, int awaitingCoSign) {
    public SignedIn {
        requireNonNull(email, "email is null");
        requireNonNull(role, "role is null");
        requireNonNull(csrfToken, "csrfToken is null");
        if (awaitingCoSign < 0) {
            throw new IllegalArgumentException("awaitingCoSign is negative: " + awaitingCoSign);
        }
    }
}
