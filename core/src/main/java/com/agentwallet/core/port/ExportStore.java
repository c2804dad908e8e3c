package com.agentwallet.core.port;

import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.id.OrgId;

import java.util.List;
import java.util.Optional;

/** Export jobs of the transaction history. */
public interface ExportStore {
    void insert(ExportJob job);

    Optional<ExportJob> find(OrgId orgId, ExportId id);

    /** Pending jobs of every organisation, oldest first: the generator's queue. */
    List<ExportJob> pending(int limit);

    void update(ExportJob job);
}
