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
import com.agentwallet.core.port.ExportStore;
import com.agentwallet.core.port.ExportWriter;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.StorageUnavailableException;
import com.agentwallet.core.port.TransactionStore;

import java.time.Clock;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Use cases of exports: request one and read it; the clockwork's generators write the files later,
 * outside the request ({@link #generateOne}), and delete them once kept for the retention
 * ({@link #expireReady}).
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
    private final ExportSettings settings;
    private final Clock clock;

    /** {@code writers}: one for every format. */
    public ExportService(Storage storage, EventPublisher events, ExportFiles files, List<ExportWriter> writers,
                         IdGenerator ids, ExportSettings settings, Clock clock) {
        this.storage = requireNonNull(storage, "storage is null");
        this.events = requireNonNull(events, "events is null");
        this.files = requireNonNull(files, "files is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.settings = requireNonNull(settings, "settings is null");
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
     * Generates up to {@code limit} pending jobs, fairly across organisations, and answers how many it
     * finished. See {@link #generateOne}.
     */
    public int generatePending(int limit) {
        int finished = 0;
        while (finished < limit && generateOne()) {
            finished++;
        }
        return finished;
    }

    /**
     * Generates one waiting job, if there is one its organisation may start now (at most
     * {@link ExportSettings#RUNNING_PER_ORGANISATION} of an organisation at once); false when there
     * is none. The job is claimed with a lease in a short transaction, its file written outside any
     * transaction (the history read a page at a time, the lease renewed as it goes), then it is made
     * {@code ready} and {@code export.ready} announced in another short transaction. Nothing is
     * locked meanwhile, so a long file holds up no other work. A job whose generation fails is made
     * {@code failed}, its file removed; one whose books are unavailable is left to be claimed again
     * once its lease runs out.
     */
    public boolean generateOne() {
        Instant now = clock.instant();
        Optional<ExportStore.Claimed> next = storage.inTransaction(stores -> stores.exports()
                .claim(now, now.plus(settings.lease()), ExportSettings.RUNNING_PER_ORGANISATION, 1)).stream().findFirst();
        next.ifPresent(this::generate);
        return next.isPresent();
    }

    private void generate(ExportStore.Claimed claimed) {
        ExportJob job = claimed.job();
        ExportJob ready;
        try {
            ready = write(claimed);
        } catch (ClaimLostException e) {
            LOG.log(System.Logger.Level.INFO, e.getMessage());
            return;
        } catch (StorageUnavailableException e) {
            throw e;
        } catch (RuntimeException failure) {
            LOG.log(System.Logger.Level.WARNING, "Export " + job.id() + " failed", failure);
            fail(claimed);
            return;
        }
        boolean finished = storage.inTransaction(stores -> {
            boolean ours = stores.exports().finish(claimed, ready);
            if (ours) {
                events.publish(stores, new DomainEvent.ExportReady(ready));
            }
            return ours;
        });
        if (!finished) {
            LOG.log(System.Logger.Level.INFO, "Export " + job.id() + " was taken over by another generator");
        }
    }

    /**
     * Streams the job's transactions, newest first and a page at a time (each page a read of its
     * own), into its file; renews the lease whenever half of it has passed.
     */
    private ExportJob write(ExportStore.Claimed claimed) {
        ExportJob job = claimed.job();
        TransactionStore.Query query = new TransactionStore.Query(job.walletId(), Optional.empty(), Optional.empty(),
                job.from(), job.to());
        Instant renewAt = clock.instant().plus(settings.lease().dividedBy(2));
        try (ExportFiles.Output output = files.create(job.id(), job.format())) {
            ExportWriter.Rows rows = writers.get(job.format()).begin(output.stream());
            long count = 0;
            Optional<String> cursor = Optional.empty();
            do {
                PageRequest request = new PageRequest(PAGE, cursor);
                Page<Transaction> page = storage.readOne(stores -> stores.transactions().list(job.orgId(), query, request));
                page.data().forEach(rows::row);
                count += page.data().size();
                cursor = page.nextCursor();
                Instant now = clock.instant();
                if (!now.isBefore(renewAt)) {
                    renew(claimed, now);
                    renewAt = now.plus(settings.lease().dividedBy(2));
                }
            } while (cursor.isPresent());
            rows.end();
            String file = output.finish();
            Instant now = clock.instant();
            return job.ready(file, count, now, now.plus(settings.retention()));
        }
    }

    private void renew(ExportStore.Claimed claimed, Instant now) {
        if (!storage.inTransaction(stores -> stores.exports().renew(claimed, now.plus(settings.lease())))) {
            throw new ClaimLostException(claimed.job().id());
        }
    }

    /** Makes a job whose generation failed {@code failed}, unless another generator took it over meanwhile. */
    private void fail(ExportStore.Claimed claimed) {
        ExportJob job = claimed.job();
        storage.inTransaction(stores -> {
            if (stores.exports().finish(claimed, job.failed(clock.instant()))) {
                try {
                    files.delete(job.id(), job.format());
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "The file of failed export " + job.id()
                            + " could not be removed; it is never served", e);
                }
            }
            return null;
        });
    }

    /**
     * Deletes the files of up to {@code limit} ready jobs kept for the retention and makes them
     * {@code expired}; answers how many. Each file is deleted before its job's change commits, so an
     * expired job never has a file left behind (a failed commit leaves the job ready and past its
     * time, and it is expired again next round).
     */
    public int expireReady(int limit) {
        return storage.inTransaction(stores -> {
            List<ExportJob> due = stores.exports().claimExpired(clock.instant(), limit);
            for (ExportJob job : due) {
                files.delete(job.id(), job.format());
                stores.exports().update(job.expired());
            }
            return due.size();
        });
    }

    /** Another generator claimed the job while this one wrote it (its lease ran out): this one gives up, quietly. */
    private static final class ClaimLostException extends RuntimeException {
        ClaimLostException(ExportId id) {
            super("The claim on export " + id + " was lost; another generator writes it");
        }
    }
}
