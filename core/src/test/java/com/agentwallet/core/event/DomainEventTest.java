package com.agentwallet.core.event;

import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Optional;

import static com.agentwallet.core.testing.EventSubjects.AT;
import static com.agentwallet.core.testing.EventSubjects.ORG;
import static com.agentwallet.core.testing.EventSubjects.WALLET;
import static com.agentwallet.core.testing.EventSubjects.payment;
import static com.agentwallet.core.testing.EventSubjects.transaction;
import static com.agentwallet.core.testing.EventSubjects.wallet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DomainEventTest {

    @Test
    void aTransactionEventDescribesTheTransactionInTheStatusItNames() {
        Transaction confirmed = payment(TransactionStatus.PENDING, "1").confirmed("5sig", 987_654_321L, AT);

        DomainEvent.TransactionCompleted event = new DomainEvent.TransactionCompleted(confirmed, AT);

        assertThat(event.type()).isEqualTo(EventType.TRANSACTION_COMPLETED);
        assertThat(event.tx()).isEqualTo(confirmed);
        assertThatThrownBy(() -> new DomainEvent.TransactionCompleted(payment(TransactionStatus.PENDING, "1"), AT))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DomainEvent.TransactionPending(confirmed, AT))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = TransactionStatus.class, names = {"FAILED", "REJECTED", "EXPIRED"})
    void anEndingWithoutPaymentIsAnnouncedUnderItsOwnName(TransactionStatus status) {
        DomainEvent event = new DomainEvent.TransactionEnded(payment(TransactionStatus.PENDING, "1")
                .endedWithout(status, "why", AT), AT);
        assertThat(event.type().wireName()).isEqualTo("transaction." + status.wireName());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = TransactionStatus.class, names = {"PENDING_CO_SIGN", "PENDING", "CONFIRMED"})
    void otherStatusesAreNoEndingWithoutPayment(TransactionStatus status) {
        assertThatThrownBy(() -> new DomainEvent.TransactionEnded(payment(status, "1"), AT))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBalanceMovementIsNamedByItsTransactionsTypeAndOnlyByAFundingOrWithdrawalOfItsWallet() {
        Transaction funding = transaction(TransactionType.FUNDING, TransactionStatus.PENDING, "5");
        Transaction withdrawal = transaction(TransactionType.WITHDRAWAL, TransactionStatus.PENDING, "5");

        assertThat(new DomainEvent.WalletBalanceMoved(wallet("5"), funding, AT).type()).isEqualTo(EventType.WALLET_FUNDED);
        assertThat(new DomainEvent.WalletBalanceMoved(wallet("0"), withdrawal, AT).type())
                .isEqualTo(EventType.WALLET_WITHDRAWN);
        assertThatThrownBy(() -> new DomainEvent.WalletBalanceMoved(wallet("0"),
                payment(TransactionStatus.PENDING, "5"), AT)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyWireNameMapsBackToItsType() {
        for (EventType type : EventType.values()) {
            assertThat(EventType.fromWire(type.wireName())).contains(type);
        }
        assertThat(EventType.fromWire("transaction.exploded")).isEmpty();
    }

    @Test
    void walletEventsNameTheirWalletForOrderedDelivery() {
        DomainEvent event = new DomainEvent.BalanceLow(wallet("4.2"), Usdc.parse("5"), AT);
        assertThat(event.walletId()).isEqualTo(Optional.of(WALLET));
        assertThat(event.orgId()).isEqualTo(ORG);
        assertThat(event.at()).isEqualTo(AT);
    }
}
