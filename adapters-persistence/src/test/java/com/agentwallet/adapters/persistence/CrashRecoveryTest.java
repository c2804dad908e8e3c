package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.payment.PaymentMovement;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.wallet.Wallet;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static com.agentwallet.adapters.persistence.PgBooks.number;
import static com.agentwallet.adapters.persistence.PgBooks.text;
import static com.agentwallet.adapters.persistence.PgBooks.walletBalance;
import static com.agentwallet.core.testing.PaymentRequest.paymentFrom;
import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A process that dies between the two phases of a payment, on PostgreSQL: the books keep the
 * payment pending with its amount held, and a restarted process finishes it by resubmitting,
 * without paying twice. A database transaction that fails midway leaves nothing behind.
 */
class CrashRecoveryTest {
    private static final String PAYEE = Addresses.external("payee");
    private static final long HUNDRED = 100_000_000L;
    private static final long THIRTY = 30_000_000L;

    private static HikariDataSource pool;
    private static Jdbi jdbi;

    private final List<HikariDataSource> restartedPools = new ArrayList<>();
    private FakeLedger ledger;
    private MutableClock clock;
    private CoreServices beforeCrash;
    private OrgId org;
    private FundedWallet wallet;

    @BeforeAll
    static void createDatabase() {
        pool = TestDatabase.fresh(4);
        jdbi = Postgres.jdbi(pool);
    }

    @AfterAll
    static void closeDatabase() {
        pool.close();
    }

    @BeforeEach
    void aWalletWithAHundred() {
        TestDatabase.truncateAll(pool);
        ledger = new FakeLedger();
        clock = MutableClock.atTestEpoch();
        beforeCrash = PgBooks.services(new JdbiStorage(jdbi, clock), ledger, clock, 41);
        org = PgBooks.organisation(beforeCrash, "1000");
        wallet = PgBooks.wallet(beforeCrash, org, PgBooks.policy(beforeCrash, org, rules().maxPerDay("500").build()),
                "agent-1", "100");
    }

    @AfterEach
    void closeRestartedPools() {
        restartedPools.forEach(HikariDataSource::close);
    }

    /** A new process: a new pool to the same database and new use case instances, on the same ledger. */
    private CoreServices restart() {
        HikariDataSource restarted = PgBooks.reopen(pool, 4);
        restartedPools.add(restarted);
        return PgBooks.services(new JdbiStorage(Postgres.jdbi(restarted), clock), ledger, clock, 43);
    }

    private PayCommand thirty() {
        return paymentFrom(wallet).to(PAYEE).amount("30").build();
    }

    private PayCommand thirtyWithKey() {
        return paymentFrom(wallet).to(PAYEE).amount("30").idempotencyKey("pay-30").build();
    }

    /** A payment whose ledger call got no answer: it stays pending, its amount held. */
    private Transaction aPaymentLeftPending() {
        return aPaymentLeftPending(thirty());
    }

    private Transaction aPaymentLeftPending(PayCommand command) {
        ledger.leaveUnansweredWhen(i -> i instanceof LedgerInstruction.Pay);
        PaymentResult result = beforeCrash.payments.pay(command).value();
        assertThat(result.transaction().status()).isEqualTo(TransactionStatus.PENDING);
        assertThat(status(result.transaction())).isEqualTo("pending");
        assertThat(walletBalance(jdbi, wallet.wallet().id())).as("the amount is held").isEqualTo(HUNDRED - THIRTY);
        assertThat(paysExecuted()).isEmpty();
        return result.transaction();
    }

    private List<LedgerInstruction.Pay> paysExecuted() {
        return ledger.executed().stream().filter(i -> i instanceof LedgerInstruction.Pay)
                .map(i -> (LedgerInstruction.Pay) i).toList();
    }

    private static String status(Transaction tx) {
        return text(jdbi, "SELECT status FROM transactions WHERE id = ?", tx.id().value());
    }

