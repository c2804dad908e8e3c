package com.agentwallet.core.export;

import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A requested export of the transaction history, filtered by wallet and by creation time
 * ({@code from} inclusive, {@code to} exclusive, as the history list filters). A ready job has its
 * file and row count; a finished job (ready or failed) has its completion time.
 */
public record ExportJob(
        ExportId id,
        OrgId orgId,
        ExportStatus status,
        ExportFormat format,
        Optional<WalletId> walletId,
        Optional<Instant> from,
        Optional<Instant> to,
        Optional<String> filePath,
        Optional<Long> rowCount,
        Instant createdAt,
        Optional<Instant> completedAt) {

    public ExportJob {
        requireNonNull(id, "id is null");
        requireNonNull(orgId, "orgId is null");
        requireNonNull(status, "status is null");
        requireNonNull(format, "format is null");
        requireNonNull(walletId, "walletId is null");
        requireNonNull(from, "from is null");
        requireNonNull(to, "to is null");
        requireNonNull(filePath, "filePath is null");
        requireNonNull(rowCount, "rowCount is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(completedAt, "completedAt is null");
        if ((status == ExportStatus.READY) != (filePath.isPresent() && rowCount.isPresent())) {
            throw new IllegalArgumentException("a job has its file and row count exactly when it is ready");
        }
        if ((status == ExportStatus.PENDING) == completedAt.isPresent()) {
            throw new IllegalArgumentException("a job has its completion time exactly when it is finished");
        }
    }

    /** A new job, waiting for the generator. */
    public static ExportJob pending(ExportId id, OrgId orgId, ExportFormat format, Optional<WalletId> walletId,
                                    Optional<Instant> from, Optional<Instant> to, Instant now) {
        return new ExportJob(id, orgId, ExportStatus.PENDING, format, walletId, from, to, Optional.empty(),
                Optional.empty(), now, Optional.empty());
    }

    public ExportJob ready(String file, long rows, Instant now) {
        return new ExportJob(id, orgId, ExportStatus.READY, format, walletId, from, to, Optional.of(file),
                Optional.of(rows), createdAt, Optional.of(now));
    }

    public ExportJob failed(Instant now) {
        return new ExportJob(id, orgId, ExportStatus.FAILED, format, walletId, from, to, Optional.empty(),
                Optional.empty(), createdAt, Optional.of(now));
    }
}
