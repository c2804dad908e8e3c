package com.agentwallet.core.alert;

import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.policy.ViolationRule;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * An event of the outbox that the alerts feed shows, as the outbox reads it back: when it was
 * appended and the facts its alert quotes, typed. Each kind says what its alert is.
 */
public sealed interface AlertingEvent {
    /** The types of the events that are alerts. */
    Set<EventType> TYPES = Set.of(EventType.BALANCE_LOW, EventType.POLICY_EXPIRED, EventType.TRANSACTION_BLOCKED,
            EventType.ESCROW_DISPUTED);

    EventId id();

    Instant createdAt();

    Alert alert();

    /** What {@code stored} tells the feed, when it is an alert. */
    static Optional<AlertingEvent> of(OutboxEvent stored) {
        DomainEvent event = stored.event();
        if (event instanceof DomainEvent.BalanceLow low) {
            return Optional.of(new BalanceLow(stored.id(), stored.createdAt(), low.wallet().id(), low.wallet().agentId(),
                    low.wallet().balance(), low.threshold()));
        }
        if (event instanceof DomainEvent.PolicyExpired expired) {
            return Optional.of(new PolicyExpired(stored.id(), stored.createdAt(), expired.wallet().id(),
                    expired.wallet().agentId(), expired.wallet().policyId()));
        }
        if (event instanceof DomainEvent.TransactionBlocked blocked) {
            Transaction tx = blocked.tx();
            return Optional.of(new TransactionBlocked(stored.id(), stored.createdAt(), tx.id(), tx.walletId(),
                    tx.amount(), tx.recipient(), tx.violation().orElseThrow().rule()));
        }
        if (event instanceof DomainEvent.EscrowDisputed disputed) {
            Escrow escrow = disputed.escrow();
            return Optional.of(new EscrowDisputed(stored.id(), stored.createdAt(), escrow.id(), escrow.fromWallet(),
                    escrow.receiver(), escrow.amount(), escrow.dispute().orElseThrow().reason()));
        }
        return Optional.empty();
    }

    /** A debit took the wallet's {@code balance} below its auto-topup trigger, {@code threshold}. */
    record BalanceLow(EventId id, Instant createdAt, WalletId walletId, String agentId, Usdc balance, Usdc threshold)
            implements AlertingEvent {
        public BalanceLow {
            requireNonNull(id, "id is null");
            requireNonNull(createdAt, "createdAt is null");
            requireNonNull(walletId, "walletId is null");
            requireNonNull(agentId, "agentId is null");
            requireNonNull(balance, "balance is null");
            requireNonNull(threshold, "threshold is null");
        }

        public Alert alert() {
            return new Alert(AlertKind.BALANCE_LOW, createdAt, "Wallet " + agentId + " (" + walletId.value()
                    + ") fell to " + balance + " USDC, below " + threshold + " USDC", walletId.value());
        }
    }

    /** The wallet's policy expired, and the wallet was frozen. */
    record PolicyExpired(EventId id, Instant createdAt, WalletId walletId, String agentId, PolicyId policyId)
            implements AlertingEvent {
        public PolicyExpired {
            requireNonNull(id, "id is null");
            requireNonNull(createdAt, "createdAt is null");
            requireNonNull(walletId, "walletId is null");
            requireNonNull(agentId, "agentId is null");
            requireNonNull(policyId, "policyId is null");
        }

        public Alert alert() {
            return new Alert(AlertKind.POLICY_EXPIRED, createdAt, "Policy " + policyId.value() + " of wallet " + agentId
                    + " (" + walletId.value() + ") expired; the wallet is frozen", policyId.value());
        }
    }

    /** A payment or escrow lock of {@code amount} that {@code rule} refused, recorded as {@code txId}. */
    record TransactionBlocked(EventId id, Instant createdAt, TxId txId, WalletId walletId, Usdc amount,
                              String recipient, ViolationRule rule) implements AlertingEvent {
        public TransactionBlocked {
            requireNonNull(id, "id is null");
            requireNonNull(createdAt, "createdAt is null");
            requireNonNull(txId, "txId is null");
            requireNonNull(walletId, "walletId is null");
            requireNonNull(amount, "amount is null");
            requireNonNull(recipient, "recipient is null");
            requireNonNull(rule, "rule is null");
        }

        public Alert alert() {
            return new Alert(AlertKind.TRANSACTION_BLOCKED, createdAt, "Payment of " + amount + " USDC from wallet "
                    + walletId.value() + " to " + recipient + " blocked by the rule " + rule.wireName(), txId.value());
        }
    }

    /** The sender disputed the escrow of {@code amount} to {@code recipient}, for {@code reason}. */
    record EscrowDisputed(EventId id, Instant createdAt, EscrowId escrowId, WalletId fromWallet, String recipient,
                          Usdc amount, String reason) implements AlertingEvent {
        public EscrowDisputed {
            requireNonNull(id, "id is null");
            requireNonNull(createdAt, "createdAt is null");
            requireNonNull(escrowId, "escrowId is null");
            requireNonNull(fromWallet, "fromWallet is null");
            requireNonNull(recipient, "recipient is null");
            requireNonNull(amount, "amount is null");
            requireNonNull(reason, "reason is null");
        }

        public Alert alert() {
            return new Alert(AlertKind.ESCROW_DISPUTED, createdAt, "Escrow of " + amount + " USDC from wallet "
                    + fromWallet.value() + " to " + recipient + " disputed: " + reason, escrowId.value());
        }
    }
}
