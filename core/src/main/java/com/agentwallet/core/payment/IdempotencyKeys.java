package com.agentwallet.core.payment;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The idempotency keys of payments, the one place that reads and writes them. A key is locked with
 * the payment's wallet before its payment is booked ({@link com.agentwallet.core.port.Claim.Booking}),
 * so two requests with one key run one after the other. Its record keeps the first request's
 * fingerprint, the transaction it made, and the payment as it was answered, as typed data: a replay
 * answers that, rendered by whoever renders payments. The answer is kept in the unit of work that
 * ends the request's part of the payment (booking it for a co-signature, or applying the ledger's
 * outcome), or in one of its own when the ledger's answer was unknown. Keys are kept 24 h.
 */
public final class IdempotencyKeys {
    private final Storage storage;
    private final Clock clock;

    public IdempotencyKeys(Storage storage, Clock clock) {
        this.storage = requireNonNull(storage, "storage is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * The first use of the command's key, its key locked: none for a command without a key or with a
     * key not used yet (or used before its retention, then forgotten); refused when the first request
     * was another ({@code idempotency_conflict}).
     */
    Optional<Result<IdempotencyRecord>> firstUse(Stores stores, PayCommand command) {
        if (command.idempotencyKey().isEmpty()) {
            return Optional.empty();
        }
        String key = command.idempotencyKey().get();
        Optional<IdempotencyRecord> found = stores.idempotency().find(command.orgId(), key);
        if (found.isPresent() && !found.get().isLiveAt(clock.instant())) {
            stores.idempotency().delete(command.orgId(), key);
            return Optional.empty();
        }
        return found.map(record -> record.fingerprint().equals(command.fingerprint()) ? Result.ok(record)
                : Result.refused(new Rejection.IdempotencyConflict(key)));
    }

    /**
     * Records the command's key as used by {@code tx}, just made. A payment that waits for its
     * co-signature is answered as it is now, so its answer is kept with it.
     */
    void use(Stores stores, PayCommand command, Transaction tx) {
        command.idempotencyKey().ifPresent(key -> {
            IdempotencyRecord used = IdempotencyRecord.firstUse(command.orgId(), key, command.fingerprint(), tx.id(),
                    clock.instant());
            stores.idempotency().insert(tx.status() == TransactionStatus.PENDING_CO_SIGN
                    ? used.withAnswer(IdempotencyRecord.Answer.of(tx)) : used);
        });
    }

    /** Keeps the payment {@code answered} as the command's request answers it, in the unit of work at hand. */
    void answered(Stores stores, PayCommand command, Transaction answered) {
        command.idempotencyKey().ifPresent(key -> stores.idempotency().keepAnswer(command.orgId(), key,
                IdempotencyRecord.Answer.of(answered)));
    }

    /** {@link #answered} in a unit of work of its own. */
    void answeredAlone(PayCommand command, Transaction answered) {
        if (command.idempotencyKey().isPresent()) {
            storage.inTransaction(stores -> {
                answered(stores, command, answered);
                return null;
            });
        }
    }

    /**
     * Clockwork: forgets up to {@code limit} keys past their 24 h retention, so that the table holds
     * one day of keys; answers how many.
     */
    public int forgetExpired(int limit) {
        return storage.inTransaction(stores -> stores.idempotency()
                .deleteCreatedBefore(clock.instant().minus(IdempotencyRecord.RETENTION), limit));
    }
}
