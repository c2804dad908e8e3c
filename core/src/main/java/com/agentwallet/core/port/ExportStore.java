package com.agentwallet.core.port;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.id.OrgId;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Export jobs of the transaction history. A generator claims a pending job with a lease: the job
 * is its own until the lease runs out, with no lock or transaction held meanwhile, and a job whose
 * lease ran out (its generator died or stalled) is claimed again by any generator.
 */
public interface ExportStore {
    void insert(ExportJob job);

    Optional<ExportJob> find(OrgId orgId, ExportId id);

    /** The organisation's jobs in every status, newest first by creation time. */
    Page<ExportJob> list(OrgId orgId, PageRequest page);

    /**
     * Claims up to {@code limit} pending jobs nobody holds a lease on (never claimed, or their lease
     * ran out by {@code now}), leasing them until {@code leaseUntil}. An organisation never has more
     * than {@code perOrganisation} jobs under a live lease, however many generators claim at once,
     * and the organisations take turns: every organisation's oldest waiting job comes before any
     * organisation's second one.
     */
    List<Claimed> claim(Instant now, Instant leaseUntil, int perOrganisation, int limit);

    /** Extends a claim's lease; false when the claim is lost (the job was claimed again or finished). */
    boolean renew(Claimed claimed, Instant leaseUntil);

    /**
     * Writes the claimed job's next state (ready or failed) and ends its lease, if the claim still
     * holds; false, changing nothing, when it is lost.
     */
    boolean finish(Claimed claimed, ExportJob next);

    /** Ready jobs whose file is due to be deleted by {@code now}, locked until the transaction ends; held ones are skipped. */
    List<ExportJob> claimExpired(Instant now, int limit);

    /** Writes a job's new state as it is; for a job no generator holds (one {@link #claimExpired} answered). */
    void update(ExportJob job);

    /** A pending job under one generator's lease; {@code claim} tells this claim from any later one of the job. */
    record Claimed(ExportJob job, long claim) {
        public Claimed {
            requireNonNull(job, "job is null");
        }
    }
}
