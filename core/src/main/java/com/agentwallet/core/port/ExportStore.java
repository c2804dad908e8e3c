package com.agentwallet.core.port;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.id.OrgId;

import java.util.List;
import java.util.Optional;

/** Export jobs of the transaction history. */
public interface ExportStore {
    void insert(ExportJob job);

    Optional<ExportJob> find(OrgId orgId, ExportId id);

    /** The organisation's jobs in every status, newest first by creation time. */
    Page<ExportJob> list(OrgId orgId, PageRequest page);

    /** Pending jobs of every organisation, oldest first: the generator's queue. */
    List<ExportJob> pending(int limit);

    /**
     * Like {@link #pending}, but each job returned is locked until the transaction ends, and jobs
     * another transaction holds are skipped: two generators sharing the books never take one job.
     */
    List<ExportJob> claimPending(int limit);

    /** The job, locked until the transaction ends, if it is still pending and no other transaction holds it. */
    Optional<ExportJob> claim(ExportId id);

    void update(ExportJob job);
}
