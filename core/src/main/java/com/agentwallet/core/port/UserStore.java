package com.agentwallet.core.port;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.user.DashboardUser;
import com.agentwallet.core.user.UserId;

import java.util.List;
import java.util.Optional;

/** Dashboard users. An email belongs to one user of the whole service. */
public interface UserStore {
    /** Throws when the id or the email is taken. */
    void insert(DashboardUser user);

    Optional<DashboardUser> find(OrgId orgId, UserId id);

    /** Reads the user and locks it until the transaction ends. */
    Optional<DashboardUser> lock(OrgId orgId, UserId id);

    /** The user of a normalised email, of any organisation. */
    Optional<DashboardUser> findByEmail(String email);

    /** The organisation's users, oldest first. */
    List<DashboardUser> list(OrgId orgId);

    void update(DashboardUser user);

    void delete(OrgId orgId, UserId id);
}
