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

import java.util.List;
import java.util.Optional;

final class JdbiExports implements ExportStore {
    private static final RowMapper<ExportJob> ROW = (rs, ctx) -> new ExportJob(new ExportId(rs.getString("id")),
            new OrgId(rs.getString("org_id")), ExportStatus.fromWire(rs.getString("status"), "status"),
            ExportFormat.fromWire(rs.getString("format"), "format"),
            Rows.optionalString(rs, "wallet_id").map(WalletId::new), Rows.optionalInstant(rs, "from_ts"),
            Rows.optionalInstant(rs, "to_ts"), Rows.optionalString(rs, "file_path"), Rows.optionalLong(rs, "row_count"),
            Rows.instant(rs, "created_at"), Rows.optionalInstant(rs, "completed_at"));

    private final Handle handle;

    JdbiExports(Handle handle) {
        this.handle = handle;
    }

    @Override
    public void insert(ExportJob job) {
        bind(handle.createUpdate("INSERT INTO export_jobs (id, org_id, status, format, wallet_id, from_ts, to_ts, "
                + "file_path, row_count, created_at, completed_at) VALUES (:id, :org, :status, :format, :wallet, :from, "
                + ":to, :file, :rows, :createdAt, :completedAt)"), job).execute();
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
    public List<ExportJob> pending(int limit) {
        return pending(limit, "");
    }

    /** {@code SKIP LOCKED}: a job another generator holds is passed over, not waited for. */
    @Override
    public List<ExportJob> claimPending(int limit) {
        return pending(limit, " FOR NO KEY UPDATE SKIP LOCKED");
    }

    @Override
    public Optional<ExportJob> claim(ExportId id) {
        return handle.createQuery("SELECT * FROM export_jobs WHERE id = :id AND status = 'pending' "
                + "FOR NO KEY UPDATE SKIP LOCKED").bind("id", id.value()).map(ROW).findOne();
    }

    private List<ExportJob> pending(int limit, String lock) {
        return handle.createQuery("SELECT * FROM export_jobs WHERE status = 'pending' ORDER BY created_at, id LIMIT :limit"
                + lock).bind("limit", limit).map(ROW).list();
    }

    @Override
    public void update(ExportJob job) {
        bind(handle.createUpdate("UPDATE export_jobs SET status = :status, file_path = :file, row_count = :rows, "
                + "completed_at = :completedAt WHERE id = :id AND org_id = :org"), job).execute();
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
                .bind("completedAt", Rows.timestamp(job.completedAt()));
    }
}
