package com.agentwallet.adapters.dashboard;

import java.util.Optional;

/** What the pages ask of the users' sign-in sessions; bootstrap binds the implementation. */
@FunctionalInterface
public interface DashboardSessions {
    /** The session cookie's name: {@code __Host-} makes browsers keep it only if Secure, on Path=/, with no Domain. */
    String COOKIE = "__Host-agent-wallet-session";

    /** Until sign-in exists, no cookie names a session, so every page but sign-in sends the browser there. */
    DashboardSessions NONE = cookie -> Optional.empty();

    /** The user of the live session the cookie's value names; empty when it names none or one that expired. */
    Optional<SignedIn> find(String cookie);
}
