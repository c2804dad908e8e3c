package com.agentwallet.adapters.persistence;

import java.time.Clock;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.port.StorageUnavailableException;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.ConnectionException;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import static com.agentwallet.adapters.persistence.PgBooks.number;
import static com.agentwallet.adapters.persistence.PgBooks.walletBalance;
import static com.agentwallet.core.testing.PaymentRequest.paymentFrom;
import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A database connection cut in the middle of a unit of work, on PostgreSQL: the server terminates
 * the backend ({@code pg_terminate_backend}, as a failover or restart does) right after a chosen
 * statement. The unit of work fails as {@link StorageUnavailableException}, nothing of it is kept,
 * the pool replaces the dead connection, and the retry with the same idempotency key pays once. So
 * does a unit of work PostgreSQL rolls back as a deadlock's victim, here with a session from outside
 * the service. Failures of the work itself keep their own exception.
 */
class ConnectionLossTest {
    private static final String PAYEE = Addresses.external("payee");
    private static final long HUNDRED = 100_000_000L;
    private static final long THIRTY = 30_000_000L;

    private static HikariDataSource pool;
    private static Jdbi jdbi;
    private static Jdbi outside;

    /** The store call after which the backend is cut, as "store.method"; null cuts nothing. */
    private final AtomicReference<String> cutAfter = new AtomicReference<>();
    private FakeLedger ledger;
    private CoreServices core;
    private OrgId org;
    private FundedWallet wallet;

    @BeforeAll
    static void createDatabase() {
        // One connection: the one a unit of work runs on is the one that is cut.
        pool = TestDatabase.fresh(1);
        jdbi = Postgres.jdbi(pool);
        outside = Jdbi.create(pool.getJdbcUrl(), EmbeddedDatabase.USER, pool.getPassword());
    }

    @AfterAll
    static void closeDatabase() {
        pool.close();
    }

