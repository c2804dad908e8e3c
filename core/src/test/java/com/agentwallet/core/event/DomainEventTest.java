package com.agentwallet.core.event;

import com.agentwallet.core.crypto.Base58;
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
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DomainEventTest {
    private static final Instant AT = Instant.parse("2026-04-01T12:00:00.250Z");
    private static final OrgId ORG = new OrgId("org_OOOOOOOOOOOOOOOOOOOOOOOO");
    private static final WalletId WALLET = new WalletId("wal_WWWWWWWWWWWWWWWWWWWWWWWW");
    private static final TxId TX = new TxId("tx_TTTTTTTTTTTTTTTTTTTTTTTT");
    private static final PolicyId POLICY = new PolicyId("pol_PPPPPPPPPPPPPPPPPPPPPPPP");
    private static final String RECIPIENT = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";

    @Test
    void aTransactionEventDescribesTheTransactionInTheStatusItNames() {
        Transaction confirmed = payment(TransactionStatus.PENDING).confirmed("5sig", 987_654_321L, AT);

        DomainEvent event = new DomainEvent.TransactionCompleted(confirmed, AT);

        assertThat(event.type()).isEqualTo(EventType.TRANSACTION_COMPLETED);
        assertThat(((DomainEvent.TransactionCompleted) event).tx()).isEqualTo(confirmed);
        assertThatThrownBy(() -> new DomainEvent.TransactionCompleted(payment(TransactionStatus.PENDING), AT))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DomainEvent.TransactionPending(confirmed, AT))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = TransactionStatus.class, names = {"FAILED", "REJECTED", "EXPIRED"})
    void anEndingWithoutPaymentIsAnnouncedUnderItsOwnName(TransactionStatus status) {
        DomainEvent event = new DomainEvent.TransactionEnded(payment(TransactionStatus.PENDING)
                .endedWithout(status, "why", AT), AT);
        assertThat(event.type().wireName()).isEqualTo("transaction." + status.wireName());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = TransactionStatus.class, names = {"PENDING_CO_SIGN", "PENDING", "CONFIRMED"})
    void otherStatusesAreNoEndingWithoutPayment(TransactionStatus status) {
        assertThatThrownBy(() -> new DomainEvent.TransactionEnded(payment(status), AT))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBalanceMovementIsNamedByItsTransactionsTypeAndOnlyByAFundingOrWithdrawalOfItsWallet() {
        Transaction funding = Transaction.open(TX, ORG, WALLET, TransactionType.FUNDING, TransactionStatus.PENDING,
                Usdc.parse("5"), RECIPIENT, AT);
        Transaction withdrawal = Transaction.open(TX, ORG, WALLET, TransactionType.WITHDRAWAL,
                TransactionStatus.PENDING, Usdc.parse("5"), RECIPIENT, AT);

        assertThat(new DomainEvent.WalletBalanceMoved(wallet("5"), funding, AT).type()).isEqualTo(EventType.WALLET_FUNDED);
        assertThat(new DomainEvent.WalletBalanceMoved(wallet("0"), withdrawal, AT).type())
                .isEqualTo(EventType.WALLET_WITHDRAWN);
        assertThatThrownBy(() -> new DomainEvent.WalletBalanceMoved(wallet("0"), payment(TransactionStatus.PENDING), AT))
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
    void walletEventsNameTheirWalletForOrderedDelivery() {
        DomainEvent event = new DomainEvent.BalanceLow(wallet("4.2"), Usdc.parse("5"), AT);
        assertThat(event.walletId()).isEqualTo(Optional.of(WALLET));
        assertThat(event.orgId()).isEqualTo(ORG);
        assertThat(event.at()).isEqualTo(AT);
    }

    private static Transaction payment(TransactionStatus status) {
        return Transaction.open(TX, ORG, WALLET, TransactionType.PAYMENT, status, Usdc.parse("1"), RECIPIENT, AT);
    }

    private static Wallet wallet(String balance) {
        return new Wallet(WALLET, ORG, "agent-7", "label", POLICY, List.of(), WalletStatus.ACTIVE,
                new LedgerAddress(Base58.encode(new byte[32])), Usdc.parse(balance), SpendSummary.EMPTY, 0,
                Optional.empty(), AT, AT);
    }
}
