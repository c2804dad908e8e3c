package com.agentwallet.core.port;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.org.Organisation;

import java.util.List;
import java.util.Optional;

public interface OrganisationStore {
    void insert(Organisation organisation);

    Optional<Organisation> find(OrgId id);

    /** Reads the organisation and locks it until the transaction ends. */
    Optional<Organisation> lock(OrgId id);

    void update(Organisation organisation);

    /** Every organisation, oldest first. */
    List<Organisation> list();
}
