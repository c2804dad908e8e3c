package com.agentwallet.core.event;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.escrow.Dispute;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.export.ExportStatus;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.TypedId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.FieldChange;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The events of the catalogue, each with the payload fields a receiver gets (snake_case, wire
 * formatted). The outbox adds {@code event}, {@code id} and {@code created_at} when it stores one.
 * An event about a transaction, wallet or escrow is made from that object's state after the change,
 * so its fields carry the names and values the REST resource answers (docs/API.md, "Event payloads").
 */
public sealed interface DomainEvent {

    EventType type();

    OrgId orgId();

    /** The wallet whose events must be delivered in order, when the event concerns one. */
    Optional<WalletId> walletId();

    Instant at();

    /** The payload fields of the event, without the envelope. */
    Map<String, Object> payload();

    /**
     * An event about a transaction: {@code wallet_id}, {@code tx_id}, {@code type}, {@code status},
     * the amount, {@code currency} and {@code recipient}, then its own fields and {@code timestamp}.
     */
    sealed interface OfTransaction extends DomainEvent {
        Transaction tx();

        default OrgId orgId() {
            return tx().orgId();
        }

        default Optional<WalletId> walletId() {
            return Optional.of(tx().walletId());
        }
    }

    /** An event about a wallet: {@code wallet_id}, {@code agent_id}, its own fields, then {@code timestamp}. */
    sealed interface OfWallet extends DomainEvent {
        Wallet wallet();

        default OrgId orgId() {
            return wallet().orgId();
        }

        default Optional<WalletId> walletId() {
            return Optional.of(wallet().id());
        }
    }

    /**
     * An event about an escrow, delivered in order with its sender's events: {@code escrow_id},
     * {@code from_wallet}, {@code to_wallet}, {@code recipient}, {@code amount}, {@code currency},
     * {@code status}, its own fields, then {@code timestamp}.
     */
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

