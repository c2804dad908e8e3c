package com.agentwallet.core.port;

import com.agentwallet.core.user.DashboardSession;
import com.agentwallet.core.user.UserId;

import java.time.Instant;
import java.util.Optional;

/** Dashboard sessions, kept in the books so that every server process knows them. */
public interface DashboardSessionStore {
    void insert(DashboardSession session);

    Optional<DashboardSession> findByTokenHash(String tokenHash);

    void delete(String tokenHash);

    /** Ends every session of the user; answers how many. */
    int deleteAllOf(UserId userId);

    /**
     * Forgets up to {@code limit} sessions of any user that expired at or before {@code now},
     * skipping those another transaction holds; answers how many it forgot.
     */
    int deleteExpired(Instant now, int limit);
}
