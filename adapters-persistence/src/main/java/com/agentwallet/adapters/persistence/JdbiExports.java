package com.agentwallet.adapters.persistence;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.export.ExportStatus;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.port.ExportStore;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.SqlStatement;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

final class JdbiExports implements ExportStore {
    private static final RowMapper<ExportJob> ROW = (rs, ctx) -> new ExportJob(new ExportId(rs.getString("id")),
            new OrgId(rs.getString("org_id")), ExportStatus.fromWire(rs.getString("status"), "status"),
            ExportFormat.fromWire(rs.getString("format"), "format"),
            Rows.optionalString(rs, "wallet_id").map(WalletId::new), Rows.optionalInstant(rs, "from_ts"),
            Rows.optionalInstant(rs, "to_ts"), Rows.optionalString(rs, "file_path"), Rows.optionalLong(rs, "row_count"),
            Rows.instant(rs, "created_at"), Rows.optionalInstant(rs, "completed_at"),
            Rows.optionalInstant(rs, "expires_at"));
    /**
     * The advisory lock that makes claims one at a time across processes, so that two generators
     * claiming at once cannot both see room under an organisation's cap: any constant no other lock
     * of the service uses. A claim is one short statement, so the wait is short.
     */
    private static final long CLAIM_LOCK = 0x5741_4C4C_4558_5001L;
    /**
     * Each organisation's waiting jobs take turns by age, after the ones it has under a live lease:
     * a job is claimable while its turn plus its organisation's running jobs stays within the cap,
     * and the earliest turns of every organisation go first.
     */
    private static final String CLAIM = "WITH running AS ("
            + "SELECT org_id, count(*) AS n FROM export_jobs WHERE status = 'pending' AND lease_until > :now "
            + "GROUP BY org_id), "
            + "waiting AS (SELECT id, org_id, created_at, "
            + "row_number() OVER (PARTITION BY org_id ORDER BY created_at, id) AS turn FROM export_jobs "
            + "WHERE status = 'pending' AND (lease_until IS NULL OR lease_until <= :now)), "
            + "chosen AS (SELECT w.id FROM waiting w LEFT JOIN running r ON r.org_id = w.org_id "
            + "WHERE w.turn + coalesce(r.n, 0) <= :perOrganisation ORDER BY w.turn, w.created_at, w.id LIMIT :limit) "
            + "UPDATE export_jobs j SET claim = j.claim + 1, lease_until = :leaseUntil FROM chosen c WHERE j.id = c.id "
            + "RETURNING j.*";

    private final Handle handle;

    JdbiExports(Handle handle) {
        this.handle = handle;
    }

    @Override
    public void insert(ExportJob job) {
        bind(handle.createUpdate("INSERT INTO export_jobs (id, org_id, status, format, wallet_id, from_ts, to_ts, "
                + "file_path, row_count, created_at, completed_at, expires_at) VALUES (:id, :org, :status, :format, :wallet, "
                + ":from, :to, :file, :rows, :createdAt, :completedAt, :expiresAt)"), job).execute();
    }

    @Override
    public Optional<ExportJob> find(OrgId orgId, ExportId id) {
        return handle.createQuery("SELECT * FROM export_jobs WHERE id = :id AND org_id = :org")
                .bind("id", id.value()).bind("org", orgId.value()).map(ROW).findOne();
    }

    @Override
    public Page<ExportJob> list(OrgId orgId, PageRequest page) {
        return Listing.page(handle, "export_jobs", orgId.value(), "TRUE", q -> {
        }, page, ROW, ExportJob::createdAt, job -> job.id().value());
    }

    @Override
    public List<Claimed> claim(Instant now, Instant leaseUntil, int perOrganisation, int limit) {
        handle.createQuery("SELECT 1 FROM pg_advisory_xact_lock(:key)").bind("key", CLAIM_LOCK).mapTo(Integer.class).one();
        return handle.createQuery(CLAIM).bind("now", Rows.timestamp(now)).bind("leaseUntil", Rows.timestamp(leaseUntil))
                .bind("perOrganisation", perOrganisation).bind("limit", limit)
                .map((rs, ctx) -> new Claimed(ROW.map(rs, ctx), rs.getLong("claim"))).list().stream()
                .sorted(Comparator.comparing((Claimed c) -> c.job().createdAt()).thenComparing(c -> c.job().id().value()))
                .toList();
    }

    @Override
    public boolean renew(Claimed claimed, Instant leaseUntil) {
        return handle.createUpdate("UPDATE export_jobs SET lease_until = :leaseUntil WHERE id = :id AND claim = :claim "
                        + "AND status = 'pending'").bind("leaseUntil", Rows.timestamp(leaseUntil))
                .bind("id", claimed.job().id().value()).bind("claim", claimed.claim()).execute() == 1;
    }

    @Override
    public boolean finish(Claimed claimed, ExportJob next) {
        return bind(handle.createUpdate("UPDATE export_jobs SET status = :status, file_path = :file, row_count = :rows, "
                + "completed_at = :completedAt, expires_at = :expiresAt, lease_until = NULL "
                + "WHERE id = :id AND org_id = :org AND claim = :claim AND status = 'pending'"), next)
                .bind("claim", claimed.claim()).execute() == 1;
    }

    @Override
    public List<ExportJob> claimExpired(Instant now, int limit) {
        return handle.createQuery("SELECT * FROM export_jobs WHERE status = 'ready' AND expires_at <= :now "
                        + "ORDER BY expires_at, id LIMIT :limit FOR NO KEY UPDATE SKIP LOCKED")
                .bind("now", Rows.timestamp(now)).bind("limit", limit).map(ROW).list();
    }

    @Override
    public void update(ExportJob job) {
        bind(handle.createUpdate("UPDATE export_jobs SET status = :status, file_path = :file, row_count = :rows, "
                + "completed_at = :completedAt, expires_at = :expiresAt WHERE id = :id AND org_id = :org"), job).execute();
    }

    private static <S extends SqlStatement<S>> S bind(S statement, ExportJob job) {
        return statement
                .bind("id", job.id().value())
                .bind("org", job.orgId().value())
                .bind("status", job.status().wireName())
                .bind("format", job.format().wireName())
                .bind("wallet", job.walletId().map(WalletId::value).orElse(null))
                .bind("from", Rows.timestamp(job.from()))
                .bind("to", Rows.timestamp(job.to()))
                .bind("file", job.filePath().orElse(null))
                .bind("rows", job.rowCount().orElse(null))
                .bind("createdAt", Rows.timestamp(job.createdAt()))
                .bind("completedAt", Rows.timestamp(job.completedAt()))
                .bind("expiresAt", Rows.timestamp(job.expiresAt()));
    }
}