    private long daySpend() {
        return number(jdbi, "SELECT spend_day_micros FROM wallets WHERE id = ?", wallet.wallet().id().value());
    }

    @Test
    void aPaymentLeftPendingByAnUnansweredLedgerIsConfirmedOnceAfterARestart() {
        Transaction pending = aPaymentLeftPending();
        ledger.behaveNormally();

        CoreServices afterRestart = restart();
        int resubmitted = afterRestart.settlement.recover(Duration.ZERO, 100);

        assertThat(resubmitted).isOne();
        assertThat(status(pending)).isEqualTo("confirmed");
        assertThat(afterRestart.payments.get(org, pending.id()).value().status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(paysExecuted()).singleElement()
                .satisfies(pay -> assertThat(pay.operationId()).isEqualTo(pending.id().value()));
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(HUNDRED - THIRTY);
        assertThat(ledger.balanceOf(wallet.wallet().address().base58())).isEqualTo(HUNDRED - THIRTY);
        assertThat(ledger.balanceOf(PAYEE)).isEqualTo(THIRTY);
        assertThat(PgBooks.events(jdbi, "transaction.completed", "tx_id", pending.id().value())).isOne();

        assertThat(afterRestart.settlement.recover(Duration.ZERO, 100)).as("nothing left to recover").isZero();
        assertThat(paysExecuted()).hasSize(1);
    }

    @Test
    void aReplayAfterARestartFinishesThePendingPaymentOnceInsteadOfPayingAgainAndAnswersAsTheFirstTime() {
        Transaction pending = aPaymentLeftPending(thirtyWithKey());
        ledger.behaveNormally();

        CoreServices afterRestart = restart();
        PaymentResult replay = afterRestart.payments.pay(thirtyWithKey()).value();
        PaymentResult again = afterRestart.payments.pay(thirtyWithKey()).value();

        assertThat(replay.replayed()).isTrue();
        assertThat(replay.transaction()).isEqualTo(pending);
        assertThat(afterRestart.payments.get(org, pending.id()).value().status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(again.transaction().id()).isEqualTo(pending.id());
        assertThat(paysExecuted()).singleElement()
                .satisfies(pay -> assertThat(pay.operationId()).isEqualTo(pending.id().value()));
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(HUNDRED - THIRTY);
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'payment'")).isOne();
        assertThat(afterRestart.settlement.recover(Duration.ZERO, 100)).isZero();
    }

    @Test
    void aPaymentTheLedgerExecutedBeforeTheProcessDiedIsAppliedOnceOnRecovery() {
        Transaction pending = aPaymentLeftPending();
        ledger.behaveNormally();
        Wallet stored = beforeCrash.wallets.get(org, wallet.wallet().id()).value();
        // The process sent the instruction and the ledger executed it, but the process died before applying it.
        LedgerOutcome executed = ledger.submit(PaymentMovement.payInstruction(pending, stored));
        assertThat(executed).isInstanceOf(LedgerOutcome.Confirmed.class);
        assertThat(status(pending)).isEqualTo("pending");

        CoreServices afterRestart = restart();
        afterRestart.settlement.recover(Duration.ZERO, 100);
        afterRestart.settlement.recover(Duration.ZERO, 100);

        assertThat(status(pending)).isEqualTo("confirmed");
        assertThat(text(jdbi, "SELECT signature FROM transactions WHERE id = ?", pending.id().value()))
                .isEqualTo(((LedgerOutcome.Confirmed) executed).signature());
        assertThat(paysExecuted()).singleElement()
                .satisfies(pay -> assertThat(pay.operationId()).isEqualTo(pending.id().value()));
        assertThat(walletBalance(jdbi, wallet.wallet().id())).as("debited once").isEqualTo(HUNDRED - THIRTY);
        assertThat(ledger.balanceOf(wallet.wallet().address().base58())).isEqualTo(HUNDRED - THIRTY);
        assertThat(ledger.balanceOf(PAYEE)).isEqualTo(THIRTY);
        assertThat(daySpend()).isEqualTo(THIRTY);
        assertThat(PgBooks.events(jdbi, "transaction.completed", "tx_id", pending.id().value())).isOne();
    }

    @Test
    void aPaymentTheLedgerRefusesDuringRecoveryFailsAndGivesTheMoneyBack() {
        Transaction pending = aPaymentLeftPending();
        assertThat(daySpend()).isEqualTo(THIRTY);
        ledger.behaveNormally();
        ledger.rejectWhen(i -> i instanceof LedgerInstruction.Pay);

        CoreServices afterRestart = restart();
        int resubmitted = afterRestart.settlement.recover(Duration.ZERO, 100);

        assertThat(resubmitted).isOne();
        Transaction failed = afterRestart.payments.get(org, pending.id()).value();
        assertThat(failed.status()).isEqualTo(TransactionStatus.FAILED);
        assertThat(failed.failureReason()).hasValueSatisfying(reason -> assertThat(reason).contains("fake_rejection"));
        assertThat(status(pending)).isEqualTo("failed");
        assertThat(walletBalance(jdbi, wallet.wallet().id())).as("the money is back").isEqualTo(HUNDRED);
        assertThat(daySpend()).as("and out of the day cap").isZero();
        assertThat(number(jdbi, "SELECT count(*) FROM spend_entries WHERE tx_id = ?", pending.id().value())).isZero();
        assertThat(paysExecuted()).isEmpty();
        assertThat(ledger.balanceOf(wallet.wallet().address().base58())).isEqualTo(HUNDRED);
        assertThat(PgBooks.events(jdbi, "transaction.failed", "tx_id", pending.id().value())).isOne();
        assertThat(afterRestart.settlement.recover(Duration.ZERO, 100)).isZero();
    }

    @Test
    void aDatabaseTransactionThatThrowsAfterTheDebitLeavesNothingBehind() {
        AtomicBoolean armed = new AtomicBoolean(true);
        Storage failing = failingAfterWalletUpdate(new JdbiStorage(jdbi, clock), armed);
        CoreServices core = PgBooks.services(failing, ledger, clock, 47);
        long transactionsBefore = number(jdbi, "SELECT count(*) FROM transactions");
        long eventsBefore = number(jdbi, "SELECT count(*) FROM outbox_events");

        assertThatThrownBy(() -> core.payments.pay(thirty())).isInstanceOf(SimulatedCrash.class);

        assertThat(armed).as("the failure struck").isFalse();
        assertThat(walletBalance(jdbi, wallet.wallet().id())).as("no debit").isEqualTo(HUNDRED);
        assertThat(daySpend()).isZero();
        assertThat(number(jdbi, "SELECT count(*) FROM transactions")).as("no transaction").isEqualTo(transactionsBefore);
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'payment'")).isZero();
        assertThat(number(jdbi, "SELECT count(*) FROM outbox_events")).as("no event").isEqualTo(eventsBefore);
        assertThat(number(jdbi, "SELECT count(*) FROM spend_entries")).isZero();
        assertThat(paysExecuted()).isEmpty();

        PaymentResult retried = core.payments.pay(thirty()).value();

        assertThat(retried.replayed()).isFalse();
        assertThat(retried.transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(HUNDRED - THIRTY);
        assertThat(paysExecuted()).hasSize(1);
    }

    /** Thrown by the wrapped storage to stand for a failure in the middle of a database transaction. */
    private static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash() {
            super("simulated failure after the debit");
        }
    }

    /** The storage, except that the first wallet update after arming is written and then throws. */
    private static Storage failingAfterWalletUpdate(Storage delegate, AtomicBoolean armed) {
        return new InterceptingStorage(delegate, (store, method, args, result) -> {
            if (store.equals("wallets") && method.equals("update") && armed.compareAndSet(true, false)) {
                throw new SimulatedCrash();
            }
        });
    }
}
