package com.agentwallet.core.event;

import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.export.ExportStatus;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.FieldChange;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The events of the catalogue, as domain data: each holds the state of the transaction, wallet or
 * escrow after the change it announces, or the typed values it reports, and the instant of the
 * change. What a receiver gets on the wire (names, formats, the envelope) is the adapter's, which
 * renders each event when it writes it to the outbox (docs/API.md, "Event payloads").
 */
public sealed interface DomainEvent {

    EventType type();

    OrgId orgId();

    /** The wallet whose events must be delivered in order, when the event concerns one. */
    Optional<WalletId> walletId();

    Instant at();

    /** Answers {@code cases}' method for this kind of event. */
    <R> R match(Cases<R> cases);

    /**
     * One method per kind of event: what an adapter implements to render every kind. Java 17 has no
     * pattern switch over a sealed type, so this is how the compiler names a kind a renderer forgot.
     */
    interface Cases<R> {
        R transactionCompleted(TransactionCompleted event);

        R transactionBlocked(TransactionBlocked event);

        R transactionPending(TransactionPending event);

        R transactionCoSignRequired(TransactionCoSignRequired event);

        R transactionEnded(TransactionEnded event);

        R walletCreated(WalletCreated event);

        R walletBalanceMoved(WalletBalanceMoved event);

        R walletStatusChanged(WalletStatusChanged event);

        R balanceLow(BalanceLow event);

        R policyUpdated(PolicyUpdated event);

        R policyExpired(PolicyExpired event);

        R escrowCreated(EscrowCreated event);

        R escrowSettled(EscrowSettled event);

        R escrowDisputed(EscrowDisputed event);

        R orgDepositConfirmed(OrgDepositConfirmed event);

        R exportReady(ExportReady event);

        R ping(Ping event);
    }

    /** An event about a transaction, delivered in order with its wallet's events. */
    sealed interface OfTransaction extends DomainEvent {
        Transaction tx();

        default OrgId orgId() {
            return tx().orgId();
        }

        default Optional<WalletId> walletId() {
            return Optional.of(tx().walletId());
        }
    }

    /** An event about a wallet, delivered in order with its other events. */
    sealed interface OfWallet extends DomainEvent {
        Wallet wallet();

        default OrgId orgId() {
            return wallet().orgId();
        }

        default Optional<WalletId> walletId() {
            return Optional.of(wallet().id());
        }
    }

    /** An event about an escrow, delivered in order with its sender's events. */
    sealed interface OfEscrow extends DomainEvent {
        Escrow escrow();

        default OrgId orgId() {
            return escrow().orgId();
        }

        default Optional<WalletId> walletId() {
            return Optional.of(escrow().fromWallet());
        }
    }

    record TransactionCompleted(Transaction tx, Instant at) implements OfTransaction {
        public TransactionCompleted {
            requireStatus(tx, TransactionStatus.CONFIRMED);
        }

        public EventType type() {
            return EventType.TRANSACTION_COMPLETED;
        }

        public <R> R match(Cases<R> cases) {
            return cases.transactionCompleted(this);
        }
    }

    /** A payment or escrow lock that failed a policy check; the transaction carries the violation. */
    record TransactionBlocked(Transaction tx, Instant at) implements OfTransaction {
        public TransactionBlocked {
            requireStatus(tx, TransactionStatus.BLOCKED);
        }

        public EventType type() {
            return EventType.TRANSACTION_BLOCKED;
        }

        public <R> R match(Cases<R> cases) {
            return cases.transactionBlocked(this);
        }
    }

    record TransactionPending(Transaction tx, Instant at) implements OfTransaction {
        public TransactionPending {
            requireStatus(tx, TransactionStatus.PENDING);
        }

        public EventType type() {
            return EventType.TRANSACTION_PENDING;
        }

        public <R> R match(Cases<R> cases) {
            return cases.transactionPending(this);
        }
    }

