package com.agentwallet.core.escrow;

import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Repeat;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.TypedId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerAdmin;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.payment.Holds;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.payment.Spending;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.Decision;
import com.agentwallet.core.policy.PaymentCheck;
import com.agentwallet.core.port.EscrowStore;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.wallet.Wallet;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Use cases of agent-to-agent escrow. Locking runs the same checks and debit as a payment; the
 * funds then sit in the escrow until a proof releases them to the receiver, or a timeout or a
 * dispute resolution refunds them to the sender (and out of its caps).
 */
public final class EscrowService {
    private final Storage storage;
    private final LedgerPort ledger;
    private final Spending spending;
    private final Settlement settlement;
    private final EventPublisher events;
    private final IdGenerator ids;
    private final Clock clock;

    public EscrowService(Storage storage, LedgerPort ledger, Spending spending, Settlement settlement,
                         EventPublisher events, IdGenerator ids, Clock clock) {
        this.storage = requireNonNull(storage, "storage is null");
        this.ledger = requireNonNull(ledger, "ledger is null");
        this.spending = requireNonNull(spending, "spending is null");
        this.settlement = requireNonNull(settlement, "settlement is null");
        this.events = requireNonNull(events, "events is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Locks the escrow's amount in the sender's wallet. A replay of {@code key} locks nothing and
     * answers the escrow as it is now.
     */
    public Result<Escrow> lock(LockEscrow command, RequestKey key) {
        record Locked(Escrow escrow, TxId lockTx, Optional<Transaction> topup) {
        }
        Result<Locked> locked = storage.inTransaction(stores -> key.once(stores, clock.instant(), () -> Result.found(
                stores.wallets().lock(command.orgId(), command.fromWallet()), "wallet", command.fromWallet())
                .flatMap(wallet -> receiverOf(stores, wallet, command.toWallet()).flatMap(receiver -> {
                    Instant now = clock.instant();
                    return spending.evaluate(stores, wallet, command.session(), command.amount(), receiver.address(),
                            PaymentCheck.Kind.ESCROW_LOCK, now).flatMap(attempt -> {
                        if (attempt.decision() instanceof Decision.Blocked blocked) {
                            spending.recordBlocked(stores, attempt, Transaction.open(ids.tx(), command.orgId(),
                                    wallet.id(), TransactionType.ESCROW_LOCK, TransactionStatus.PENDING,
                                    command.amount(), receiver.address(), now), now);
                            return Result.refused(new Rejection.PolicyViolated(blocked.violation()));
                        }
                        EscrowId escrowId = ids.escrow();
                        Transaction lockTx = Transaction.open(ids.tx(), command.orgId(), wallet.id(),
                                TransactionType.ESCROW_LOCK, TransactionStatus.PENDING, command.amount(),
                                escrowId.value(), now).withEscrow(escrowId);
                        Escrow escrow = new Escrow(escrowId, command.orgId(), wallet.id(), command.toWallet(),
                                receiver.address(), receiver.wallet(), command.amount(), command.taskDescription(),
                                command.timeoutSeconds(), deadline(now, command.timeoutSeconds()),
                                command.expectedProof(), EscrowStatus.LOCKED, Optional.empty(), Optional.empty(),
                                lockTx.id(), Optional.empty(), Optional.empty(), now, now);
                        stores.escrows().insert(escrow);
                        Optional<Transaction> topup = spending.debit(stores, attempt, lockTx, now);
                        events.publish(stores, new DomainEvent.EscrowCreated(escrow, now));
                        return Result.ok(new Locked(escrow, lockTx.id(), topup));
                    });
                })), done -> done.escrow().id().value(),
                subject -> Result.found(stores.escrows().find(command.orgId(), new EscrowId(subject)), "escrow",
                        new EscrowId(subject)).map(escrow -> new Locked(escrow, escrow.lockTx(), Optional.empty()))));
        return locked.flatMap(done -> {
            done.topup().ifPresent(topup -> settlement.settle(topup.orgId(), topup.id()));
            settlement.settle(command.orgId(), done.lockTx());
            return get(Requester.of(command.orgId()), done.escrow().id());
        });
    }

    /** The proof, from a party that may complete: the receiving side or the sending organisation. */
    public Result<Escrow> complete(Requester requester, EscrowId escrowId, String proofType, String proof) {
        Proof.requireType(proofType);
        return change(requester, escrowId, EscrowAccess.Action.COMPLETE, new EscrowCommand.Complete(proof));
    }

    /** A dispute, from the sending side, while the escrow is locked and before its deadline. */
    public Result<Escrow> dispute(Requester requester, EscrowId escrowId, String reason, String evidence) {
        return change(requester, escrowId, EscrowAccess.Action.DISPUTE,
                new EscrowCommand.Raise(new Dispute(reason, evidence, clock.instant())));
    }

    /** The sending organisation settles a dispute. */
    public Result<Escrow> resolve(OrgId orgId, EscrowId escrowId, EscrowCommand.Outcome outcome) {
        return change(Requester.of(orgId), escrowId, EscrowAccess.Action.RESOLVE,
                new EscrowCommand.Resolve(outcome));
    }

    /**
     * Clockwork: refunds up to {@code limit} locked escrows whose timeout passed, each claimed and
     * refunded in a transaction of its own; answers how many.
     */
    public int refundTimedOut(int limit) {
        return Repeat.upTo(limit, () -> {
            Optional<Changed> refunded = storage.inTransaction(stores -> stores.escrows().claimTimedOut(clock.instant())
                    .map(escrow -> apply(stores, escrow, new EscrowCommand.Timeout()).value()));
            refunded.ifPresent(this::settlePayout);
            return refunded.isPresent();
        });
    }

    /** An escrow {@code requester} is a party to. */
    public Result<Escrow> get(Requester requester, EscrowId escrowId) {
        return storage.inTransaction(stores -> Result.found(stores.escrows().findAnyOrg(escrowId), "escrow", escrowId)
                .flatMap(escrow -> allowed(stores, requester, escrow, EscrowAccess.Action.READ)));
    }

    /** The escrows {@code requester} is a party to, newest first. */
    public Page<Escrow> list(Requester requester, EscrowStore.Query query, PageRequest page) {
        return storage.inTransaction(stores -> stores.escrows().list(requester, query, page));
    }

    /** An escrow just changed, and the transaction that moves its vault's funds, if the change settled it. */
    private record Changed(Escrow escrow, Optional<Transaction> payout) {
    }

    /**
     * Applies a command to the escrow, locked for the change, if {@code requester} may; then starts
     * the payout a settlement makes.
     */
    private Result<Escrow> change(Requester requester, EscrowId escrowId, EscrowAccess.Action action,
                                  EscrowCommand command) {
        Result<Changed> changed = storage.inTransaction(stores -> Result.found(
                stores.escrows().lockAnyOrg(escrowId), "escrow", escrowId)
                .flatMap(escrow -> allowed(stores, requester, escrow, action))
                .flatMap(escrow -> apply(stores, escrow, command)));
        return changed.map(done -> {
            settlePayout(done);
            return get(requester, escrowId).value();
        });
    }

    /** The escrow, if {@code requester} may do {@code action} to it. */
    private static Result<Escrow> allowed(Stores stores, Requester requester, Escrow escrow,
                                          EscrowAccess.Action action) {
        Optional<OrgId> receiverOrg = escrow.receiverWallet()
                .flatMap(wallet -> stores.wallets().findAnyOrg(wallet)).map(Wallet::orgId);
        return EscrowAccess.check(requester, escrow, receiverOrg, action)
                .<Result<Escrow>>map(Result::refused).orElseGet(() -> Result.ok(escrow));
    }

    /**
     * Applies a command to a locked escrow; a release or refund also records the transaction that
     * moves the vault's funds. Refused while the lock itself still awaits the ledger: until then the
     * vault may be empty, and a lock the ledger then refuses must find its escrow still locked.
     */
    private Result<Changed> apply(Stores stores, Escrow escrow, EscrowCommand command) {
        boolean lockPending = stores.transactions().find(escrow.orgId(), escrow.lockTx())
                .filter(tx -> tx.status() == TransactionStatus.PENDING).isPresent();
        if (lockPending) {
            return Result.refused(new Rejection.InvalidState("The lock of escrow " + escrow.id()
                    + " is still being confirmed by the ledger; try again shortly"));
        }
        Instant now = clock.instant();
        return EscrowMachine.apply(escrow, command, now).map(transition -> {
            if (transition.state().status() == EscrowStatus.DISPUTED) {
                LedgerAddress wallet = stores.wallets().find(escrow.orgId(), escrow.fromWallet()).orElseThrow().address();
                LedgerAdmin.require(ledger, new LedgerInstruction.EscrowDispute("dispute:" + escrow.id(), escrow.id(),
                        wallet));
            }
            Optional<Transaction> payout = payoutFor(stores, transition.state(), now);
            Escrow next = payout.map(tx -> transition.state().withSettleTx(tx.id())).orElse(transition.state());
            stores.escrows().update(next);
            payout.ifPresent(stores.transactions()::insert);
            // A settlement's event names its payout transaction, which the machine cannot know.
            events.publish(stores, payout.<List<DomainEvent>>map(tx -> List.of(new DomainEvent.EscrowSettled(next, now)))
                    .orElse(transition.events()));
            return new Changed(next, payout);
        });
    }

    /** After the change committed: the payout goes to the ledger (recovery resubmits it if this fails). */
    private void settlePayout(Changed changed) {
        changed.payout().ifPresent(tx -> settlement.settle(tx.orgId(), tx.id()));
    }

    /** The release or refund transaction of an escrow that just settled; a refund also leaves the sender's caps. */
    private Optional<Transaction> payoutFor(Stores stores, Escrow escrow, Instant now) {
        if (escrow.status() == EscrowStatus.RELEASED) {
            return Optional.of(Transaction.open(ids.tx(), escrow.orgId(), escrow.fromWallet(),
                    TransactionType.ESCROW_RELEASE, TransactionStatus.PENDING, escrow.amount(), escrow.receiver(), now)
                    .withEscrow(escrow.id()));
        }
        if (escrow.status() == EscrowStatus.REFUNDED) {
            Wallet sender = stores.wallets().lock(escrow.orgId(), escrow.fromWallet()).orElseThrow();
            stores.wallets().update(Holds.releaseCaps(stores, sender, escrow.lockTx()));
            return Optional.of(Transaction.open(ids.tx(), escrow.orgId(), escrow.fromWallet(),
                    TransactionType.ESCROW_REFUND, TransactionStatus.PENDING, escrow.amount(),
                    sender.address().base58(), now).withEscrow(escrow.id()));
        }
        return Optional.empty();
    }

    /**
     * The escrow's deadline, in whole seconds rounded up: the chain counts whole seconds and holds the
     * vault until the second after a deadline within one, so the books time out no earlier than the
     * chain lets the refund through.
     */
    private static Instant deadline(Instant lockedAt, long timeoutSeconds) {
        Instant deadline = lockedAt.plusSeconds(timeoutSeconds);
        Instant wholeSecond = deadline.truncatedTo(ChronoUnit.SECONDS);
        return wholeSecond.equals(deadline) ? deadline : wholeSecond.plusSeconds(1);
    }

    private record Receiver(String address, Optional<WalletId> wallet) {
    }

    private static Result<Receiver> receiverOf(Stores stores, Wallet sender, String toWallet) {
        Result<Receiver> receiver;
        if (TypedId.isWellFormed(toWallet, WalletId.PREFIX)) {
            WalletId id = new WalletId(toWallet);
            receiver = Result.found(stores.wallets().findAnyOrg(id), "wallet", id)
                    .map(target -> new Receiver(target.address().base58(), Optional.of(target.id())));
        } else if (LedgerAddress.isValid(toWallet)) {
            receiver = Result.ok(new Receiver(toWallet, Optional.empty()));
        } else {
            throw new ValidationException("to_wallet", "'to_wallet' must be a wallet id (wal_...) or a ledger address");
        }
        return receiver.flatMap(r -> r.address().equals(sender.address().base58())
                ? Result.refused(new Rejection.InvalidInput("to_wallet", "An escrow cannot pay the wallet that funds it"))
                : Result.ok(r));
    }
}
