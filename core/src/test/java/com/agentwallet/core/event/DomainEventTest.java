package com.agentwallet.core.event;

import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.SpendSummary;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DomainEventTest {
    private static final Instant AT = Instant.parse("2026-04-01T12:00:00.250Z");
    private static final String TIMESTAMP = "2026-04-01T12:00:00.250Z";
    private static final OrgId ORG = new OrgId("org_OOOOOOOOOOOOOOOOOOOOOOOO");
    private static final WalletId WALLET = new WalletId("wal_WWWWWWWWWWWWWWWWWWWWWWWW");
    private static final TxId TX = new TxId("tx_TTTTTTTTTTTTTTTTTTTTTTTT");
    private static final PolicyId POLICY = new PolicyId("pol_PPPPPPPPPPPPPPPPPPPPPPPP");
    private static final String RECIPIENT = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";

    @Test
    void transactionCompletedCarriesTheSpecFieldsWithTheirTypes() {
        DomainEvent event = new DomainEvent.TransactionCompleted(payment(TransactionStatus.PENDING, "12.5")
                .withPolicyTriggered(true).confirmed("5sig", 987_654_321L, AT), AT);
        Map<String, Object> payload = event.payload();

        assertThat(event.type().wireName()).isEqualTo("transaction.completed");
        assertThat(payload).containsOnlyKeys("wallet_id", "tx_id", "type", "status", "amount", "currency", "recipient",
                "tx_signature", "policy_triggered", "on_chain_slot", "timestamp");
        assertThat(payload).containsEntry("wallet_id", WALLET.value()).containsEntry("tx_id", TX.value())
                .containsEntry("type", "payment").containsEntry("status", "confirmed")
                .containsEntry("tx_signature", "5sig").containsEntry("amount", "12.50").containsEntry("currency", "USDC")
                .containsEntry("recipient", RECIPIENT).containsEntry("timestamp", TIMESTAMP);
        assertThat(payload.get("policy_triggered")).isInstanceOf(Boolean.class).isEqualTo(true);
        assertThat(payload.get("on_chain_slot")).isInstanceOf(Long.class).isEqualTo(987_654_321L);
    }

    @Test
    void transactionBlockedCarriesTheViolation() {
        DomainEvent event = new DomainEvent.TransactionBlocked(payment(TransactionStatus.PENDING, "100.000001")
                .blockedBy(new Violation(ViolationRule.MAX_PER_TX, "100.00", "100.000001")), AT);
        Map<String, Object> payload = event.payload();

        assertThat(event.type().wireName()).isEqualTo("transaction.blocked");
        assertThat(payload).containsOnlyKeys("wallet_id", "tx_id", "type", "status", "attempted_amount", "currency",
                "recipient", "violation", "timestamp");
        assertThat(payload).containsEntry("wallet_id", WALLET.value()).containsEntry("attempted_amount", "100.000001")
                .containsEntry("status", "blocked").containsEntry("recipient", RECIPIENT)
                .containsEntry("timestamp", TIMESTAMP);
        assertThat(payload.get("violation")).isEqualTo(
                Map.of("rule", "max_per_tx", "limit", "100.00", "attempted", "100.000001"));
    }

    @Test
    void walletCreatedCarriesTheAgentAndTheSolanaAddress() {
        LedgerAddress address = new LedgerAddress(Base58.encode(new byte[32]));
        DomainEvent event = new DomainEvent.WalletCreated(wallet(address, "0"), AT);

        assertThat(event.type().wireName()).isEqualTo("wallet.created");
        assertThat(event.payload()).containsOnlyKeys("wallet_id", "agent_id", "solana_address", "policy_id", "status",
                        "timestamp")
                .containsEntry("wallet_id", WALLET.value()).containsEntry("agent_id", "agent-7")
                .containsEntry("solana_address", address.base58()).containsEntry("policy_id", POLICY.value())
                .containsEntry("status", "active").containsEntry("timestamp", TIMESTAMP);
    }

    @Test
    void balanceLowCarriesTheBalanceAndTheThreshold() {
        DomainEvent event = balanceLow();

        assertThat(event.type().wireName()).isEqualTo("balance.low");
        assertThat(event.payload()).containsOnlyKeys("wallet_id", "agent_id", "current_balance", "threshold", "currency",
                        "timestamp")
                .containsEntry("wallet_id", WALLET.value()).containsEntry("current_balance", "4.20")
                .containsEntry("threshold", "5.00").containsEntry("timestamp", TIMESTAMP);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = TransactionStatus.class, names = {"FAILED", "REJECTED", "EXPIRED"})
    void anEndingWithoutPaymentIsAnnouncedUnderItsOwnName(TransactionStatus status) {
        DomainEvent event = new DomainEvent.TransactionEnded(payment(TransactionStatus.PENDING, "1")
                .endedWithout(status, "why", AT), AT);
        assertThat(event.type().wireName()).isEqualTo("transaction." + status.wireName());
        assertThat(event.payload()).containsEntry("status", status.wireName()).containsEntry("failure_reason", "why");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = TransactionStatus.class, names = {"PENDING_CO_SIGN", "PENDING", "CONFIRMED"})
    void otherStatusesAreNoEndingWithoutPayment(TransactionStatus status) {
        assertThatThrownBy(() -> new DomainEvent.TransactionEnded(payment(status, "1"), AT))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyWireNameMapsBackToItsType() {
        for (EventType type : EventType.values()) {
            assertThat(EventType.fromWire(type.wireName())).contains(type);
        }
        assertThat(EventType.fromWire("transaction.exploded")).isEmpty();
    }

    @Test
    void theOutboxBodyStartsWithTheEnvelope() {
        DomainEvent event = balanceLow();
        EventId id = new EventId("evt_VVVVVVVVVVVVVVVVVVVVVVVV");
        Map<String, Object> body = new OutboxEvent(id, event, Instant.parse("2026-04-01T12:00:01Z")).body();

        assertThat(body.keySet()).startsWith("event", "id", "created_at");
        assertThat(body.keySet()).containsExactly("event", "id", "created_at", "wallet_id", "agent_id", "current_balance",
                "threshold", "currency", "timestamp");
        assertThat(body).containsEntry("event", "balance.low").containsEntry("id", id.value())
                .containsEntry("created_at", "2026-04-01T12:00:01.000Z").containsEntry("wallet_id", WALLET.value());
    }

    @Test
    void walletEventsNameTheirWalletForOrderedDelivery() {
        DomainEvent event = balanceLow();
        assertThat(event.walletId()).isEqualTo(Optional.of(WALLET));
        assertThat(event.orgId()).isEqualTo(ORG);
        assertThat(event.at()).isEqualTo(AT);
    }

    private static Transaction payment(TransactionStatus status, String amount) {
        return Transaction.open(TX, ORG, WALLET, TransactionType.PAYMENT, status, Usdc.parse(amount), RECIPIENT, AT);
    }

    private static Wallet wallet(LedgerAddress address, String balance) {
        return new Wallet(WALLET, ORG, "agent-7", "label", POLICY, List.of(), WalletStatus.ACTIVE, address,
                Usdc.parse(balance), SpendSummary.EMPTY, 0, Optional.empty(), AT, AT);
    }

    private static DomainEvent balanceLow() {
        return new DomainEvent.BalanceLow(wallet(new LedgerAddress(Base58.encode(new byte[32])), "4.2"), Usdc.parse("5"), AT);
    }
}
