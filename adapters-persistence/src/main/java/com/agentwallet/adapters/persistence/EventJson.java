package com.agentwallet.adapters.persistence;

import com.agentwallet.core.alert.AlertingEvent;
import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.common.WireNamed;
import com.agentwallet.core.escrow.Dispute;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.TypedId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.policy.FieldChange;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.wallet.Wallet;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON body a webhook receiver gets for an event (docs/API.md, "Event payloads"), rendered as
 * the outbox stores the event, so that a delivery sends what was true when it happened: the
 * envelope ({@code event}, {@code id}, {@code created_at}), the event's fields, then
 * {@code timestamp}. Fields about a transaction, wallet or escrow carry the names and values its
 * REST resource answers, and start with the same leading fields in every event about one.
 */
final class EventJson {
    private static final DomainEvent.Cases<Map<String, Object>> FIELDS = new Fields();

    private EventJson() {
    }

    static Map<String, Object> body(OutboxEvent stored) {
        DomainEvent event = stored.event();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("event", event.type().wireName());
        body.put("id", stored.id().value());
        body.put("created_at", Timestamps.format(stored.createdAt()));
        body.putAll(event.match(FIELDS));
        body.put("timestamp", Timestamps.format(event.at()));
        return body;
    }

    /**
     * What the alerts feed reads back of the {@code body} this class rendered for an event of
     * {@link AlertingEvent#TYPES}: the fields its alert quotes.
     */
    static AlertingEvent alerting(EventId id, EventType type, Map<String, Object> body, Instant createdAt) {
        return switch (type) {
            case BALANCE_LOW -> new AlertingEvent.BalanceLow(id, createdAt, new WalletId(text(body, "wallet_id")),
                    text(body, "agent_id"), Usdc.parse(text(body, "current_balance")), Usdc.parse(text(body, "threshold")));
            case POLICY_EXPIRED -> new AlertingEvent.PolicyExpired(id, createdAt, new WalletId(text(body, "wallet_id")),
                    text(body, "agent_id"), new PolicyId(text(body, "policy_id")));
            case TRANSACTION_BLOCKED -> new AlertingEvent.TransactionBlocked(id, createdAt, new TxId(text(body, "tx_id")),
                    new WalletId(text(body, "wallet_id")), Usdc.parse(text(body, "attempted_amount")),
                    text(body, "recipient"), WireNamed.parse(ViolationRule.class, text(violation(body), "rule"), "rule"));
            case ESCROW_DISPUTED -> new AlertingEvent.EscrowDisputed(id, createdAt, new EscrowId(text(body, "escrow_id")),
                    new WalletId(text(body, "from_wallet")), text(body, "recipient"), Usdc.parse(text(body, "amount")),
                    text(body, "reason"));
            default -> throw new IllegalArgumentException("not an alerting event: " + type.wireName());
        };
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> violation(Map<String, Object> body) {
        if (!(body.get("violation") instanceof Map<?, ?> violation)) {
            throw new IllegalStateException("a transaction.blocked body without its violation: " + body);
        }
        return (Map<String, Object>) violation;
    }

    private static String text(Map<String, Object> body, String field) {
        if (!(body.get(field) instanceof String value)) {
            throw new IllegalStateException("an event body without the text '" + field + "': " + body);
        }
        return value;
    }

    /** Each event's own fields, in order, between the envelope and {@code timestamp}. */
    private static final class Fields implements DomainEvent.Cases<Map<String, Object>> {
        @Override
        public Map<String, Object> transactionCompleted(DomainEvent.TransactionCompleted event) {
            Transaction tx = event.tx();
            Map<String, Object> fields = transaction(tx, "amount");
            fields.put("tx_signature", tx.signature().orElseThrow());
            fields.put("policy_triggered", tx.policyTriggered());
            fields.put("on_chain_slot", tx.slot().orElseThrow());
            return fields;
        }

        /** The spec names a blocked attempt's amount {@code attempted_amount}. */
        @Override
        public Map<String, Object> transactionBlocked(DomainEvent.TransactionBlocked event) {
            Violation violation = event.tx().violation().orElseThrow();
            Map<String, Object> violated = new LinkedHashMap<>();
            violated.put("rule", violation.rule().wireName());
            violated.put("limit", violation.limit());
            violated.put("attempted", violation.attempted());
            Map<String, Object> fields = transaction(event.tx(), "attempted_amount");
            fields.put("violation", violated);
            return fields;
        }

        @Override
        public Map<String, Object> transactionPending(DomainEvent.TransactionPending event) {
            return transaction(event.tx(), "amount");
        }

        @Override
        public Map<String, Object> transactionCoSignRequired(DomainEvent.TransactionCoSignRequired event) {
            Map<String, Object> fields = transaction(event.tx(), "amount");
            fields.put("co_sign_expires_at", Timestamps.format(event.tx().coSign().orElseThrow().expiresAt()));
            return fields;
        }

        @Override
        public Map<String, Object> transactionEnded(DomainEvent.TransactionEnded event) {
            Map<String, Object> fields = transaction(event.tx(), "amount");
            fields.put("failure_reason", event.tx().failureReason().orElseThrow());
            return fields;
        }

        @Override
        public Map<String, Object> walletCreated(DomainEvent.WalletCreated event) {
            Wallet wallet = event.wallet();
            Map<String, Object> fields = wallet(wallet);
            fields.put("solana_address", wallet.address().base58());
            fields.put("policy_id", wallet.policyId().value());
            fields.put("status", wallet.status().wireName());
            return fields;
        }

        @Override
        public Map<String, Object> walletBalanceMoved(DomainEvent.WalletBalanceMoved event) {
            Map<String, Object> fields = wallet(event.wallet());
            fields.put("tx_id", event.tx().id().value());
            fields.put("amount", event.tx().amount().toString());
            fields.put("currency", Usdc.CURRENCY);
            fields.put("usdc_balance", event.wallet().balance().toString());
            return fields;
        }

        @Override
        public Map<String, Object> walletStatusChanged(DomainEvent.WalletStatusChanged event) {
            Map<String, Object> fields = wallet(event.wallet());
            fields.put("status", event.wallet().status().wireName());
            return fields;
        }

        @Override
        public Map<String, Object> balanceLow(DomainEvent.BalanceLow event) {
            Map<String, Object> fields = wallet(event.wallet());
            fields.put("current_balance", event.wallet().balance().toString());
            fields.put("threshold", event.threshold().toString());
            fields.put("currency", Usdc.CURRENCY);
            return fields;
        }

        @Override
        public Map<String, Object> policyUpdated(DomainEvent.PolicyUpdated event) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("policy_id", event.policyId().value());
            fields.put("version", event.version());
            fields.put("changes", FieldChange.toPayload(event.changes()));
            return fields;
        }

        @Override
        public Map<String, Object> policyExpired(DomainEvent.PolicyExpired event) {
            Wallet wallet = event.wallet();
            Map<String, Object> fields = wallet(wallet);
            fields.put("policy_id", wallet.policyId().value());
            fields.put("expiry", Timestamps.format(event.expiry()));
            fields.put("status", wallet.status().wireName());
            return fields;
        }

        @Override
        public Map<String, Object> escrowCreated(DomainEvent.EscrowCreated event) {
            Map<String, Object> fields = escrow(event.escrow());
            fields.put("timeout_at", Timestamps.format(event.escrow().timeoutAt()));
            fields.put("lock_tx_id", event.escrow().lockTx().value());
            return fields;
        }

        /** A refund of a lock the ledger refused has no transaction paying the vault out: null. */
        @Override
        public Map<String, Object> escrowSettled(DomainEvent.EscrowSettled event) {
            Map<String, Object> fields = escrow(event.escrow());
            fields.put("settle_reason", event.escrow().settleReason().orElseThrow());
            fields.put("settle_tx_id", event.escrow().settleTx().map(TxId::value).orElse(null));
            return fields;
        }

        @Override
        public Map<String, Object> escrowDisputed(DomainEvent.EscrowDisputed event) {
            Dispute dispute = event.escrow().dispute().orElseThrow();
            Map<String, Object> fields = escrow(event.escrow());
            fields.put("reason", dispute.reason());
            fields.put("evidence", dispute.evidence());
            return fields;
        }

        @Override
        public Map<String, Object> orgDepositConfirmed(DomainEvent.OrgDepositConfirmed event) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("org_id", event.orgId().value());
            fields.put("amount", event.amount().toString());
            fields.put("currency", Usdc.CURRENCY);
            fields.put("usdc_balance", event.balance().toString());
            return fields;
        }

