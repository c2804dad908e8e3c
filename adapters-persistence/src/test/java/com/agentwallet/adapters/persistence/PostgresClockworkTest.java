package com.agentwallet.adapters.persistence;

import com.agentwallet.core.CoreSettings;
import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.IdempotencyRecord;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.TestCoSigner;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;

import static com.agentwallet.adapters.persistence.PgBooks.number;
import static com.agentwallet.adapters.persistence.PgBooks.walletBalance;
import static com.agentwallet.core.testing.PaymentRequest.paymentFrom;
import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The clockwork's jobs on PostgreSQL run by several servers at once (here: threads with use cases
 * of their own on one database), each job in small rounds as the server runs it: every due item is
 * done exactly once, by exactly one of them, and the rounds' counts add up to the items.
 */
class PostgresClockworkTest {
    private static final int SERVERS = 3;
    private static final int ITEMS = 24;
    private static final int ROUND = 5;

    private static HikariDataSource pool;
    private static Jdbi jdbi;
    private static JdbiStorage storage;

    private MutableClock clock;
    private FakeLedger ledger;
    private CoreServices setup;
    private OrgId org;

    @BeforeAll
    static void createDatabase() {
        pool = TestDatabase.fresh(SERVERS * 2 + 2);
        jdbi = Postgres.jdbi(pool);
    }

    @AfterAll
    static void closeDatabase() {
        pool.close();
    }

    @BeforeEach
    void emptyBooks() {
        TestDatabase.truncateAll(pool);
        clock = MutableClock.atTestEpoch();
        storage = new JdbiStorage(jdbi, clock);
        ledger = new FakeLedger();
        setup = PgBooks.services(storage, ledger, clock, 31);
        org = PgBooks.organisation(setup, "100000");
    }

    @Test
    void timedOutEscrowsAreRefundedOnceEach() throws Exception {
        FundedWallet sender = PgBooks.wallet(setup, org, PgBooks.policy(setup, org, PolicyRules.NONE), "sender", "1000");
        for (int i = 0; i < ITEMS; i++) {
            setup.escrows.lock(new LockEscrow(org, sender.wallet().id(), Addresses.external("worker-" + i),
                    Usdc.parse("10"), "task " + i, 60 + i, Optional.empty(), Optional.of(sender.session())), RequestKey.none()).value();
        }
        assertThat(walletBalance(jdbi, sender.wallet().id())).isEqualTo(Usdc.parse("1000").micros() - ITEMS * 10_000_000L);
        clock.advance(Duration.ofHours(1));

        int refunded = concurrently(server -> server.escrows.refundTimedOut(ROUND));

        assertThat(refunded).isEqualTo(ITEMS);
        assertThat(number(jdbi, "SELECT count(*) FROM escrows WHERE status = 'refunded'")).isEqualTo(ITEMS);
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE type = 'escrow_refund'")).isEqualTo(ITEMS);
        assertThat(number(jdbi, "SELECT count(DISTINCT body ->> 'escrow_id') FROM outbox_events WHERE type = 'escrow.refunded'"))
                .isEqualTo(number(jdbi, "SELECT count(*) FROM outbox_events WHERE type = 'escrow.refunded'"))
                .isEqualTo(ITEMS);
        assertThat(walletBalance(jdbi, sender.wallet().id())).isEqualTo(Usdc.parse("1000").micros());
    }

    @Test
    void aJobSkipsAnEscrowAnotherServerIsChangingInsteadOfWaitingForIt() throws Exception {
        FundedWallet sender = PgBooks.wallet(setup, org, PgBooks.policy(setup, org, PolicyRules.NONE), "sender", "100");
        List<String> escrows = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            escrows.add(setup.escrows.lock(new LockEscrow(org, sender.wallet().id(), Addresses.external("worker-" + i),
                    Usdc.parse("10"), "task " + i, 60, Optional.empty(), Optional.of(sender.session())), RequestKey.none()).value()
                    .id().value());
        }
        clock.advance(Duration.ofMinutes(2));

