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
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.port.Claim;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.ServiceMetrics;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;

import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.Objects.requireNonNull;

/**
 * Use cases of payments: pay (and its dry run), co-sign, reject, co-sign expiry, and reading history.
 *
 * <p>A payment goes in four steps: the command is validated when it is made ({@link PayCommand});
 * it is booked (the policy's checks and the debit, under its wallet's lock, or the replay of its
 * idempotency key); a booked payment goes to the ledger; and the ledger's outcome is applied.
 */
public final class PaymentService {
    private static final Rejection PAYS_ITSELF = new Rejection.InvalidInput("to",
            "A wallet cannot pay its own address");

    private final Storage storage;
    private final LedgerPort ledger;
    private final Spending spending;
    private final Settlement settlement;
    private final IdempotencyKeys idempotency;
    private final EventPublisher events;
    private final IdGenerator ids;
    private final Clock clock;
    private final CoreSettings settings;
    private final ServiceMetrics metrics;

    /** Payments that count nothing ({@link ServiceMetrics#NONE}). */
    public PaymentService(Storage storage, LedgerPort ledger, Spending spending, Settlement settlement,
                          IdempotencyKeys idempotency, EventPublisher events, IdGenerator ids, Clock clock,
                          CoreSettings settings) {
        this(storage, ledger, spending, settlement, idempotency, events, ids, clock, settings, ServiceMetrics.NONE);
    }