        /**
         * The job's fields as {@code GET /transactions/exports/{id}} answers them (filters null when
         * not set) and where to download the file, relative to the API's base URL.
         */
        @Override
        public Map<String, Object> exportReady(DomainEvent.ExportReady event) {
            ExportJob job = event.job();
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("export_id", job.id().value());
            fields.put("status", job.status().wireName());
            fields.put("format", job.format().wireName());
            fields.put("wallet_id", job.walletId().map(TypedId::value).orElse(null));
            fields.put("from", job.from().map(Timestamps::format).orElse(null));
            fields.put("to", job.to().map(Timestamps::format).orElse(null));
            fields.put("row_count", job.rowCount().orElseThrow());
            fields.put("download_path", "/transactions/exports/" + job.id().value() + "/download");
            return fields;
        }

        @Override
        public Map<String, Object> ping(DomainEvent.Ping event) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("webhook_id", event.webhookId().value());
            return fields;
        }

        private static Map<String, Object> transaction(Transaction tx, String amountField) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("wallet_id", tx.walletId().value());
            fields.put("tx_id", tx.id().value());
            fields.put("type", tx.type().wireName());
            fields.put("status", tx.status().wireName());
            fields.put(amountField, tx.amount().toString());
            fields.put("currency", Usdc.CURRENCY);
            fields.put("recipient", tx.recipient());
            return fields;
        }

        private static Map<String, Object> wallet(Wallet wallet) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("wallet_id", wallet.id().value());
            fields.put("agent_id", wallet.agentId());
            return fields;
        }

        private static Map<String, Object> escrow(Escrow escrow) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("escrow_id", escrow.id().value());
            fields.put("from_wallet", escrow.fromWallet().value());
            fields.put("to_wallet", escrow.toWallet());
            fields.put("recipient", escrow.receiver());
            fields.put("amount", escrow.amount().toString());
            fields.put("currency", Usdc.CURRENCY);
            fields.put("status", escrow.status().wireName());
            return fields;
        }
    }
}
