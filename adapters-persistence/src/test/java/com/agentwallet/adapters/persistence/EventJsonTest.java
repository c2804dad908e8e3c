package com.agentwallet.adapters.persistence;

import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.core.policy.ViolationRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;
import java.util.Map;

import static com.agentwallet.core.testing.EventSubjects.ADDRESS;
import static com.agentwallet.core.testing.EventSubjects.AT;
import static com.agentwallet.core.testing.EventSubjects.POLICY;
import static com.agentwallet.core.testing.EventSubjects.RECIPIENT;
import static com.agentwallet.core.testing.EventSubjects.TX;
import static com.agentwallet.core.testing.EventSubjects.WALLET;
import static com.agentwallet.core.testing.EventSubjects.payment;
import static com.agentwallet.core.testing.EventSubjects.wallet;
import static org.assertj.core.api.Assertions.assertThat;

/** The wire shape of single events: names, JSON types and order; EventCatalogueTest covers every event. */
class EventJsonTest {
    private static final String TIMESTAMP = "2026-04-01T12:00:00.250Z";
    private static final Instant CREATED = Instant.parse("2026-04-01T12:00:01Z");
    private static final EventId EVENT = new EventId("evt_VVVVVVVVVVVVVVVVVVVVVVVV");

    @Test
    void transactionCompletedCarriesTheSpecFieldsWithTheirTypes() {
        Map<String, Object> body = body(new DomainEvent.TransactionCompleted(payment(TransactionStatus.PENDING, "12.5")
                .withPolicyTriggered(true).confirmed("5sig", 987_654_321L, AT), AT));

        assertThat(body.keySet()).containsExactly("event", "id", "created_at", "wallet_id", "tx_id", "type", "status",
                "amount", "currency", "recipient", "tx_signature", "policy_triggered", "on_chain_slot", "timestamp");
        assertThat(body).containsEntry("event", "transaction.completed").containsEntry("wallet_id", WALLET.value())
                .containsEntry("tx_id", TX.value()).containsEntry("type", "payment").containsEntry("status", "confirmed")
                .containsEntry("tx_signature", "5sig").containsEntry("amount", "12.50").containsEntry("currency", "USDC")
                .containsEntry("recipient", RECIPIENT).containsEntry("timestamp", TIMESTAMP);
        assertThat(body.get("policy_triggered")).isInstanceOf(Boolean.class).isEqualTo(true);
        assertThat(body.get("on_chain_slot")).isInstanceOf(Long.class).isEqualTo(987_654_321L);
    }

    @Test
    void transactionBlockedCarriesTheViolation() {
        Map<String, Object> body = body(new DomainEvent.TransactionBlocked(payment(TransactionStatus.PENDING,
                "100.000001").blockedBy(new Violation(ViolationRule.MAX_PER_TX, "100.00", "100.000001")), AT));

        assertThat(body.keySet()).containsExactly("event", "id", "created_at", "wallet_id", "tx_id", "type", "status",
                "attempted_amount", "currency", "recipient", "violation", "timestamp");
        assertThat(body).containsEntry("wallet_id", WALLET.value()).containsEntry("attempted_amount", "100.000001")
                .containsEntry("status", "blocked").containsEntry("recipient", RECIPIENT)
                .containsEntry("timestamp", TIMESTAMP);
        @SuppressWarnings("unchecked")
        Map<String, Object> violation = (Map<String, Object>) body.get("violation");
        assertThat(violation).containsExactly(Map.entry("rule", "max_per_tx"), Map.entry("limit", "100.00"),
                Map.entry("attempted", "100.000001"));
    }

    @Test
    void walletCreatedCarriesTheAgentAndTheSolanaAddress() {
        Map<String, Object> body = body(new DomainEvent.WalletCreated(wallet("0"), AT));

        assertThat(body.keySet()).containsExactly("event", "id", "created_at", "wallet_id", "agent_id",
                "solana_address", "policy_id", "status", "timestamp");
        assertThat(body).containsEntry("event", "wallet.created").containsEntry("wallet_id", WALLET.value())
                .containsEntry("agent_id", "agent-7").containsEntry("solana_address", ADDRESS.base58())
                .containsEntry("policy_id", POLICY.value()).containsEntry("status", "active")
                .containsEntry("timestamp", TIMESTAMP);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = TransactionStatus.class, names = {"FAILED", "REJECTED", "EXPIRED"})
    void anEndingWithoutPaymentCarriesItsStatusAndReason(TransactionStatus status) {
        Map<String, Object> body = body(new DomainEvent.TransactionEnded(payment(TransactionStatus.PENDING, "1")
                .endedWithout(status, "why", AT), AT));

        assertThat(body).containsEntry("event", "transaction." + status.wireName())
                .containsEntry("status", status.wireName()).containsEntry("failure_reason", "why");
    }

    @Test
    void theBodyIsTheEnvelopeThenTheFieldsThenTheTimestamp() {
        Map<String, Object> body = body(new DomainEvent.BalanceLow(wallet("4.2"), Usdc.parse("5"), AT));

        assertThat(body).containsExactly(Map.entry("event", "balance.low"), Map.entry("id", EVENT.value()),
                Map.entry("created_at", "2026-04-01T12:00:01.000Z"), Map.entry("wallet_id", WALLET.value()),
                Map.entry("agent_id", "agent-7"), Map.entry("current_balance", "4.20"), Map.entry("threshold", "5.00"),
                Map.entry("currency", "USDC"), Map.entry("timestamp", TIMESTAMP));
    }

    @Test
    void theWrittenTextKeepsTheRenderedOrderAndTheJsonTypes() {
        String json = Json.write(body(new DomainEvent.TransactionCompleted(payment(TransactionStatus.PENDING, "1")
                .confirmed("5sig", 42L, AT), AT)));

        assertThat(json).startsWith("{\"event\":\"transaction.completed\",\"id\":\"" + EVENT.value() + "\",")
                .contains("\"policy_triggered\":false,\"on_chain_slot\":42,")
                .endsWith("\"timestamp\":\"" + TIMESTAMP + "\"}");
    }

    private static Map<String, Object> body(DomainEvent event) {
        return EventJson.body(new OutboxEvent(EVENT, event, CREATED));
    }
}
