package com.agentwallet.core.export;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.port.Storage;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** Use cases of exports: request one and read it. The file is written later, outside the request. */
public final class ExportService {
    private final Storage storage;
    private final IdGenerator ids;
    private final Clock clock;

    public ExportService(Storage storage, IdGenerator ids, Clock clock) {
        this.storage = requireNonNull(storage, "storage is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** A pending job for the organisation's history, optionally of one of its wallets and a time range. */
    public Result<ExportJob> request(OrgId orgId, ExportFormat format, Optional<WalletId> walletId,
                                     Optional<Instant> from, Optional<Instant> to) {
        requireNonNull(format, "format is null");
        ValidationException.check(from.isEmpty() || to.isEmpty() || !from.get().isAfter(to.get()), "from",
                "'from' must not be after 'to'");
        return storage.inTransaction(stores -> {
            Optional<WalletId> unknown = walletId.filter(id -> stores.wallets().find(orgId, id).isEmpty());
            if (unknown.isPresent()) {
                return Result.refused(new Rejection.NotFound("wallet", unknown.get().value()));
            }
            ExportJob job = ExportJob.pending(ids.export(), orgId, format, walletId, from, to, clock.instant());
            stores.exports().insert(job);
            return Result.ok(job);
        });
    }

    public Result<ExportJob> get(OrgId orgId, ExportId exportId) {
        return storage.inTransaction(stores -> Result.found(stores.exports().find(orgId, exportId), "export", exportId));
    }
}
