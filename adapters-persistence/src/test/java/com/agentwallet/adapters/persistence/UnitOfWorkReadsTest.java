package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.wallet.Wallet;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What one unit of work reads again without asking PostgreSQL (the payments of a batch share their
 * wallet's lock and policy): a wallet it holds locked, as it last wrote it, and a policy it read,
 * until it writes one.
 */
class UnitOfWorkReadsTest {
    private static HikariDataSource pool;
    private static Jdbi jdbi;
    private static final RequestLog sent = new RequestLog();

    @BeforeAll
    static void createDatabase() {
        pool = TestDatabase.fresh(2);
        jdbi = Postgres.jdbi(sent.recording(pool));
    }

    @AfterAll
    static void closeDatabase() {
        pool.close();
    }

    @Test
    void aWalletLockedAgainIsTheOneThisTransactionLastWroteAndIsNotReadAgain() {
        MutableClock clock = MutableClock.atTestEpoch();
        JdbiStorage storage = new JdbiStorage(jdbi, clock);
        CoreServices core = PgBooks.services(storage, new FakeLedger(), clock, 5);
        OrgId org = PgBooks.organisation(core, "100");
        FundedWallet funded = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().build()), "agent-1", "10");
        sent.clear();

        List<Wallet> seen = storage.inTransaction(stores -> {
            Wallet first = stores.wallets().lock(org, funded.wallet().id()).orElseThrow();
            stores.wallets().update(first.withBalance(Usdc.parse("7"), first.updatedAt()));
            Wallet again = stores.wallets().lock(org, funded.wallet().id()).orElseThrow();
            return List.of(first, again);
        });

        assertThat(seen.get(0).balance()).isEqualTo(Usdc.parse("10"));
        assertThat(seen.get(1).balance()).isEqualTo(Usdc.parse("7"));
        assertThat(sent.statements()).filteredOn(sql -> sql.startsWith("SELECT * FROM wallets")).hasSize(1);
        assertThat(core.wallets.get(org, funded.wallet().id()).value().balance()).isEqualTo(Usdc.parse("7"));
        Wallet inANewTransaction = storage.inTransaction(stores -> stores.wallets().lock(org, funded.wallet().id()))
                .orElseThrow();
        assertThat(inANewTransaction.balance()).as("a new transaction reads the row again").isEqualTo(Usdc.parse("7"));
        assertThat(sent.statements()).filteredOn(sql -> sql.startsWith("SELECT * FROM wallets")).hasSize(3);
    }

    @Test
    void aPolicyIsReadOnceUntilTheUnitOfWorkWritesOne() {
        MutableClock clock = MutableClock.atTestEpoch();
        JdbiStorage storage = new JdbiStorage(jdbi, clock);
        CoreServices core = PgBooks.services(storage, new FakeLedger(), clock, 6);
        OrgId org = PgBooks.organisation(core, "100");
        Policy policy = PgBooks.policy(core, org, rules().maxPerTx("5").build());
        sent.clear();

        List<Policy> seen = storage.inTransaction(stores -> {
            Policy first = stores.policies().find(org, policy.id()).orElseThrow();
            Policy again = stores.policies().find(org, policy.id()).orElseThrow();
            stores.policies().update(new Policy(first.id(), first.orgId(), "renamed", first.rules(),
                    first.version() + 1, first.createdAt(), first.updatedAt()));
            return List.of(first, again, stores.policies().find(org, policy.id()).orElseThrow());
        });

        assertThat(seen.get(1)).isEqualTo(seen.get(0));
        assertThat(seen.get(2).name()).isEqualTo("renamed");
        assertThat(sent.statements()).filteredOn(sql -> sql.startsWith("SELECT * FROM policies")).hasSize(2);
    }
}
