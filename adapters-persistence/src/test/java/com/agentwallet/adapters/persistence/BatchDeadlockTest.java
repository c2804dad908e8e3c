package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.port.Claim;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.testing.AtOnce;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.wallet.Wallet;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two server processes (a storage over a pool each, one database) apply batches of one
 * organisation's confirmations at once, each locking two payees' wallets in the opposite order of
 * the other's: PostgreSQL rolls one back as a deadlock's victim, and that batch runs again and
 * succeeds; neither caller sees the deadlock.
 */
class BatchDeadlockTest {
    private static HikariDataSource pool;
    private static HikariDataSource otherProcess;

    @BeforeAll
    static void createDatabase() {
        pool = TestDatabase.fresh(4);
        otherProcess = PgBooks.reopen(pool, 4);
    }

    @AfterAll
    static void closeDatabase() {
        otherProcess.close();
        pool.close();
    }

    @Test
    void aBatchChosenAsADeadlocksVictimRunsAgainAndSucceeds() throws Exception {
        MutableClock clock = MutableClock.atTestEpoch();
        JdbiStorage one = new JdbiStorage(Postgres.jdbi(pool), clock);
        JdbiStorage other = new JdbiStorage(Postgres.jdbi(otherProcess), clock);
        CoreServices core = PgBooks.services(one, new FakeLedger(), clock, 71);
        OrgId org = PgBooks.organisation(core, "100");
        var policy = PgBooks.policy(core, org, rules().build());
        Wallet first = PgBooks.wallet(core, org, policy, "payee-1", "0").wallet();
        Wallet second = PgBooks.wallet(core, org, policy, "payee-2", "0").wallet();
        RandomIdGenerator ids = new RandomIdGenerator(new Random(72));
        CountDownLatch eachHoldsOne = new CountDownLatch(2);
        AtomicInteger runs = new AtomicInteger();

        List<Callable<WalletId>> batches = List.of(
                () -> one.inBatch(new Claim.Outcome(org, ids.tx(), Optional.empty()),
                        crediting(org, first.id(), second.id(), eachHoldsOne, runs)),
                () -> other.inBatch(new Claim.Outcome(org, ids.tx(), Optional.empty()),
                        crediting(org, second.id(), first.id(), eachHoldsOne, runs)));

        assertThat(AtOnce.call(2, batches)).as("both applied").containsExactly(second.id(), first.id());
        assertThat(runs).as("one of them run again").hasValue(3);
    }

    /**
     * A unit of work that locks {@code from}'s wallet, waits (on its first run only) until the other
     * holds its own, then locks {@code to}'s.
     */
    private static Function<Stores, WalletId> crediting(OrgId org, WalletId from, WalletId to, CountDownLatch eachHoldsOne,
                                                       AtomicInteger runs) {
        return stores -> {
            boolean first = runs.incrementAndGet() <= 2;
            stores.wallets().lock(org, from).orElseThrow();
            if (first) {
                eachHoldsOne.countDown();
                awaitQuietly(eachHoldsOne);
            }
            return stores.wallets().lock(org, to).orElseThrow().id();
        };
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
