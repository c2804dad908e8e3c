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
 * file; a ready or expired one its row count and the time its file is (or was) deleted; a finished
 * job (ready, failed or expired) has its completion time.
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
        Optional<Instant> completedAt,
        Optional<Instant> expiresAt) {

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
        requireNonNull(expiresAt, "expiresAt is null");
        if ((status == ExportStatus.READY) != filePath.isPresent()) {
            throw new IllegalArgumentException("a job has its file exactly when it is ready");
        }
        boolean written = status == ExportStatus.READY || status == ExportStatus.EXPIRED;
        if (written != (rowCount.isPresent() && expiresAt.isPresent())) {
            throw new IllegalArgumentException("a job has its row count and expiry exactly when it is ready or expired");
        }
        if ((status == ExportStatus.PENDING) == completedAt.isPresent()) {
            throw new IllegalArgumentException("a job has its completion time exactly when it is finished");
        }
    }

    /** A new job, waiting for the generator. */
    public static ExportJob pending(ExportId id, OrgId orgId, ExportFormat format, Optional<WalletId> walletId,
                                    Optional<Instant> from, Optional<Instant> to, Instant now) {
        return new ExportJob(id, orgId, ExportStatus.PENDING, format, walletId, from, to, Optional.empty(),
                Optional.empty(), now, Optional.empty(), Optional.empty());
    }

    /** Its file written at {@code now}, kept until {@code expiresAt}. */
    public ExportJob ready(String file, long rows, Instant now, Instant expiresAt) {
        return new ExportJob(id, orgId, ExportStatus.READY, format, walletId, from, to, Optional.of(file),
                Optional.of(rows), createdAt, Optional.of(now), Optional.of(expiresAt));
    }

    public ExportJob failed(Instant now) {
        return new ExportJob(id, orgId, ExportStatus.FAILED, format, walletId, from, to, Optional.empty(),
                Optional.empty(), createdAt, Optional.of(now), Optional.empty());
    }

    /** A ready job whose file is deleted: its row count and times stay. */
    public ExportJob expired() {
        if (status != ExportStatus.READY) {
            throw new IllegalStateException("only a ready export expires, not a " + status.wireName() + " one");
        }
        return new ExportJob(id, orgId, ExportStatus.EXPIRED, format, walletId, from, to, Optional.empty(), rowCount,
                createdAt, completedAt, expiresAt);
    }
}