    public PaymentService(Storage storage, LedgerPort ledger, Spending spending, Settlement settlement,
                          IdempotencyKeys idempotency, EventPublisher events, IdGenerator ids, Clock clock,
                          CoreSettings settings, ServiceMetrics metrics) {
        this.storage = requireNonNull(storage, "storage is null");
        this.ledger = requireNonNull(ledger, "ledger is null");
        this.spending = requireNonNull(spending, "spending is null");
        this.settlement = requireNonNull(settlement, "settlement is null");
        this.idempotency = requireNonNull(idempotency, "idempotency is null");
        this.events = requireNonNull(events, "events is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.settings = requireNonNull(settings, "settings is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    /**
     * Pays from a wallet. A blocked payment is recorded and refused with its violation. A repeated
     * idempotency key with the same request replays the first payment: finished if it was left
     * pending, and answered as the first request was once that answer is known.
     *
     * <p>The settlement of the new payment's id is held from before the payment exists until its
     * outcome is applied, and claimed in the database where it is booked: no replay or recovery, in
     * this process or another, can settle it meanwhile, so it goes to the ledger from what was just
     * booked, without reading it back.
     */
    public Result<PaymentResult> pay(PayCommand command) {
        TxId id = ids.tx();
        AtomicReference<ViolationRule> blockedNow = new AtomicReference<>();
        Result<PaymentResult> result = settlement.holding(id, () -> book(command, id, blockedNow)
                        .map(booked -> settle(command, booked)))
                .map(this::finish);
        count(result, Optional.ofNullable(blockedNow.get()));
        return result;
    }

    /**
     * Counts a new payment by how it was answered; a replay, or a request refused before it was
     * booked, is not a new payment.
     */
    private void count(Result<PaymentResult> result, Optional<ViolationRule> blockedNow) {
        if (blockedNow.isPresent()) {
            metrics.paymentAnswered(TransactionStatus.BLOCKED);
            metrics.paymentBlocked(blockedNow.get());
        } else if (result.isOk() && !result.value().replayed()) {
            metrics.paymentAnswered(result.value().transaction().status());
        }
    }

    /**
     * Books the payment as transaction {@code id}, or replays its idempotency key; {@code blockedNow}
     * is left with the rule that blocked it, when it was booked blocked (not when a blocked payment
     * was replayed).
     */
    private Result<Booked> book(PayCommand command, TxId id, AtomicReference<ViolationRule> blockedNow) {
        return storage.inBatch(new Claim.Booking(command.orgId(), command.idempotencyKey(), command.walletId()),
                stores -> accept(stores, command, id, blockedNow));
    }

    /**
     * A new payment booked {@code pending} goes to the ledger, and the answer it gets is kept with its
     * key where the outcome is applied, or alone when the outcome is unknown. Anything else (a replay,
     * a payment waiting for its co-signature) stays as booked.
     */
    private Booked settle(PayCommand command, Booked booked) {
        if (booked.instruction().isEmpty()) {
            return booked;
        }
        Transaction settled = settlement.settleCreated(booked.tx(), booked.instruction().get(),
                (stores, answered) -> idempotency.answered(stores, command, answered));
        if (settled.status() == TransactionStatus.PENDING) {
            idempotency.answeredAlone(command, settled);
        }
        return booked.settledAs(settled);
    }

    /**
     * What the request answers, once the new payment's settlement is let go: a replayed payment is
     * settled if it was left pending, then answered as it was the first time.
     */
    private PaymentResult finish(Booked booked) {
        booked.topup().ifPresent(topup -> settlement.settle(topup.orgId(), topup.id()));
        if (booked.replayOf().isEmpty()) {
            return new PaymentResult(booked.tx(), false);
        }
        Transaction now = settlement.settle(booked.tx().orgId(), booked.tx().id());
        return new PaymentResult(booked.replayOf().get().answer().map(answer -> answer.replayedOn(now)).orElse(now),
                true);
    }

    /**
     * Books one payment, its idempotency key and its wallet locked: a replay of the key, or the checks
     * and, unless blocked, the debit of a new transaction {@code id}. The checks see every payment
     * booked before it, in the same batch too.
     */
    private Result<Booked> accept(Stores stores, PayCommand command, TxId id,
                                  AtomicReference<ViolationRule> blockedNow) {
        // A unit of work run again (a retried batch) decides afresh.
        blockedNow.set(null);
        Optional<Wallet> wallet = stores.wallets().lock(command.orgId(), command.walletId());
        if (wallet.isEmpty()) {
            return Result.refused(new Rejection.NotFound("wallet", command.walletId().value()));
        }
        if (paysItself(wallet.get(), command)) {
            return Result.refused(PAYS_ITSELF);
        }
        Optional<Result<IdempotencyRecord>> firstUse = idempotency.firstUse(stores, command);
        if (firstUse.isPresent()) {
            return firstUse.get().flatMap(record -> replay(stores, record));
        }
        Instant now = clock.instant();
        return spending.evaluate(stores, wallet.get(), command.session(), command.amount(), command.to(),
                command.kind(), now).flatMap(attempt -> {
            Transaction opened = Transaction.open(id, command.orgId(), command.walletId(),
                    TransactionType.PAYMENT, TransactionStatus.PENDING, command.amount(), command.to(), now)
                    .withMemo(command.memo());
            if (attempt.decision() instanceof Decision.Blocked blocked) {
                idempotency.use(stores, command, spending.recordBlocked(stores, attempt, opened, now));
                blockedNow.set(blocked.violation().rule());
                return Result.refused(new Rejection.PolicyViolated(blocked.violation()));
            }
            Transaction tx = attempt.decision() instanceof Decision.NeedsCoSign needs
                    ? awaitCoSign(opened, needs.coSigner(), command.initiator(), attempt.wallet(), now)
                    : opened;
            Optional<Transaction> topup = spending.debit(stores, attempt, tx, now);
            idempotency.use(stores, command, tx);
            events.publish(stores, tx.status() == TransactionStatus.PENDING_CO_SIGN
                    ? new DomainEvent.TransactionCoSignRequired(tx, now)
                    : new DomainEvent.TransactionPending(tx, now));
            Optional<LedgerInstruction> instruction = tx.status() == TransactionStatus.PENDING
                    ? Optional.of(PaymentMovement.payInstruction(tx, attempt.wallet())) : Optional.empty();
            if (instruction.isPresent()) {
                settlement.claimCreated(stores, tx.id());
            }
            return Result.ok(new Booked(tx, Optional.empty(), topup, instruction));
        });
    }

    /**
     * Whether the payment's recipient is its own wallet's address. The program refuses such a
     * transfer (the wallet's token account would be both source and destination), and it would move
     * nothing, so the request is refused as invalid before it is recorded or counted.
     */
    private static boolean paysItself(Wallet wallet, PayCommand command) {
        return command.to().equals(wallet.address().base58());
    }

    /** The payment an earlier request with the same key made; a blocked one is refused again. */
    private static Result<Booked> replay(Stores stores, IdempotencyRecord record) {
        Transaction first = stores.transactions().find(record.orgId(), record.txId()).orElseThrow();
        return first.violation().<Result<Booked>>map(violation -> Result.refused(new Rejection.PolicyViolated(violation)))
                .orElseGet(() -> Result.ok(new Booked(first, Optional.of(record), Optional.empty(), Optional.empty())));
    }

    /** The dry run: what {@link #pay} would decide, with nothing recorded, moved or announced. */
    public Result<Decision> decide(PayCommand command) {
        return storage.inTransaction(stores -> Result.found(
                        stores.wallets().find(command.orgId(), command.walletId()), "wallet", command.walletId())
                .flatMap(wallet -> paysItself(wallet, command) ? Result.refused(PAYS_ITSELF) : Result.ok(wallet))
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
                        : endHeld(stores, tx, new TransactionCommand.Reject(reason))))
                .map(this::abandoned);
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
                        .map(tx -> endHeld(stores, tx, new TransactionCommand.ExpireCoSign()).value()))
                .map(this::abandoned)
                .isPresent());
    }

    /** Tells the ledger, once the end is stored, that the payment's co-sign message will never be submitted. */
    private Transaction abandoned(Transaction ended) {
        ledger.coSignAbandoned(ended.id().value());
        return ended;
    }

    public Result<Transaction> get(OrgId orgId, TxId txId) {
        return storage.readOne(stores -> Result.found(stores.transactions().find(orgId, txId), "transaction", txId));
    }

    public Page<Transaction> list(OrgId orgId, TransactionStore.Query query, PageRequest page) {
        return storage.readOne(stores -> stores.transactions().list(orgId, query, page));
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

    /**
     * A payment booked, with the instruction to settle it when it goes to the ledger now, and the
     * top-up its debit triggered; or the one an earlier request with the same key made
     * ({@code replayOf}).
     */
    private record Booked(Transaction tx, Optional<IdempotencyRecord> replayOf, Optional<Transaction> topup,
                          Optional<LedgerInstruction> instruction) {
        Booked settledAs(Transaction settled) {
            return new Booked(settled, replayOf, topup, Optional.empty());
        }
    }
}