        try (Handle otherServer = jdbi.open()) {
            otherServer.begin();
            otherServer.createQuery("SELECT id FROM escrows WHERE id = :id FOR UPDATE")
                    .bind("id", escrows.get(0)).mapTo(String.class).one();

            ExecutorService thread = Executors.newSingleThreadExecutor();
            try {
                assertThat(thread.submit(() -> setup.escrows.refundTimedOut(10)).get(60, TimeUnit.SECONDS)).isEqualTo(2);
            } finally {
                thread.shutdown();
            }
            otherServer.rollback();
        }
        assertThat(PgBooks.texts(jdbi, "SELECT id FROM escrows WHERE status = 'locked'")).containsExactly(escrows.get(0));
        assertThat(setup.escrows.refundTimedOut(10)).isOne();
        assertThat(number(jdbi, "SELECT count(*) FROM escrows WHERE status = 'refunded'")).isEqualTo(3);
    }

    @Test
    void closedCoSignWindowsExpireOnceEach() throws Exception {
        TestCoSigner operator = new TestCoSigner(5);
        FundedWallet wallet = PgBooks.wallet(setup, org,
                PgBooks.policy(setup, org, rules().coSignAtOrAbove("1", operator).build()), "agent", "1000");
        for (int i = 0; i < ITEMS; i++) {
            setup.payments.pay(paymentFrom(wallet).to(Addresses.external("payee-" + i)).amount("5").build()).value();
        }
        clock.advance(CoreSettings.DEFAULTS.coSignWindow());

        int expired = concurrently(server -> server.payments.expireCoSigns(ROUND));

        assertThat(expired).isEqualTo(ITEMS);
        assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE status = 'expired'")).isEqualTo(ITEMS);
        assertThat(number(jdbi, "SELECT count(*) FROM outbox_events WHERE type = 'transaction.expired'"))
                .isEqualTo(number(jdbi, "SELECT count(DISTINCT body ->> 'tx_id') FROM outbox_events WHERE type = 'transaction.expired'"))
                .isEqualTo(ITEMS);
        assertThat(walletBalance(jdbi, wallet.wallet().id())).isEqualTo(Usdc.parse("1000").micros());
    }

    @Test
    void walletsOfAnExpiredPolicyFreezeOnceEach() throws Exception {
        var expiring = PgBooks.policy(setup, org, rules().expiry(clock.instant().plus(Duration.ofHours(1))).build());
        for (int i = 0; i < ITEMS; i++) {
            PgBooks.wallet(setup, org, expiring, "agent-" + i, "0");
        }
        clock.advance(Duration.ofHours(2));

        int frozen = concurrently(server -> server.wallets.freezeExpired(ROUND));

        assertThat(frozen).isEqualTo(ITEMS);
        assertThat(number(jdbi, "SELECT count(*) FROM wallets WHERE status = 'frozen'")).isEqualTo(ITEMS);
        assertThat(number(jdbi, "SELECT count(*) FROM outbox_events WHERE type = 'policy.expired'"))
                .isEqualTo(number(jdbi, "SELECT count(DISTINCT body ->> 'wallet_id') FROM outbox_events WHERE type = 'policy.expired'"))
                .isEqualTo(ITEMS);
    }

    @Test
    void idempotencyKeysPastTheirRetentionAreForgottenAndNewerOnesKept() throws Exception {
        FundedWallet wallet = PgBooks.wallet(setup, org, PgBooks.policy(setup, org, PolicyRules.NONE), "agent", "1000");
        for (int i = 0; i < ITEMS; i++) {
            setup.payments.pay(paymentFrom(wallet).to(Addresses.external("payee-" + i)).amount("1")
                    .idempotencyKey("old-" + i).build()).value();
        }
        clock.advance(IdempotencyRecord.RETENTION);
        FundedWallet later = PgBooks.wallet(setup, org, PgBooks.policy(setup, org, PolicyRules.NONE), "later", "10");
        setup.payments.pay(paymentFrom(later).to(Addresses.external("payee")).amount("1")
                .idempotencyKey("recent").build()).value();
        clock.advance(Duration.ofMillis(1));

        int forgotten = concurrently(server -> server.idempotency.forgetExpired(ROUND));

        assertThat(forgotten).isEqualTo(ITEMS);
        assertThat(PgBooks.texts(jdbi, "SELECT key FROM idempotency_keys")).containsExactly("recent");
    }

    /**
     * Runs a clockwork job on {@link #SERVERS} servers at once, started together, each repeating its
     * rounds until a round finds nothing; answers the items done in all.
     */
    private int concurrently(ToIntFunction<CoreServices> job) throws Exception {
        CyclicBarrier start = new CyclicBarrier(SERVERS);
        ExecutorService threads = Executors.newFixedThreadPool(SERVERS);
        try {
            List<Future<Integer>> servers = new ArrayList<>();
            for (int i = 0; i < SERVERS; i++) {
                CoreServices server = PgBooks.services(storage, ledger, clock, 100 + i);
                Callable<Integer> rounds = () -> {
                    start.await();
                    int done = 0;
                    for (int round = job.applyAsInt(server); round > 0; round = job.applyAsInt(server)) {
                        done += round;
                    }
                    return done;
                };
                servers.add(threads.submit(rounds));
            }
            int total = 0;
            for (Future<Integer> server : servers) {
                total += server.get();
            }
            return total;
        } finally {
            threads.shutdown();
        }
    }
}