        public Map<String, Object> payload() {
            return transactionFields(tx, "amount", at, "tx_signature", tx.signature().orElseThrow(),
                    "policy_triggered", tx.policyTriggered(), "on_chain_slot", tx.slot().orElseThrow());
        }
    }

    /** A payment or escrow lock that failed a policy check; its amount is {@code attempted_amount}, as the spec names it. */
    record TransactionBlocked(Transaction tx, Instant at) implements OfTransaction {
        public TransactionBlocked {
            requireStatus(tx, TransactionStatus.BLOCKED);
        }

        public EventType type() {
            return EventType.TRANSACTION_BLOCKED;
        }

        public Map<String, Object> payload() {
            Violation violation = tx.violation().orElseThrow();
            return transactionFields(tx, "attempted_amount", at, "violation", fields("rule", violation.rule().wireName(),
                    "limit", violation.limit(), "attempted", violation.attempted()));
        }
    }

    record TransactionPending(Transaction tx, Instant at) implements OfTransaction {
        public TransactionPending {
            requireStatus(tx, TransactionStatus.PENDING);
        }

        public EventType type() {
            return EventType.TRANSACTION_PENDING;
        }

        public Map<String, Object> payload() {
            return transactionFields(tx, "amount", at);
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

        public Map<String, Object> payload() {
            return transactionFields(tx, "amount", at,
                    "co_sign_expires_at", Timestamps.format(tx.coSign().orElseThrow().expiresAt()));
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

        public Map<String, Object> payload() {
            return transactionFields(tx, "amount", at, "failure_reason", tx.failureReason().orElseThrow());
        }
    }

    record WalletCreated(Wallet wallet, Instant at) implements OfWallet {
        public EventType type() {
            return EventType.WALLET_CREATED;
        }

        public Map<String, Object> payload() {
            return walletFields(wallet, at, "solana_address", wallet.address().base58(),
                    "policy_id", wallet.policyId().value(), "status", wallet.status().wireName());
        }
    }

    /**
     * Funds allocated to ({@code wallet.funded}) or withdrawn from ({@code wallet.withdrawn}) a
     * wallet by the confirmed transaction {@code tx}; {@code usdc_balance} is the wallet's balance after it.
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

        public Map<String, Object> payload() {
            return walletFields(wallet, at, "tx_id", tx.id().value(), "amount", tx.amount().toString(),
                    "currency", Usdc.CURRENCY, "usdc_balance", wallet.balance().toString());
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

        public Map<String, Object> payload() {
            return walletFields(wallet, at, "status", wallet.status().wireName());
        }
    }

    /** A debit took the wallet's balance ({@code current_balance}) below its auto-topup trigger ({@code threshold}). */
    record BalanceLow(Wallet wallet, Usdc threshold, Instant at) implements OfWallet {
        public EventType type() {
            return EventType.BALANCE_LOW;
        }

        public Map<String, Object> payload() {
            return walletFields(wallet, at, "current_balance", wallet.balance().toString(),
                    "threshold", threshold.toString(), "currency", Usdc.CURRENCY);
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

        public Map<String, Object> payload() {
            return fields("policy_id", policyId.value(), "version", version, "changes", FieldChange.toPayload(changes),
                    "timestamp", Timestamps.format(at));
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

        public Map<String, Object> payload() {
            return walletFields(wallet, at, "policy_id", wallet.policyId().value(), "expiry", Timestamps.format(expiry),
                    "status", wallet.status().wireName());
        }
    }

    record EscrowCreated(Escrow escrow, Instant at) implements OfEscrow {
        public EscrowCreated {
            requireStatus(escrow, EscrowStatus.LOCKED);
        }

        public EventType type() {
            return EventType.ESCROW_CREATED;
        }

        public Map<String, Object> payload() {
            return escrowFields(escrow, at, "timeout_at", Timestamps.format(escrow.timeoutAt()),
                    "lock_tx_id", escrow.lockTx().value());
        }
    }

    /** An escrow settled: released to the receiver, or refunded to the sender ({@code settle_reason} says why). */
    record EscrowSettled(Escrow escrow, Instant at) implements OfEscrow {
        public EscrowSettled {
            requireStatus(escrow, EscrowStatus.RELEASED, EscrowStatus.REFUNDED);
        }

        public EventType type() {
            return escrow.status() == EscrowStatus.RELEASED ? EventType.ESCROW_RELEASED : EventType.ESCROW_REFUNDED;
        }

        public Map<String, Object> payload() {
            return escrowFields(escrow, at, "settle_reason", escrow.settleReason().orElseThrow(),
                    "settle_tx_id", escrow.settleTx().map(TxId::value).orElse(null));
        }
    }

    record EscrowDisputed(Escrow escrow, Instant at) implements OfEscrow {
        public EscrowDisputed {
            requireStatus(escrow, EscrowStatus.DISPUTED);
        }

        public EventType type() {
            return EventType.ESCROW_DISPUTED;
        }

        public Map<String, Object> payload() {
            Dispute dispute = escrow.dispute().orElseThrow();
            return escrowFields(escrow, at, "reason", dispute.reason(), "evidence", dispute.evidence());
        }
    }

    /** A deposit reached the organisation's treasury; {@code usdc_balance} is the treasury after it. */
    record OrgDepositConfirmed(OrgId orgId, Usdc amount, Usdc balance, Instant at) implements DomainEvent {
        public EventType type() {
            return EventType.ORG_DEPOSIT_CONFIRMED;
        }

        public Optional<WalletId> walletId() {
            return Optional.empty();
        }

        public Map<String, Object> payload() {
            return fields("org_id", orgId.value(), "amount", amount.toString(), "currency", Usdc.CURRENCY,
                    "usdc_balance", balance.toString(), "timestamp", Timestamps.format(at));
        }
    }

    /**
     * An export's file can be downloaded: the job's fields as {@code GET /transactions/exports/{id}}
     * answers them (filters null when not set) and {@code download_path}, relative to the base URL.
     */
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

        public Map<String, Object> payload() {
            return fields("export_id", job.id().value(), "status", job.status().wireName(),
                    "format", job.format().wireName(), "wallet_id", job.walletId().map(TypedId::value).orElse(null),
                    "from", job.from().map(Timestamps::format).orElse(null),
                    "to", job.to().map(Timestamps::format).orElse(null), "row_count", job.rowCount().orElseThrow(),
                    "download_path", "/transactions/exports/" + job.id().value() + "/download",
                    "timestamp", Timestamps.format(at()));
        }
    }

    record Ping(OrgId orgId, WebhookId webhookId, Instant at) implements DomainEvent {
        public EventType type() {
            return EventType.PING;
        }

        public Optional<WalletId> walletId() {
            return Optional.empty();
        }

        public Map<String, Object> payload() {
            return fields("webhook_id", webhookId.value(), "timestamp", Timestamps.format(at));
        }
    }

    private static Map<String, Object> fields(Object... namesAndValues) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            fields.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return fields;
    }

    /** {@code leading} fields, then the event's {@code own} fields, then {@code timestamp}. */
    private static Map<String, Object> framed(Map<String, Object> leading, Instant at, Object... own) {
        leading.putAll(fields(own));
        leading.put("timestamp", Timestamps.format(at));
        return leading;
    }

    private static Map<String, Object> transactionFields(Transaction tx, String amountField, Instant at, Object... own) {
        return framed(fields("wallet_id", tx.walletId().value(), "tx_id", tx.id().value(), "type", tx.type().wireName(),
                "status", tx.status().wireName(), amountField, tx.amount().toString(), "currency", Usdc.CURRENCY,
                "recipient", tx.recipient()), at, own);
    }

    private static Map<String, Object> walletFields(Wallet wallet, Instant at, Object... own) {
        return framed(fields("wallet_id", wallet.id().value(), "agent_id", wallet.agentId()), at, own);
    }

    private static Map<String, Object> escrowFields(Escrow escrow, Instant at, Object... own) {
        return framed(fields("escrow_id", escrow.id().value(), "from_wallet", escrow.fromWallet().value(),
                "to_wallet", escrow.toWallet(), "recipient", escrow.receiver(), "amount", escrow.amount().toString(),
                "currency", Usdc.CURRENCY, "status", escrow.status().wireName()), at, own);
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
