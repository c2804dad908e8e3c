package com.agentwallet.core.payment;

import com.agentwallet.core.CoreSettings;
import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Repeat;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Transition;
import com.agentwallet.core.crypto.Ed25519;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.policy.Decision;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;

import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/** Use cases of payments: pay (and its dry run), co-sign, reject, co-sign expiry, and reading history. */
public final class PaymentService {
    /**
     * Payments booked together at most: enough to share one commit and one statement per kind among
     * all the clients of a busy organisation, few enough that the wallets' locks are not held long.
     */
    static final int MAX_BATCH = 32;

    private final Storage storage;
    private final LedgerPort ledger;
    private final Spending spending;
    private final Settlement settlement;
    private final EventPublisher events;
    private final IdGenerator ids;
    private final Clock clock;
    private final CoreSettings settings;
    /** Phase one, payments of one organisation arriving together booked in one transaction. */
    private final GroupCommit<OrgId, Booking, Result<Accepted>> phaseOne = new GroupCommit<>(MAX_BATCH, this::book);

    public PaymentService(Storage storage, LedgerPort ledger, Spending spending, Settlement settlement,
                          EventPublisher events, IdGenerator ids, Clock clock, CoreSettings settings) {
        this.storage = requireNonNull(storage, "storage is null");
        this.ledger = requireNonNull(ledger, "ledger is null");
        this.spending = requireNonNull(spending, "spending is null");
        this.settlement = requireNonNull(settlement, "settlement is null");
        this.events = requireNonNull(events, "events is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.settings = requireNonNull(settings, "settings is null");
    }

    /**
     * Pays from a wallet: checks and debit in one database transaction, then the ledger. A blocked
     * payment is recorded and refused with its violation; a repeated idempotency key with the same
     * request answers the first payment (finishing it if it was left pending), with the first
     * response once that is recorded.
     */
    public Result<PaymentResult> pay(PayCommand command) {
        return pay(command, Optional.empty());
    }

    /**
     * {@link #pay(PayCommand)}, answered by {@code answer}: with an idempotency key, the answer to
     * the payment as it ends is recorded with the key, in the database transaction that applies the
     * ledger's outcome when there is one, so that a replay answers exactly the same.
     *
     * <p>The settlement of the new payment's id is held from before the payment exists until its
     * outcome is applied: no replay or recovery can settle it meanwhile, so it goes to the ledger
     * from what was just written, without reading it back.
     */
    public Result<PaymentResult> pay(PayCommand command, Optional<Function<Transaction, RecordedResponse>> answer) {
        TxId id = ids.tx();
        Result<Accepted> accepted = settlement.holding(id, () -> phaseOne.submit(command.orgId(), new Booking(command, id))
                .map(done -> done.instruction().map(instruction -> done.settled(settlement.settleCreated(done.tx(),
                        instruction, (stores, settled) -> answer.filter(a -> command.idempotencyKey().isPresent())
                                .map(a -> remember(stores, command, a.apply(settled))))))
                        .orElse(done)));
        return accepted.map(done -> {
            done.topup().ifPresent(topup -> settlement.settle(topup.orgId(), topup.id()));
            if (done.replayed()) {
                return new PaymentResult(settlement.settle(done.tx().orgId(), done.tx().id()), true, done.response());
            }
            Optional<RecordedResponse> response = done.response()
                    .or(() -> answer.map(a -> answeredLater(command, a.apply(done.tx()))));
            return new PaymentResult(done.tx(), false, response);
        });
    }

    /**
     * Phase one of a batch of payments of one organisation, in one database transaction: their
     * idempotency keys locked first, in the global order of keys, then their wallets, in the order of
     * their ids, then each payment in turn.
     */
    private List<Result<Accepted>> book(List<Booking> bookings) {
        OrgId orgId = bookings.get(0).command().orgId();
        return storage.inTransaction(stores -> {
            stores.idempotency().lockAll(orgId,
                    bookings.stream().flatMap(b -> b.command().idempotencyKey().stream()).toList());
            stores.wallets().lockAll(orgId, bookings.stream().map(b -> b.command().walletId()).toList());
            return bookings.stream().map(b -> accept(stores, b.command(), b.id())).toList();
        });
    }

    /**
     * Phase one of one payment, its idempotency key locked, under the wallet's lock: a replay of the
     * key, or the checks and, unless blocked, the debit of a new transaction {@code id}. The checks
     * see every payment booked before it, in the same batch too.
     */
    private Result<Accepted> accept(Stores stores, PayCommand command, TxId id) {
        Optional<Wallet> wallet = stores.wallets().lock(command.orgId(), command.walletId());
        if (wallet.isEmpty()) {
            return Result.refused(new Rejection.NotFound("wallet", command.walletId().value()));
        }
        Optional<Result<Accepted>> replay = replay(stores, command);
        if (replay.isPresent()) {
            return replay.get();
        }
        Instant now = clock.instant();
        return spending.evaluate(stores, wallet.get(), command.session(), command.amount(), command.to(),
                command.kind(), now).flatMap(attempt -> {
            Transaction opened = Transaction.open(id, command.orgId(), command.walletId(),
                    TransactionType.PAYMENT, TransactionStatus.PENDING, command.amount(), command.to(), now)
                    .withMemo(command.memo());
            if (attempt.decision() instanceof Decision.Blocked blocked) {
                remember(stores, command, spending.recordBlocked(stores, attempt, opened, now));
                return Result.refused(new Rejection.PolicyViolated(blocked.violation()));
            }
            Transaction tx = attempt.decision() instanceof Decision.NeedsCoSign needs
                    ? awaitCoSign(opened, needs.coSigner(), command.initiator(), attempt.wallet(), now)
                    : opened;
            Optional<Transaction> topup = spending.debit(stores, attempt, tx, now);
            remember(stores, command, tx);
            events.publish(stores, tx.status() == TransactionStatus.PENDING_CO_SIGN
                    ? new DomainEvent.TransactionCoSignRequired(tx, now)
                    : new DomainEvent.TransactionPending(tx, now));
            Optional<LedgerInstruction> instruction = tx.status() == TransactionStatus.PENDING
                    ? Optional.of(PaymentMovement.payInstruction(tx, attempt.wallet())) : Optional.empty();
            return Result.ok(new Accepted(tx, false, Optional.empty(), topup, instruction));
        });
    }

    /** The dry run: what {@link #pay} would decide, with nothing recorded, moved or announced. */
    public Result<Decision> decide(PayCommand command) {
        return storage.inTransaction(stores -> Result.found(
                        stores.wallets().find(command.orgId(), command.walletId()), "wallet", command.walletId())
                .flatMap(wallet -> spending.evaluate(stores, wallet, command.session(), command.amount(),
                        command.to(), command.kind(), clock.instant()))
                .map(Spending.Attempt::decision));
    }

    /**
     * The operator's co-signature: verified against the co-signer key the payment was made under,
     * then the payment goes to the ledger. A wrong signature changes nothing, and neither does an
     * approval by the credential that made the payment.
     */
    public Result<Transaction> coSign(OrgId orgId, TxId txId, String signature, Actor approver) {
        Result<Transaction> signed = storage.inTransaction(stores -> Result.found(
                stores.transactions().lock(orgId, txId), "transaction", txId).flatMap(tx -> {
            Instant now = clock.instant();
            if (tx.status() != TransactionStatus.PENDING_CO_SIGN) {
                return TransactionMachine.apply(tx, new TransactionCommand.CoSigned(signature), now).map(Transition::state);
            }
            if (madeBy(tx, approver)) {
                return Result.refused(new Rejection.SameCredential());
            }
            CoSign coSign = tx.coSign().orElseThrow();
            if (!Ed25519.verify(coSign.coSigner(), Base64.getDecoder().decode(coSign.payload()), signature)) {
                return Result.refused(new Rejection.InvalidInput("signature",
                        "The signature is not a valid Ed25519 signature of co_sign_payload by the policy's co_signer"));
            }
            Wallet wallet = stores.wallets().lock(orgId, tx.walletId()).orElseThrow();
            if (wallet.status() != WalletStatus.ACTIVE) {
                return Result.refused(new Rejection.InvalidState("Wallet " + wallet.id() + " is "
                        + wallet.status().wireName() + "; reject the payment or unfreeze the wallet"));
            }
            return step(stores, tx, new TransactionCommand.CoSigned(signature), now);
        }));
        return signed.map(tx -> settlement.settle(orgId, tx.id()));
    }

    /**
     * The operator declines to co-sign: the payment ends {@code rejected} and its hold goes back. The
     * credential that made the payment cannot reject it either: that is the co-signer's decision.
     */
    public Result<Transaction> reject(OrgId orgId, TxId txId, String reason, Actor rejecter) {
        return storage.inTransaction(stores -> Result.found(stores.transactions().lock(orgId, txId), "transaction", txId)
                .flatMap(tx -> madeBy(tx, rejecter) ? Result.refused(new Rejection.SameCredential())
                        : endHeld(stores, tx, new TransactionCommand.Reject(reason))));
    }

    /** Whether {@code actor} is the credential that made this payment waiting for its co-signature. */
    private static boolean madeBy(Transaction tx, Actor actor) {
        return tx.status() == TransactionStatus.PENDING_CO_SIGN
                && tx.coSign().flatMap(CoSign::requestedBy).equals(Optional.of(actor));
    }

    /**
     * Clockwork: up to {@code limit} payments nobody co-signed within the window end {@code expired},
     * each claimed in a transaction of its own; their holds go back. Answers how many.
     */
    public int expireCoSigns(int limit) {
        return Repeat.upTo(limit, () -> storage.inTransaction(stores -> stores.transactions()
                .claimCoSignExpired(clock.instant())
                .map(tx -> endHeld(stores, tx, new TransactionCommand.ExpireCoSign()).value())
                .isPresent()));
    }

    /**
     * Clockwork: forgets up to {@code limit} idempotency keys past their 24 h retention, so that the
     * table holds one day of keys; answers how many.
     */
    public int forgetExpiredIdempotencyKeys(int limit) {
        return storage.inTransaction(stores -> stores.idempotency()
                .deleteCreatedBefore(clock.instant().minus(IdempotencyRecord.RETENTION), limit));
    }

    public Result<Transaction> get(OrgId orgId, TxId txId) {
        return storage.readOne(stores -> Result.found(stores.transactions().find(orgId, txId), "transaction", txId));
    }

    public Page<Transaction> list(OrgId orgId, TransactionStore.Query query, PageRequest page) {
        return storage.readOne(stores -> stores.transactions().list(orgId, query, page));
    }

    /**
     * Keeps the response the first request with this key was answered with, so that replays answer it
     * again. The first response recorded stays; a key without a record (a request refused without
     * being recorded) keeps nothing. Returns whether the response was kept.
     */
    public boolean recordResponse(OrgId orgId, String key, RecordedResponse response) {
        requireNonNull(response, "response is null");
        return storage.inTransaction(stores -> stores.idempotency().recordResponse(orgId, key, response));
    }

    private Optional<Result<Accepted>> replay(Stores stores, PayCommand command) {
        if (command.idempotencyKey().isEmpty()) {
            return Optional.empty();
        }
        String key = command.idempotencyKey().get();
        Optional<IdempotencyRecord> found = stores.idempotency().find(command.orgId(), key);
        if (found.isPresent() && !found.get().isLiveAt(clock.instant())) {
            stores.idempotency().delete(command.orgId(), key);
            return Optional.empty();
        }
        return found.map(record -> {
                    if (!record.fingerprint().equals(command.fingerprint())) {
                        return Result.refused(new Rejection.IdempotencyConflict(key));
                    }
                    Transaction first = stores.transactions().find(command.orgId(), record.txId()).orElseThrow();
                    return first.violation().<Result<Accepted>>map(
                                    violation -> Result.refused(new Rejection.PolicyViolated(violation)))
                            .orElseGet(() -> Result.ok(new Accepted(first, true, record.response(), Optional.empty(),
                                    Optional.empty())));
                });
    }

    private void remember(Stores stores, PayCommand command, Transaction tx) {
        command.idempotencyKey().ifPresent(key -> stores.idempotency().insert(
                IdempotencyRecord.firstUse(command.orgId(), key, command.fingerprint(), tx.id(), clock.instant())));
    }

    /**
     * The answer to a payment whose answer was not recorded with its outcome: without a key (nothing
     * to record, so it is rendered outside any transaction), or whose outcome was not applied in this
     * request (it waits for a co-signature, or the ledger's answer is unknown), recorded with the key
     * in a transaction of its own.
     */
    private RecordedResponse answeredLater(PayCommand command, RecordedResponse answer) {
        command.idempotencyKey().ifPresent(key -> recordResponse(command.orgId(), key, answer));
        return answer;
    }

    /** Records the answer with the command's idempotency key, if it has one; answers it. */
    private RecordedResponse remember(Stores stores, PayCommand command, RecordedResponse answer) {
        command.idempotencyKey().ifPresent(key -> stores.idempotency().keepResponse(command.orgId(), key, answer));
        return answer;
    }

    private Transaction awaitCoSign(Transaction opened, String coSigner, Optional<Actor> initiator, Wallet wallet,
                                    Instant now) {
        Transaction held = opened.withStatus(TransactionStatus.PENDING_CO_SIGN, now).withPolicyTriggered(true);
        byte[] message = ledger.coSignMessage(PaymentMovement.payInstruction(held, wallet));
        return held.withCoSign(new CoSign(coSigner, Base64.getEncoder().encodeToString(message),
                now.plus(settings.coSignWindow()), Optional.empty(), initiator));
    }

    private Result<Transaction> endHeld(Stores stores, Transaction tx, TransactionCommand command) {
        return step(stores, tx, command, clock.instant()).map(next -> {
            Holds.release(stores, next, clock.instant());
            return next;
        });
    }

    private Result<Transaction> step(Stores stores, Transaction tx, TransactionCommand command, Instant now) {
        return TransactionMachine.applyAndStore(stores, events, tx, command, now);
    }

    /** A payment to book as transaction {@code id}. */
    private record Booking(PayCommand command, TxId id) {
    }

    /**
     * A payment booked by the request, with the instruction to settle it when it goes to the ledger
     * now; or the one it replayed, with the first response when recorded.
     */
    private record Accepted(Transaction tx, boolean replayed, Optional<RecordedResponse> response,
                            Optional<Transaction> topup, Optional<LedgerInstruction> instruction) {
        /** After the settlement of the booked payment: as it ended, with the answer recorded alongside. */
        Accepted settled(Settlement.Settled<Optional<RecordedResponse>> settled) {
            return new Accepted(settled.transaction(), false, settled.alongside().flatMap(r -> r), topup,
                    Optional.empty());
        }
    }
}