    /** The operator alert of a payment that waits for its co-signature. */
    record TransactionCoSignRequired(Transaction tx, Instant at) implements OfTransaction {
        public TransactionCoSignRequired {
            requireStatus(tx, TransactionStatus.PENDING_CO_SIGN);
        }

        public EventType type() {
            return EventType.TRANSACTION_CO_SIGN_REQUIRED;
        }

        public <R> R match(Cases<R> cases) {
            return cases.transactionCoSignRequired(this);
        }
    }

    /** A transaction that ended without moving money: failed on the ledger, rejected by the operator, or expired. */
    record TransactionEnded(Transaction tx, Instant at) implements OfTransaction {
        public TransactionEnded {
            requireStatus(tx, TransactionStatus.FAILED, TransactionStatus.REJECTED, TransactionStatus.EXPIRED);
        }

        public EventType type() {
            return switch (tx.status()) {
                case REJECTED -> EventType.TRANSACTION_REJECTED;
                case EXPIRED -> EventType.TRANSACTION_EXPIRED;
                default -> EventType.TRANSACTION_FAILED;
            };
        }

        public <R> R match(Cases<R> cases) {
            return cases.transactionEnded(this);
        }
    }

    record WalletCreated(Wallet wallet, Instant at) implements OfWallet {
        public EventType type() {
            return EventType.WALLET_CREATED;
        }

        public <R> R match(Cases<R> cases) {
            return cases.walletCreated(this);
        }
    }

    /**
     * Funds allocated to ({@code wallet.funded}) or withdrawn from ({@code wallet.withdrawn}) a
     * wallet by the confirmed transaction {@code tx}; {@code wallet} holds the balance after it.
     */
    record WalletBalanceMoved(Wallet wallet, Transaction tx, Instant at) implements OfWallet {
        public WalletBalanceMoved {
            if (tx.type() != TransactionType.FUNDING && tx.type() != TransactionType.WITHDRAWAL
                    || !tx.walletId().equals(wallet.id())) {
                throw new IllegalArgumentException("not a balance movement of " + wallet.id() + ": " + tx.type());
            }
        }

        public EventType type() {
            return tx.type() == TransactionType.FUNDING ? EventType.WALLET_FUNDED : EventType.WALLET_WITHDRAWN;
        }

        public <R> R match(Cases<R> cases) {
            return cases.walletBalanceMoved(this);
        }
    }

    /**
     * A wallet's status changed by an operator: frozen, unfrozen (active again) or archived. A freeze
     * by policy expiry is {@link PolicyExpired} instead.
     */
    record WalletStatusChanged(Wallet wallet, Instant at) implements OfWallet {
        public EventType type() {
            return switch (wallet.status()) {
                case FROZEN -> EventType.WALLET_FROZEN;
                case ACTIVE -> EventType.WALLET_UNFROZEN;
                case ARCHIVED -> EventType.WALLET_ARCHIVED;
            };
        }

        public <R> R match(Cases<R> cases) {
            return cases.walletStatusChanged(this);
        }
    }

    /** A debit took the wallet's balance below its auto-topup trigger, {@code threshold}. */
    record BalanceLow(Wallet wallet, Usdc threshold, Instant at) implements OfWallet {
        public EventType type() {
            return EventType.BALANCE_LOW;
        }

        public <R> R match(Cases<R> cases) {
            return cases.balanceLow(this);
        }
    }

    record PolicyUpdated(OrgId orgId, PolicyId policyId, long version, List<FieldChange> changes, Instant at)
            implements DomainEvent {
        public PolicyUpdated {
            changes = List.copyOf(changes);
        }

        public EventType type() {
            return EventType.POLICY_UPDATED;
        }

        public Optional<WalletId> walletId() {
            return Optional.empty();
        }

        public <R> R match(Cases<R> cases) {
            return cases.policyUpdated(this);
        }
    }

