package com.agentwallet.core.export;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.port.ExportFiles;
import com.agentwallet.core.port.ExportWriter;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.port.TransactionStore;

import java.time.Clock;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.Objects.requireNonNull;

/**
 * Use cases of exports: request one and read it; the clockwork's {@link #generatePending} writes
 * the files later, outside the request.
 */
public final class ExportService {
    /** Transactions read per page while a file is written: the most a page holds. */
    static final int PAGE = PageRequest.MAX_LIMIT;
    private static final System.Logger LOG = System.getLogger(ExportService.class.getName());

    private final Storage storage;
    private final EventPublisher events;
    private final ExportFiles files;
    private final Map<ExportFormat, ExportWriter> writers = new EnumMap<>(ExportFormat.class);
    private final IdGenerator ids;
    private final Clock clock;

    /** {@code writers}: one for every format. */
    public ExportService(Storage storage, EventPublisher events, ExportFiles files, List<ExportWriter> writers,
                         IdGenerator ids, Clock clock) {
        this.storage = requireNonNull(storage, "storage is null");
        this.events = requireNonNull(events, "events is null");
        this.files = requireNonNull(files, "files is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.clock = requireNonNull(clock, "clock is null");
        writers.forEach(writer -> this.writers.put(writer.format(), writer));
        for (ExportFormat format : ExportFormat.values()) {
            if (!this.writers.containsKey(format)) {
                throw new IllegalArgumentException("no export writer for " + format.wireName());
            }
        }
    }

    /**
     * A pending job for the organisation's history, optionally of one of its wallets and a time range. A
     * replay of {@code key} answers the job it made, as it is now.
     */
    public Result<ExportJob> request(OrgId orgId, ExportFormat format, Optional<WalletId> walletId,
                                     Optional<Instant> from, Optional<Instant> to, RequestKey key) {
        requireNonNull(format, "format is null");
        ValidationException.check(from.isEmpty() || to.isEmpty() || !from.get().isAfter(to.get()), "from",
                "'from' must not be after 'to'");
        return storage.inTransaction(stores -> key.once(stores, clock.instant(), () -> {
            Optional<WalletId> unknown = walletId.filter(id -> stores.wallets().find(orgId, id).isEmpty());
            if (unknown.isPresent()) {
                return Result.refused(new Rejection.NotFound("wallet", unknown.get().value()));
            }
            ExportJob job = ExportJob.pending(ids.export(), orgId, format, walletId, from, to, clock.instant());
            stores.exports().insert(job);
            return Result.ok(job);
        }, job -> job.id().value(), subject -> Result.found(stores.exports().find(orgId, new ExportId(subject)),
                "export", new ExportId(subject))));
    }

    public Result<ExportJob> get(OrgId orgId, ExportId exportId) {
        return storage.inTransaction(stores -> Result.found(stores.exports().find(orgId, exportId), "export", exportId));
    }

    /** The organisation's exports in every status, newest first. */
    public Page<ExportJob> list(OrgId orgId, PageRequest page) {
        return storage.readOne(stores -> stores.exports().list(orgId, page));
    }

    /**
     * Generates up to {@code limit} pending jobs, oldest first, and answers how many it finished.
     * Each job is claimed in a storage transaction of its own, which holds it while its file is
     * written (so that generators sharing the books never take one job twice, and a job whose
     * generator dies is taken again) and, in the same transaction, makes it {@code ready} and
     * announces {@code export.ready}. A job whose generation fails is made {@code failed}, its file
     * removed.
     */
    public int generatePending(int limit) {
        int finished = 0;
        while (finished < limit && generateNext()) {
            finished++;
        }
        return finished;
    }

    /** Generates the oldest pending job nobody holds; false when there is none. */
    private boolean generateNext() {
        AtomicReference<ExportJob> claimed = new AtomicReference<>();
        try {
            return storage.inTransaction(stores -> {
                Optional<ExportJob> next = stores.exports().claimPending(1).stream().findFirst();
                next.ifPresent(job -> {
                    claimed.set(job);
                    ExportJob ready = write(stores, job);
                    stores.exports().update(ready);
                    events.publish(stores, new DomainEvent.ExportReady(ready));
                });
                return next.isPresent();
            });
        } catch (RuntimeException failure) {
            ExportJob job = claimed.get();
            if (job == null) {
                throw failure;
            }
            LOG.log(System.Logger.Level.WARNING, "Export " + job.id() + " failed", failure);
            fail(job);
            return true;
        }
    }

    /** Streams the job's transactions, newest first and a page at a time, into its file. */
    private ExportJob write(Stores stores, ExportJob job) {
        TransactionStore.Query query = new TransactionStore.Query(job.walletId(), Optional.empty(), Optional.empty(),
                job.from(), job.to());
        try (ExportFiles.Output output = files.create(job.id(), job.format())) {
            ExportWriter.Rows rows = writers.get(job.format()).begin(output.stream());
            long count = 0;
            Optional<String> cursor = Optional.empty();
            do {
                Page<Transaction> page = stores.transactions().list(job.orgId(), query, new PageRequest(PAGE, cursor));
                page.data().forEach(rows::row);
                count += page.data().size();
                cursor = page.nextCursor();
            } while (cursor.isPresent());
            rows.end();
            return job.ready(output.finish(), count, clock.instant());
        }
    }

    /** Makes a job whose generation failed {@code failed}, unless another generator holds or finished it. */
    private void fail(ExportJob job) {
        storage.inTransaction(stores -> {
            stores.exports().claim(job.id()).ifPresent(pending -> {
                stores.exports().update(pending.failed(clock.instant()));
                try {
                    files.delete(job.id(), job.format());
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "The file of failed export " + job.id()
                            + " could not be removed; it is never served", e);
                }
            });
            return null;
        });
    }
}
