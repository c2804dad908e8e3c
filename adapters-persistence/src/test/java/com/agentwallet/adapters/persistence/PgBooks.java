package com.agentwallet.adapters.persistence;

import com.agentwallet.core.CoreSettings;
import com.agentwallet.core.common.Actor;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.policy.CreatePolicy;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.CreatedWallet;
import com.agentwallet.core.wallet.Wallet;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.postgresql.util.PSQLException;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Small helpers for the tests that run the core on PostgreSQL: setting up books through the use
 * cases, reading them back with plain SQL, and reopening a pool to the same database.
 */
final class PgBooks {
    /** How often {@link #await} asks again. */
    private static final Duration POLL = Duration.ofMillis(10);
    static final Actor ADMIN = new Actor("key_admin");

    private PgBooks() {
    }

    /** Every use case on the given storage and ledger, with seeded ids. */
    static CoreServices services(Storage storage, LedgerPort ledger, MutableClock clock, long seed) {
        return new CoreServices(storage, ledger, clock, new RandomIdGenerator(new Random(seed)), CoreSettings.DEFAULTS);
    }

    /** An organisation with {@code deposit} USDC in its treasury. */
    static OrgId organisation(CoreServices core, String deposit) {
        Organisation org = core.organisations.create("Org");
        core.organisations.deposit(org.id(), Usdc.parse(deposit)).value();
        return org.id();
    }

    static Policy policy(CoreServices core, OrgId orgId, PolicyRules rules) {
        return core.policies.create(new CreatePolicy(orgId, "Policy", rules, ADMIN), RequestKey.none()).value();
    }

    /** A wallet under {@code policy}, funded with {@code funding} (zero for none), and its session grant. */
    static FundedWallet wallet(CoreServices core, OrgId orgId, Policy policy, String agentId, String funding) {
        CreatedWallet created = core.wallets.create(new CreateWallet(orgId, agentId, "label", policy.id(), List.of(),
                Optional.empty()), RequestKey.none()).value();
        Usdc amount = Usdc.parse(funding);
        Wallet wallet = amount.isZero() ? created.wallet()
                : core.wallets.fund(orgId, created.wallet().id(), amount, RequestKey.none()).value();
        return new FundedWallet(wallet, created.session());
    }

    /** A new pool to the database {@code pool} points at: what a restarted process would open. */
    static HikariDataSource reopen(HikariDataSource pool, int connections) {
        return Postgres.pool(pool.getJdbcUrl(), EmbeddedDatabase.USER, pool.getPassword(), connections);
    }

    /** The JDBC URL of another database on the same server as {@code pool}. */
    static String sibling(HikariDataSource pool, String database) {
        String url = pool.getJdbcUrl();
        return url.substring(0, url.lastIndexOf('/') + 1) + database;
    }

    /**
     * Waits, with a bound, for what PostgreSQL or a background thread does: asks {@code condition}
     * again every few milliseconds, and fails with {@code what} once {@code within} has passed.
     */
    static void await(String what, Duration within, BooleanSupplier condition) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within %s", what, within).isLessThan(deadline);
            LockSupport.parkNanos(POLL.toNanos());
        }
    }

    /** A single number from {@code sql} with positional {@code ?} arguments. */
    static long number(Jdbi jdbi, String sql, Object... args) {
        return jdbi.withHandle(handle -> {
            var query = handle.createQuery(sql);
            for (int i = 0; i < args.length; i++) {
                query.bind(i, args[i]);
            }
            return query.mapTo(Long.class).one();
        });
    }

    /** A single text value from {@code sql}. */
    static String text(Jdbi jdbi, String sql, Object... args) {
        return jdbi.withHandle(handle -> {
            var query = handle.createQuery(sql);
            for (int i = 0; i < args.length; i++) {
                query.bind(i, args[i]);
            }
            return query.mapTo(String.class).one();
        });
    }

    /** Texts, one per row, from {@code sql}. */
    static List<String> texts(Jdbi jdbi, String sql, Object... args) {
        return jdbi.withHandle(handle -> {
            var query = handle.createQuery(sql);
            for (int i = 0; i < args.length; i++) {
                query.bind(i, args[i]);
            }
            return query.mapTo(String.class).list();
        });
    }

    static long walletBalance(Jdbi jdbi, WalletId walletId) {
        return number(jdbi, "SELECT balance_micros FROM wallets WHERE id = ?", walletId.value());
    }

    static long orgBalance(Jdbi jdbi, OrgId orgId) {
        return number(jdbi, "SELECT balance_micros FROM organisations WHERE id = ?", orgId.value());
    }

    /** Outbox rows of {@code type} whose body names {@code id} under {@code field} (tx_id, escrow_id, ...). */
    static long events(Jdbi jdbi, String type, String field, String id) {
        return number(jdbi, "SELECT count(*) FROM outbox_events WHERE type = ? AND body ->> ? = ?", type, field, id);
    }

    /** Outbox rows of {@code type} of an organisation. */
    static long events(Jdbi jdbi, OrgId orgId, String type) {
        return number(jdbi, "SELECT count(*) FROM outbox_events WHERE org_id = ? AND type = ?", orgId.value(), type);
    }

    /** The PostgreSQL error behind a failed statement, or null when there is none in the cause chain. */
    static PSQLException postgresError(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof PSQLException psql) {
                return psql;
            }
        }
        return null;
    }

    /** Runs {@code sql} and returns the PostgreSQL error it must fail with. */
    static PSQLException refusalOf(Jdbi jdbi, String sql, Object... args) {
        try {
            jdbi.useHandle(handle -> handle.execute(sql, args));
        } catch (JdbiException e) {
            PSQLException error = postgresError(e);
            if (error == null) {
                throw new AssertionError("failed without a PostgreSQL error: " + sql, e);
            }
            return error;
        }
        throw new AssertionError("the database accepted: " + sql);
    }
}