    /** The wallet's policy expired at {@code expiry} and the wallet, now in its frozen state, was frozen. */
    record PolicyExpired(Wallet wallet, Instant expiry, Instant at) implements OfWallet {
        public PolicyExpired {
            if (wallet.status() != WalletStatus.FROZEN) {
                throw new IllegalArgumentException("policy expiry leaves wallet " + wallet.id() + " frozen");
            }
        }

        public EventType type() {
            return EventType.POLICY_EXPIRED;
        }

        public <R> R match(Cases<R> cases) {
            return cases.policyExpired(this);
        }
    }

    record EscrowCreated(Escrow escrow, Instant at) implements OfEscrow {
        public EscrowCreated {
            requireStatus(escrow, EscrowStatus.LOCKED);
        }

        public EventType type() {
            return EventType.ESCROW_CREATED;
        }

        public <R> R match(Cases<R> cases) {
            return cases.escrowCreated(this);
        }
    }

    /** An escrow settled: released to the receiver, or refunded to the sender (its settle reason says why). */
    record EscrowSettled(Escrow escrow, Instant at) implements OfEscrow {
        public EscrowSettled {
            requireStatus(escrow, EscrowStatus.RELEASED, EscrowStatus.REFUNDED);
        }

        public EventType type() {
            return escrow.status() == EscrowStatus.RELEASED ? EventType.ESCROW_RELEASED : EventType.ESCROW_REFUNDED;
        }

        public <R> R match(Cases<R> cases) {
            return cases.escrowSettled(this);
        }
    }

    record EscrowDisputed(Escrow escrow, Instant at) implements OfEscrow {
        public EscrowDisputed {
            requireStatus(escrow, EscrowStatus.DISPUTED);
        }

        public EventType type() {
            return EventType.ESCROW_DISPUTED;
        }

        public <R> R match(Cases<R> cases) {
            return cases.escrowDisputed(this);
        }
    }

    /** A deposit of {@code amount} reached the organisation's treasury, which then held {@code balance}. */
    record OrgDepositConfirmed(OrgId orgId, Usdc amount, Usdc balance, Instant at) implements DomainEvent {
        public EventType type() {
            return EventType.ORG_DEPOSIT_CONFIRMED;
        }

        public Optional<WalletId> walletId() {
            return Optional.empty();
        }

        public <R> R match(Cases<R> cases) {
            return cases.orgDepositConfirmed(this);
        }
    }

    /** An export's file is ready to be downloaded; the event happened when the job completed. */
    record ExportReady(ExportJob job) implements DomainEvent {
        public ExportReady {
            if (job.status() != ExportStatus.READY) {
                throw new IllegalArgumentException("export " + job.id() + " is " + job.status().wireName());
            }
        }

        public EventType type() {
            return EventType.EXPORT_READY;
        }

        public OrgId orgId() {
            return job.orgId();
        }

        public Optional<WalletId> walletId() {
            return Optional.empty();
        }

        public Instant at() {
            return job.completedAt().orElseThrow();
        }

        public <R> R match(Cases<R> cases) {
            return cases.exportReady(this);
        }
    }

    record Ping(OrgId orgId, WebhookId webhookId, Instant at) implements DomainEvent {
        public EventType type() {
            return EventType.PING;
        }

        public Optional<WalletId> walletId() {
            return Optional.empty();
        }

        public <R> R match(Cases<R> cases) {
            return cases.ping(this);
        }
    }

    private static void requireStatus(Transaction tx, TransactionStatus... allowed) {
        if (!List.of(allowed).contains(tx.status())) {
            throw new IllegalArgumentException("transaction " + tx.id() + " is " + tx.status().wireName()
                    + ", not " + List.of(allowed));
        }
    }

    private static void requireStatus(Escrow escrow, EscrowStatus... allowed) {
        if (!List.of(allowed).contains(escrow.status())) {
            throw new IllegalArgumentException("escrow " + escrow.id() + " is " + escrow.status().wireName()
                    + ", not " + List.of(allowed));
        }
    }
}
