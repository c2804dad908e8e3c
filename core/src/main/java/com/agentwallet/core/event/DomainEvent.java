package com.agentwallet.core.event;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.FieldChange;
import com.agentwallet.core.policy.Violation;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The events of the catalogue, each with the payload fields a receiver gets (snake_case, wire
 * formatted). The outbox adds {@code event}, {@code id} and {@code created_at} when it stores one.
 */
public sealed interface DomainEvent {

    EventType type();

    OrgId orgId();

    /** The wallet whose events must be delivered in order, when the event concerns one. */
    Optional<WalletId> walletId();

    Instant at();

    /** The payload fields of the event, without the envelope. */
    Map<String, Object> payload();

    record TransactionCompleted(OrgId orgId, WalletId wallet, TxId txId, String signature, Usdc amount,
                                String recipient, boolean policyTriggered, long slot, Instant at) implements DomainEvent {
        public EventType type() {
            return EventType.TRANSACTION_COMPLETED;
        }

        public Optional<WalletId> walletId() {
            return Optional.of(wallet);
        }

        public Map<String, Object> payload() {
            return fields("wallet_id", wallet.value(), "tx_id", txId.value(), "tx_signature", signature,
                    "amount", amount.toString(), "recipient", recipient, "policy_triggered", policyTriggered,
                    "on_chain_slot", slot, "timestamp", Timestamps.format(at));
        }
    }

    record TransactionBlocked(OrgId orgId, WalletId wallet, TxId txId, Usdc attemptedAmount, String recipient,
                              Violation violation, Instant at) implements DomainEvent {
        public EventType type() {
            return EventType.TRANSACTION_BLOCKED;
        }

        public Optional<WalletId> walletId() {
            return Optional.of(wallet);
        }

        public Map<String, Object> payload() {
            return fields("wallet_id", wallet.value(), "tx_id", txId.value(),
                    "attempted_amount", attemptedAmount.toString(), "recipient", recipient,
                    "violation", violationFields(violation), "timestamp", Timestamps.format(at));
        }
    }

    record TransactionPending(OrgId orgId, WalletId wallet, TxId txId, Usdc amount, String recipient, Instant at)
            implements DomainEvent {
        public EventType type() {
            return EventType.TRANSACTION_PENDING;
        }

        public Optional<WalletId> walletId() {
            return Optional.of(wallet);
        }

        public Map<String, Object> payload() {
            return fields("wallet_id", wallet.value(), "tx_id", txId.value(), "amount", amount.toString(),
                    "recipient", recipient, "timestamp", Timestamps.format(at));
        }
    }

    /** The operator alert of a payment that waits for its co-signature. */
    record TransactionCoSignRequired(OrgId orgId, WalletId wallet, TxId txId, Usdc amount, String recipient,
                                     Instant expiresAt, Instant at) implements DomainEvent {
        public EventType type() {
            return EventType.TRANSACTION_CO_SIGN_REQUIRED;
        }

        public Optional<WalletId> walletId() {
            return Optional.of(wallet);
        }

        public Map<String, Object> payload() {
            return fields("wallet_id", wallet.value(), "tx_id", txId.value(), "amount", amount.toString(),
                    "recipient", recipient, "co_sign_expires_at", Timestamps.format(expiresAt),
                    "timestamp", Timestamps.format(at));
        }
    }

    /** A transaction that ended without moving money: failed on the ledger, rejected by the operator, or expired. */
    record TransactionEnded(OrgId orgId, WalletId wallet, TxId txId, Usdc amount, String recipient,
                            TransactionStatus status, String reason, Instant at) implements DomainEvent {
        public TransactionEnded {
            if (status != TransactionStatus.FAILED && status != TransactionStatus.REJECTED
                    && status != TransactionStatus.EXPIRED) {
                throw new IllegalArgumentException("not an ending without payment: " + status);
            }
        }

        public EventType type() {
            return switch (status) {
                case REJECTED -> EventType.TRANSACTION_REJECTED;
                case EXPIRED -> EventType.TRANSACTION_EXPIRED;
                default -> EventType.TRANSACTION_FAILED;
            };
        }

        public Optional<WalletId> walletId() {
            return Optional.of(wallet);
        }

        public Map<String, Object> payload() {
            return fields("wallet_id", wallet.value(), "tx_id", txId.value(), "amount", amount.toString(),
                    "recipient", recipient, "status", status.wireName(), "reason", reason,
                    "timestamp", Timestamps.format(at));
        }
    }

    record WalletCreated(OrgId orgId, WalletId wallet, String agentId, LedgerAddress address, Instant at)
            implements DomainEvent {
        public EventType type() {
            return EventType.WALLET_CREATED;
        }

        public Optional<WalletId> walletId() {
            return Optional.of(wallet);
        }

        public Map<String, Object> payload() {
            return fields("wallet_id", wallet.value(), "agent_id", agentId, "solana_address", address.base58(),
                    "timestamp", Timestamps.format(at));
        }
    }

    /** Funds allocated to ({@code wallet.funded}) or withdrawn from ({@code wallet.withdrawn}) a wallet. */
    record WalletBalanceMoved(EventType type, OrgId orgId, WalletId wallet, TxId txId, Usdc amount, Usdc balance,
                              Instant at) implements DomainEvent {
        public WalletBalanceMoved {
            if (type != EventType.WALLET_FUNDED && type != EventType.WALLET_WITHDRAWN) {
                throw new IllegalArgumentException("not a balance movement: " + type);
            }
        }

        public Optional<WalletId> walletId() {
            return Optional.of(wallet);
        }

        public Map<String, Object> payload() {
            return fields("wallet_id", wallet.value(), "tx_id", txId.value(), "amount", amount.toString(),
                    "usdc_balance", balance.toString(), "timestamp", Timestamps.format(at));
        }
    }

