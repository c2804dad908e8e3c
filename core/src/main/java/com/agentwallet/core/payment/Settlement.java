package com.agentwallet.core.payment;

import com.agentwallet.core.common.Transition;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.Claim;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.wallet.Wallet;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The second phase of every movement of money. Phase one (the use case) committed the transaction
 * as {@code pending} with its amount held at the source. Here the instruction goes to the ledger
 * outside any database transaction, and its outcome is applied in a new one: confirmed credits the
 * destination, rejected gives the hold back, unknown leaves it pending for {@link #recover}. What
 * each of these means for a type of transaction is its {@link MoneyMovement}'s.
 * Applying is idempotent (only a {@code pending} transaction changes) and submissions are
 * idempotent by transaction id, so a crash at any point is finished by resubmitting.
 *
 * <p>One transaction is settled by one caller at a time (a request, its replay, the recovery job of
 * any server process): a refusal is final for the books only if no other submission of the same
 * operation can land after it, and a ledger may refuse one submission and execute the next (the
 * simulator's injected faults do). Without this, a replay racing the first request could have the
 * ledger pay while the books fail the payment and give its money back. Across processes this is a
 * claim in the database ({@link TransactionStore#claimSettlement}) taken before the transaction is
 * read and submitted, for {@link #LEASE}; the outcome is applied only in the database transaction
 * that ends the claim while it is still this process's, so a process that outlived its claim
 * applies nothing, and a process that died leaves the transaction to another once the claim lapses.
 * Within a process, callers of one transaction also take turns on a lock, so that a replay waits
 * for the first request's outcome instead of finding the claim taken.
 */
public final class Settlement {
    /**
     * How long a claim on a settlement lasts: longer than any ledger's submission takes (the Solana
     * adapter's {@code timeout_ms} is a minute by default), so that no claim lapses while its holder
     * still waits for the ledger, and short enough for a process's death to delay its work little.
     */
    public static final Duration LEASE = Duration.ofMinutes(5);

    /**
     * The transactions being settled in this process, each with the number of callers holding or
     * waiting for it; removed when none is left. One lock per transaction, not a stripe shared by
     * several: a payment never waits for another one's settlement.
     */
    private final ConcurrentHashMap<TxId, Hold> holds = new ConcurrentHashMap<>();
    private final Storage storage;
    private final LedgerPort ledger;
    private final EventPublisher events;
    private final Clock clock;
    /** This server's name on its claims. */
    private final String holder;

    /**
     * A settlement whose claims carry {@code holder}: a server's name that stays the same across its
     * restarts, so that a server restarted after it died finishes the settlements it had claimed at
     * once rather than after their lease. Two servers running at once never share one.
     */
    public Settlement(Storage storage, LedgerPort ledger, EventPublisher events, Clock clock, String holder) {
        this.storage = requireNonNull(storage, "storage is null");
        this.ledger = requireNonNull(ledger, "ledger is null");
        this.events = requireNonNull(events, "events is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.holder = requireNonNull(holder, "holder is null");
    }

    /** Settles a pending transaction and returns it as it is afterwards; other states are returned unchanged. */
    public Transaction settle(OrgId orgId, TxId txId) {
        return holding(txId, () -> settleAlone(orgId, txId));
    }

    /**
     * Runs {@code work} holding the settlement of {@code txId} in this process. For an id made for a
     * transaction {@code work} is about to create, nobody else can settle that transaction before
     * {@code work} ends, so {@code work} may settle it from what it created, with {@link #settleCreated}.
     * A settlement is held only outside database transactions and never while taking another, so
     * holding one cannot deadlock.
     */
    public <T> T holding(TxId txId, Supplier<T> work) {
        Hold hold = holds.compute(txId, (id, held) -> (held == null ? new Hold() : held).joined());
        hold.lock.lock();
        try {
            return work.get();
        } finally {
            hold.lock.unlock();
            holds.computeIfPresent(txId, (id, held) -> held.left());
        }
    }

    /**
     * Claims the settlement of a transaction {@code stores} creates {@code pending}, in the unit of
     * work that creates it, for {@link #settleCreated}: no other process can settle it before the
     * claim lapses or is given back.
     */
    public void claimCreated(Stores stores, TxId txId) {
        if (!claim(stores, txId)) {
            throw new IllegalStateException("the settlement of the new transaction " + txId + " is claimed");
        }
    }

    /**
     * Settles a transaction the caller has just committed as {@code pending} and
     * {@linkplain #claimCreated claimed}, while {@link #holding} its id: submits the instruction it was made with and applies the outcome, without reading it
     * back first; answers the transaction as it is afterwards. {@code alongside} runs in the database
     * transaction that applies the outcome, with the transaction as it ends; it does not run when the
     * ledger's answer is unknown. A confirmation locks its transaction's row before anything else
     * ({@link Claim.Outcome}), then the wallet at its recipient's address, so the store may apply the confirmations
     * of an organisation's payments arriving together in one database transaction. A refusal gives
     * the payment's hold back, which locks the payer's wallet, so it is applied alone.
     */
    public Transaction settleCreated(Transaction created, LedgerInstruction instruction,
                                     BiConsumer<Stores, Transaction> alongside) {
        Hold hold = holds.get(created.id());
        if (hold == null || !hold.lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("the settlement of " + created.id() + " is not held");
        }
        LedgerOutcome outcome = submitClaimed(created, instruction);
        if (outcome instanceof LedgerOutcome.Unknown) {
            return created;
        }
        Function<Stores, Transaction> applying = stores -> {
            Transaction applied = applyClaimed(stores, created, outcome);
            alongside.accept(stores, applied);
            return applied;
        };
        return outcome instanceof LedgerOutcome.Confirmed
                ? storage.inBatch(new Claim.Outcome(created.orgId(), created.id(), Optional.of(created.recipient())),
                        applying)
                : storage.inTransaction(applying);
    }

    /** The lock of one transaction's settlement and how many callers hold it or wait for it (changed in the map only). */
    private static final class Hold {
        final ReentrantLock lock = new ReentrantLock();
        int callers;

        Hold joined() {
            callers++;
            return this;
        }

        /** This hold, or null (removed from the map) once its last caller has left. */
        Hold left() {
            return --callers == 0 ? null : this;
        }
    }

    /**
     * Claims, then submits and applies, with no other settlement of the transaction under way. The
     * transaction is read after the claim is taken: whoever applied an outcome before ended their
     * claim in the same commit, so a transaction read pending then has no outcome applied.
     */
    private Transaction settleAlone(OrgId orgId, TxId txId) {
        record Work(Transaction tx, Optional<LedgerInstruction> instruction) {
        }
        Work work = storage.inTransaction(stores -> {
            if (!claim(stores, txId)) {
                // Another process settles it: it stays as it is now until that one applies an outcome.
                return new Work(current(stores, orgId, txId), Optional.empty());
            }
            Transaction tx = current(stores, orgId, txId);
            if (tx.status() != TransactionStatus.PENDING) {
                stores.transactions().releaseSettlement(txId, holder);
                return new Work(tx, Optional.empty());
            }
            return new Work(tx, Optional.of(instructionFor(stores, tx)));
        });
        if (work.instruction().isEmpty()) {
            return work.tx();
        }
        LedgerOutcome outcome = submitClaimed(work.tx(), work.instruction().get());
        if (outcome instanceof LedgerOutcome.Unknown) {
            return work.tx();
        }
        return storage.inTransaction(stores -> applyClaimed(stores, work.tx(), outcome));
    }

    private boolean claim(Stores stores, TxId txId) {
        Instant now = clock.instant();
        return stores.transactions().claimSettlement(txId, holder, now, now.plus(LEASE));
    }

    /**
     * Submits a claimed transaction. Unless an outcome comes back to apply, the claim is given back
     * at once: an unknown outcome is the recovery's to finish, on any process.
     */
    private LedgerOutcome submitClaimed(Transaction tx, LedgerInstruction instruction) {
        LedgerOutcome outcome;
        try {
            outcome = submit(tx, instruction);
        } catch (RuntimeException e) {
            release(tx.id());
            throw e;
        }
        if (outcome instanceof LedgerOutcome.Unknown) {
            release(tx.id());
        }
        return outcome;
    }

    private void release(TxId txId) {
        storage.inTransaction(stores -> stores.transactions().releaseSettlement(txId, holder));
    }

    /**
     * Ends the claim and applies the outcome, if the claim is still this process's; otherwise another
     * process took the settlement over after the claim lapsed, and its outcome decides.
     */
    private Transaction applyClaimed(Stores stores, Transaction pending, LedgerOutcome outcome) {
        return stores.transactions().releaseSettlement(pending.id(), holder)
                ? apply(stores, pending, outcome)
                : current(stores, pending.orgId(), pending.id());
    }

    /** Sends the instruction of {@code tx}, and what its movement sends in place of it if the ledger refuses it. */
    private LedgerOutcome submit(Transaction tx, LedgerInstruction instruction) {
        LedgerOutcome outcome = ledger.submit(instruction);
        if (outcome instanceof LedgerOutcome.Rejected refusal) {
            return MoneyMovement.of(tx).resentAfter(instruction, refusal).map(ledger::submit).orElse(outcome);
        }
        return outcome;
    }

    public List<Transaction> settleAll(OrgId orgId, List<TxId> txIds) {
        return txIds.stream().map(id -> settle(orgId, id)).toList();
    }

    /** Resubmits transactions left pending for at least {@code grace}: after a crash or an unknown outcome. */
    public int recover(Duration grace, int limit) {
        List<Transaction> stuck = storage.inTransaction(
                stores -> stores.transactions().pendingSince(clock.instant().minus(grace), limit));
        for (Transaction tx : stuck) {
            settle(tx.orgId(), tx.id());
        }
        return stuck.size();
    }

    private static LedgerInstruction instructionFor(Stores stores, Transaction tx) {
        Wallet wallet = stores.wallets().find(tx.orgId(), tx.walletId())
                .orElseThrow(() -> new IllegalStateException("wallet of " + tx.id() + " is missing"));
        return MoneyMovement.of(tx).instruction(stores, wallet);
    }

    /**
     * Applies the ledger's outcome to {@code pending}, the transaction as it was read or written while
     * pending: its new state is stored only if it is still pending then (a conditional update, not a
     * lock and a read), and what the outcome moves and announces follows only if it was. Nothing else
     * changes a pending transaction, so the state stored is the one read and the step. Answers the
     * transaction as it is afterwards.
     */
    private Transaction apply(Stores stores, Transaction pending, LedgerOutcome outcome) {
        Instant now = clock.instant();
        Optional<Transition<Transaction>> step = commandOf(pending, outcome)
                .map(command -> TransactionMachine.apply(pending, command, now).value())
                .filter(next -> stores.transactions().updateIfPending(next.state()));
        if (step.isEmpty()) {
            return current(stores, pending.orgId(), pending.id());
        }
        Transaction next = step.get().state();
        events.publish(stores, step.get().events());
        if (outcome instanceof LedgerOutcome.Confirmed) {
            MoneyMovement.of(next).credit(stores, events, now);
        } else {
            MoneyMovement.of(next).giveBack(stores, events, now);
        }
        return next;
    }

    /** What an outcome makes of a pending transaction; nothing when it stays pending. */
    private static Optional<TransactionCommand> commandOf(Transaction pending, LedgerOutcome outcome) {
        if (outcome instanceof LedgerOutcome.Confirmed confirmed) {
            return Optional.of(new TransactionCommand.Confirm(confirmed.signature(), confirmed.slot()));
        }
        LedgerOutcome.Rejected rejected = (LedgerOutcome.Rejected) outcome;
        return MoneyMovement.of(pending).refusalIsFinal(rejected)
                ? Optional.of(new TransactionCommand.Fail(rejected.code() + ": " + rejected.message()))
                : Optional.empty();
    }

    private static Transaction current(Stores stores, OrgId orgId, TxId txId) {
        return stores.transactions().find(orgId, txId)
                .orElseThrow(() -> new IllegalStateException("no transaction " + txId));
    }
}
