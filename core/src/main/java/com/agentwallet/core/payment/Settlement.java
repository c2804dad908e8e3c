package com.agentwallet.core.payment;

import com.agentwallet.core.common.Transition;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.wallet.Wallet;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.IntStream;

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
 * <p>One transaction is settled by one caller of this process at a time (a request, its replay, the
 * recovery job): a refusal is final for the books only if no other submission of the same operation
 * can land after it, and a ledger may refuse one submission and execute the next (the simulator's
 * injected faults do). Without this, a replay racing the first request could have the ledger pay
 * while the books fail the payment and give its money back.
 */
public final class Settlement {
    /** Outcomes of new payments applied together at most, as {@link PaymentService#MAX_BATCH} books them. */
    static final int MAX_BATCH = 32;

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
    /** The confirmations of an organisation's new payments arriving together, applied in one transaction. */
    private final GroupCommit<OrgId, Applying<?>, Settled<?>> outcomes = new GroupCommit<>(MAX_BATCH, this::applyAll);

    public Settlement(Storage storage, LedgerPort ledger, EventPublisher events, Clock clock) {
        this.storage = requireNonNull(storage, "storage is null");
        this.ledger = requireNonNull(ledger, "ledger is null");
        this.events = requireNonNull(events, "events is null");
        this.clock = requireNonNull(clock, "clock is null");
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
     * Settles a transaction the caller has just committed as {@code pending}, while {@link #holding}
     * its id: submits the instruction it was made with and applies the outcome, without reading it
     * back first. {@code alongside} runs in the database transaction that applies the outcome, with
     * the transaction as it ends; there is none when the ledger's answer is unknown. Confirmations of
     * one organisation's payments arriving together are applied in one database transaction, as
     * payments are booked ({@link GroupCommit}): such a batch locks the rows of its own transactions,
     * then the wallets it credits, all in one statement in the order of their ids, so it waits for
     * no lock while holding a wallet. A refusal gives the payment's hold back, which locks the
     * payer's wallet on its own, so it is applied alone.
     */
    public <R> Settled<R> settleCreated(Transaction created, LedgerInstruction instruction,
                                        BiFunction<Stores, Transaction, R> alongside) {
        Hold hold = holds.get(created.id());
        if (hold == null || !hold.lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("the settlement of " + created.id() + " is not held");
        }
        LedgerOutcome outcome = submit(created, instruction);
        if (outcome instanceof LedgerOutcome.Unknown) {
            return new Settled<>(created, Optional.empty());
        }
        Applying<R> applying = new Applying<>(created, outcome, alongside);
        @SuppressWarnings("unchecked") // each item makes its own result, of its own type
        Settled<R> settled = (Settled<R>) (outcome instanceof LedgerOutcome.Confirmed
                ? outcomes.submit(created.orgId(), applying)
                : applyAll(List.of(applying)).get(0));
        return settled;
    }

    /** The outcomes of a batch of new payments, applied in one database transaction, then what runs alongside each. */
    private List<Settled<?>> applyAll(List<Applying<?>> batch) {
        return storage.inTransaction(stores -> {
            List<Transaction> applied = apply(stores, batch.stream().map(Applying::pending).toList(),
                    batch.stream().map(Applying::outcome).toList());
            return IntStream.range(0, batch.size()).<Settled<?>>mapToObj(i -> batch.get(i).settled(stores, applied.get(i)))
                    .toList();
        });
    }

    /** A new payment's outcome to apply, and what runs alongside it. */
    private record Applying<R>(Transaction pending, LedgerOutcome outcome, BiFunction<Stores, Transaction, R> alongside) {
        Settled<R> settled(Stores stores, Transaction applied) {
            return new Settled<>(applied, Optional.of(alongside.apply(stores, applied)));
        }
    }

    /** A transaction as its settlement left it, and what ran alongside the outcome's application, if it ran. */
    public record Settled<R>(Transaction transaction, Optional<R> alongside) {
        public Settled {
            requireNonNull(transaction, "transaction is null");
            requireNonNull(alongside, "alongside is null");
        }
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

    /** Submits and applies, with no other settlement of the transaction under way. */
    private Transaction settleAlone(OrgId orgId, TxId txId) {
        record Work(Transaction tx, Optional<LedgerInstruction> instruction) {
        }
        Work work = storage.inTransaction(stores -> {
            Transaction tx = stores.transactions().find(orgId, txId)
                    .orElseThrow(() -> new IllegalStateException("no transaction " + txId));
            return new Work(tx, tx.status() == TransactionStatus.PENDING
                    ? Optional.of(instructionFor(stores, tx)) : Optional.empty());
        });
        if (work.instruction().isEmpty()) {
            return work.tx();
        }
        LedgerOutcome outcome = submit(work.tx(), work.instruction().get());
        if (outcome instanceof LedgerOutcome.Unknown) {
            return work.tx();
        }
        return storage.inTransaction(stores -> apply(stores, List.of(work.tx()), List.of(outcome)).get(0));
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
     * Applies the ledger's outcomes to {@code pending}, the transactions as they were read or written
     * while pending, each with its outcome at the same place: a new state is stored only if its
     * transaction is still pending then (one conditional update for all, not a lock and a read), and
     * what the outcome moves and announces follows only if it was. Nothing else changes a pending
     * transaction, so the state stored is the one read and the step. Answers each as it is afterwards.
     */
    private List<Transaction> apply(Stores stores, List<Transaction> pending, List<LedgerOutcome> outcomes) {
        Instant now = clock.instant();
        List<Optional<Transition<Transaction>>> steps = IntStream.range(0, pending.size())
                .mapToObj(i -> commandOf(pending.get(i), outcomes.get(i))
                        .map(command -> TransactionMachine.apply(pending.get(i), command, now).value()))
                .toList();
        Set<TxId> stored = stores.transactions().updateAllIfPending(
                steps.stream().flatMap(Optional::stream).map(Transition::state).toList());
        List<Transaction> applied = new ArrayList<>(pending.size());
        for (int i = 0; i < pending.size(); i++) {
            Optional<Transition<Transaction>> step = steps.get(i).filter(t -> stored.contains(t.state().id()));
            if (step.isPresent()) {
                Transaction next = step.get().state();
                events.publish(stores, step.get().events());
                if (outcomes.get(i) instanceof LedgerOutcome.Confirmed) {
                    MoneyMovement.of(next).credit(stores, events, now);
                } else {
                    MoneyMovement.of(next).giveBack(stores, events, now);
                }
                applied.add(next);
            } else {
                applied.add(current(stores, pending.get(i)));
            }
        }
        return applied;
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

    private static Transaction current(Stores stores, Transaction tx) {
        return stores.transactions().find(tx.orgId(), tx.id())
                .orElseThrow(() -> new IllegalStateException("no transaction " + tx.id()));
    }
}