    /** A wallet's status changed: frozen (by an operator), unfrozen or archived. */
    record WalletStatusChanged(EventType type, OrgId orgId, WalletId wallet, Instant at) implements DomainEvent {
        public WalletStatusChanged {
            if (type != EventType.WALLET_FROZEN && type != EventType.WALLET_UNFROZEN
                    && type != EventType.WALLET_ARCHIVED) {
                throw new IllegalArgumentException("not a wallet status event: " + type);
            }
        }

        public Optional<WalletId> walletId() {
            return Optional.of(wallet);
        }

        public Map<String, Object> payload() {
            return fields("wallet_id", wallet.value(), "timestamp", Timestamps.format(at));
        }
    }

    record BalanceLow(OrgId orgId, WalletId wallet, Usdc currentBalance, Usdc threshold, Instant at)
            implements DomainEvent {
        public EventType type() {
            return EventType.BALANCE_LOW;
        }

        public Optional<WalletId> walletId() {
            return Optional.of(wallet);
        }

        public Map<String, Object> payload() {
            return fields("wallet_id", wallet.value(), "current_balance", currentBalance.toString(),
                    "threshold", threshold.toString(), "timestamp", Timestamps.format(at));
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

    /** A policy's expiry passed and this attached wallet was frozen. */
    record PolicyExpired(OrgId orgId, PolicyId policyId, WalletId wallet, Instant expiry, Instant at)
            implements DomainEvent {
        public EventType type() {
            return EventType.POLICY_EXPIRED;
        }

        public Optional<WalletId> walletId() {
            return Optional.of(wallet);
        }

        public Map<String, Object> payload() {
            return fields("policy_id", policyId.value(), "wallet_id", wallet.value(),
                    "expiry", Timestamps.format(expiry), "timestamp", Timestamps.format(at));
        }
    }

    record EscrowCreated(OrgId orgId, EscrowId escrowId, WalletId fromWallet, String toWallet, Usdc amount,
                         Instant timeoutAt, Instant at) implements DomainEvent {
        public EventType type() {
            return EventType.ESCROW_CREATED;
        }

        public Optional<WalletId> walletId() {
            return Optional.of(fromWallet);
        }

        public Map<String, Object> payload() {
            return fields("escrow_id", escrowId.value(), "from_wallet", fromWallet.value(), "to_wallet", toWallet,
                    "amount", amount.toString(), "timeout_at", Timestamps.format(timeoutAt),
                    "timestamp", Timestamps.format(at));
        }
    }

    /** An escrow settled: released to the receiver, or refunded to the sender ({@code reason} says why). */
    record EscrowSettled(EventType type, OrgId orgId, EscrowId escrowId, WalletId fromWallet, String toWallet,
                         Usdc amount, String reason, Instant at) implements DomainEvent {
        public EscrowSettled {
            if (type != EventType.ESCROW_RELEASED && type != EventType.ESCROW_REFUNDED) {
                throw new IllegalArgumentException("not an escrow settlement: " + type);
            }
        }

        public Optional<WalletId> walletId() {
            return Optional.of(fromWallet);
        }

        public Map<String, Object> payload() {
            return fields("escrow_id", escrowId.value(), "from_wallet", fromWallet.value(), "to_wallet", toWallet,
                    "amount", amount.toString(), "reason", reason, "timestamp", Timestamps.format(at));
        }
    }

    record EscrowDisputed(OrgId orgId, EscrowId escrowId, WalletId fromWallet, String reason, String evidence,
                          Instant at) implements DomainEvent {
        public EventType type() {
            return EventType.ESCROW_DISPUTED;
        }

        public Optional<WalletId> walletId() {
            return Optional.of(fromWallet);
        }

        public Map<String, Object> payload() {
            return fields("escrow_id", escrowId.value(), "from_wallet", fromWallet.value(), "reason", reason,
                    "evidence", evidence, "timestamp", Timestamps.format(at));
        }
    }

    record OrgDepositConfirmed(OrgId orgId, Usdc amount, Usdc balance, Instant at) implements DomainEvent {
        public EventType type() {
            return EventType.ORG_DEPOSIT_CONFIRMED;
        }

        public Optional<WalletId> walletId() {
            return Optional.empty();
        }

        public Map<String, Object> payload() {
            return fields("org_id", orgId.value(), "amount", amount.toString(), "balance", balance.toString(),
                    "timestamp", Timestamps.format(at));
        }
    }

    record ExportReady(OrgId orgId, ExportId exportId, String format, Instant at) implements DomainEvent {
        public EventType type() {
            return EventType.EXPORT_READY;
        }

        public Optional<WalletId> walletId() {
            return Optional.empty();
        }

        public Map<String, Object> payload() {
            return fields("export_id", exportId.value(), "format", format, "timestamp", Timestamps.format(at));
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

    private static Map<String, Object> violationFields(Violation violation) {
        return fields("rule", violation.rule().wireName(), "limit", violation.limit(), "attempted", violation.attempted());
    }
}