    @BeforeEach
    void aWalletWithAHundred() {
        TestDatabase.truncateAll(pool);
        cutAfter.set(null);
        ledger = new FakeLedger();
        MutableClock clock = MutableClock.atTestEpoch();
        InterceptingStorage storage = new InterceptingStorage(new JdbiStorage(jdbi, clock), (store, method, args, result) -> {
            if ((store + "." + method).equals(cutAfter.get())) {
                cutAfter.set(null);
                terminateOtherBackends();
            }
        });
        core = PgBooks.services(storage, ledger, clock, 51);
        org = PgBooks.organisation(core, "1000");
        wallet = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().build()), "agent-1", "100");
    }

    @Test
    void aPaymentCutAfterItsLastWriteLeavesNothingAndItsRetryPaysOnce() {
        long eventsBefore = events();
        cutAfter.set("outbox.append");

        assertThatThrownBy(() -> core.payments.pay(thirtyWithKey()))
                .isInstanceOf(StorageUnavailableException.class)
                .hasMessageContaining("SQLState");

        assertNothingKept(eventsBefore);

        PaymentResult retried = retryPaysOnce();
        PaymentResult again = core.payments.pay(thirtyWithKey()).value();

        assertThat(again.replayed()).isTrue();
        assertThat(again.transaction().id()).isEqualTo(retried.transaction().id());
        assertThat(walletBalance(jdbi, wallet.wallet().id())).as("debited once").isEqualTo(HUNDRED - THIRTY);
        assertThat(paysExecuted()).isOne();
        assertThat(ledger.balanceOf(PAYEE)).isEqualTo(THIRTY);
        assertThat(PgBooks.events(jdbi, "transaction.completed", "tx_id", retried.transaction().id().value())).isOne();
    }

    @Test
    void aPaymentCutWhileItsLedgerOutcomeIsAppliedStaysHeldAndItsRetryAppliesItWithoutPayingAgain() {
        cutAfter.set("transactions.updateIfPending");

        assertThatThrownBy(() -> core.payments.pay(thirtyWithKey())).isInstanceOf(StorageUnavailableException.class);

        assertThat(paysExecuted()).as("the ledger executed it").isOne();
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'payment' AND status = 'pending'"))
                .as("still pending in the books").isOne();
        assertThat(walletBalance(jdbi, wallet.wallet().id())).as("the amount stays held").isEqualTo(HUNDRED - THIRTY);
        assertThat(PgBooks.events(jdbi, org, "transaction.completed")).isZero();

        PaymentResult retried = core.payments.pay(thirtyWithKey()).value();

        assertThat(retried.replayed()).isTrue();
        assertThat(retried.transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(paysExecuted()).as("not paid twice").isOne();
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(HUNDRED - THIRTY);
        assertThat(ledger.balanceOf(PAYEE)).isEqualTo(THIRTY);
        assertThat(PgBooks.events(jdbi, "transaction.completed", "tx_id", retried.transaction().id().value())).isOne();
        assertThat(core.settlement.recover(Duration.ZERO, 100)).as("nothing left pending").isZero();
    }

    @Test
    void aPaymentPostgresChoseAsADeadlocksVictimLeavesNothingAndItsRetryPaysOnce() {
        long eventsBefore = events();
        CompletableFuture<PaymentResult> payment;
        try (Handle operator = outside.open()) {
            operator.begin();
            // The operator's session waits longer before it looks for a deadlock, so the payment, which
            // waits first, is the one PostgreSQL rolls back.
            operator.execute("SET LOCAL deadlock_timeout = '60s'");
            operator.execute("LOCK TABLE outbox_events IN EXCLUSIVE MODE");
            payment = CompletableFuture.supplyAsync(() -> core.payments.pay(thirtyWithKey()).value());
            PgBooks.await("the payment waits to write its event", Duration.ofSeconds(10), () -> operator.createQuery(
                    "SELECT count(*) FROM pg_locks WHERE relation = 'outbox_events'::regclass AND NOT granted")
                    .mapTo(Long.class).one() == 1);
            operator.createQuery("SELECT id FROM wallets WHERE id = :id FOR UPDATE")
                    .bind("id", wallet.wallet().id().value()).mapTo(String.class).one();
            operator.rollback();
        }

        assertThatThrownBy(payment::join)
                .hasCauseInstanceOf(StorageUnavailableException.class)
                .hasMessageContaining("rolled the work back (SQLState 40P01)");
        assertNothingKept(eventsBefore);

        retryPaysOnce();
    }

    @Test
    void aFailureOfTheWorkItselfIsNoConnectionLoss() {
        assertThatThrownBy(() -> new JdbiStorage(jdbi, Clock.systemUTC()).inTransaction(stores -> {
            stores.organisations().insert(stores.organisations().find(org).orElseThrow());
            return null;
        }))
                .as("a duplicate key")
                .isInstanceOf(JdbiException.class)
                .isNotInstanceOf(StorageUnavailableException.class);

        IllegalStateException ownFault = new IllegalStateException("a fault of the work");
        assertThatThrownBy(() -> new JdbiStorage(jdbi, Clock.systemUTC()).inTransaction(stores -> {
            stores.wallets().find(org, wallet.wallet().id());
            terminateOtherBackends();
            throw ownFault;
        })).as("its rollback met a dead connection, but the work failed first").isSameAs(ownFault);
        Optional<Organisation> afterwards = new JdbiStorage(jdbi, Clock.systemUTC()).inTransaction(stores -> stores.organisations().find(org));
        assertThat(afterwards).as("the pool replaced the dead connection").isPresent();
    }

    @Test
    void aConnectionThePoolCouldNotProvideOrAWorkPostgresRolledBackForTheMomentIsUnavailability() {
        SQLException timedOut = new SQLTransientConnectionException("agent-wallet - Connection is not available");

        assertThat(JdbiStorage.unavailability(new ConnectionException(timedOut))).contains(timedOut);
        assertThat(JdbiStorage.unavailability(new IllegalStateException(new SQLException("broken pipe", "08006"))))
                .isPresent();
        for (String rolledBack : List.of("40001", "40P01", "55P03", "57014")) {
            assertThat(JdbiStorage.unavailability(new IllegalStateException(new SQLException("now", rolledBack))))
                    .as(rolledBack).isPresent();
        }
        for (String ownFault : List.of("23505", "23514", "22003", "42P01")) {
            assertThat(JdbiStorage.unavailability(new IllegalStateException(new SQLException("fault", ownFault))))
                    .as(ownFault).isEmpty();
        }
    }

    /** Nothing of the failed payment is kept: no debit, no transaction, its key unused, no event, nothing paid. */
    private void assertNothingKept(long eventsBefore) {
        assertThat(walletBalance(jdbi, wallet.wallet().id())).as("no debit").isEqualTo(HUNDRED);
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'payment'")).as("no transaction").isZero();
        assertThat(number(jdbi, "SELECT count(*) FROM idempotency_keys")).as("the key stays unused").isZero();
        assertThat(events()).as("no event").isEqualTo(eventsBefore);
        assertThat(paysExecuted()).as("nothing went to the ledger").isZero();
    }

    /** The payment sent again with its key is booked now, not replayed, confirmed, and debited and paid once. */
    private PaymentResult retryPaysOnce() {
        PaymentResult retried = core.payments.pay(thirtyWithKey()).value();
        assertThat(retried.transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(retried.replayed()).isFalse();
        assertThat(walletBalance(jdbi, wallet.wallet().id())).as("debited once").isEqualTo(HUNDRED - THIRTY);
        assertThat(paysExecuted()).isOne();
        return retried;
    }

    private PayCommand thirtyWithKey() {
        return paymentFrom(wallet).to(PAYEE).amount("30").idempotencyKey("pay-30").build();
    }

    private static long events() {
        return number(jdbi, "SELECT count(*) FROM outbox_events");
    }

    private long paysExecuted() {
        return ledger.executed().stream().filter(i -> i instanceof LedgerInstruction.Pay).count();
    }

    /** Terminates the pool's backends from a connection of the test's own, and waits until they are gone. */
    private static void terminateOtherBackends() {
        String others = " FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                + " AND backend_type = 'client backend'";
        outside.useHandle(handle -> {
            handle.createQuery("SELECT pg_terminate_backend(pid)" + others).mapTo(Boolean.class).list();
            PgBooks.await("the backends ended", Duration.ofSeconds(10),
                    () -> handle.createQuery("SELECT count(*)" + others).mapTo(Long.class).one() == 0);
        });
    }
}
