package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.wallet.Wallet;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How PostgreSQL plans the statements that find a transaction by its id on condition that it is
 * still pending (the ledger's outcome, the escrow clockwork's claim), in books shaped as they are
 * under load: many settled transactions, vacuumed and analyzed when none was pending, and a few
 * pending since. They must find the transaction by the primary key. Written with {@code status =
 * 'pending'}, the same statements are planned as a scan of an index on pending transactions: the
 * planner counts their few live rows, not the entries of every payment since the last vacuum that
 * the scan walks. And how a batch of payments' lock and read-ahead are planned for any values, as
 * {@link Pipeline#planOnce} has them, in books of many
 * wallets, each with many spends.
 */
class StatementPlanTest {
    private static final int SETTLED = 20_000;
    private static final int PENDING = 10;
    private static final int WALLETS = 1_000;
    private static final int SPENDS_EACH = 20;
    private static final Pattern PLACEHOLDER = Pattern.compile("\\?");

    private static HikariDataSource pool;
    private static Jdbi jdbi;
    private static OrgId org;
    private static Wallet wallet;

    @BeforeAll
    static void booksUnderLoad() {
        pool = TestDatabase.fresh(2);
        jdbi = Postgres.jdbi(pool);
        MutableClock clock = MutableClock.atTestEpoch();
        CoreServices core = PgBooks.services(new JdbiStorage(jdbi, clock), new FakeLedger(), clock, 3);
        org = PgBooks.organisation(core, "100");
        wallet = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().build()), "agent-1", "10").wallet();
        insert(wallet, 1, SETTLED, "confirmed");
        walletsWithSpends();
        jdbi.useHandle(h -> h.execute("VACUUM ANALYZE transactions, wallets, spend_entries"));
        insert(wallet, SETTLED + 1, PENDING, "pending");
    }

    /** {@link #WALLETS} more wallets like the first, and {@link #SPENDS_EACH} spends of each over the last 60 days. */
    private static void walletsWithSpends() {
        String copied = "org_id, label, policy_id, tags, status, balance_micros, spend_day_micros, "
                + "spend_month_micros, spend_hour_count, day_cutoff, month_cutoff, hour_cutoff, session_version, "
                + "created_at, updated_at";
        jdbi.useHandle(h -> {
            h.createUpdate("INSERT INTO wallets (id, agent_id, address, " + copied + ") SELECT 'wal_plan' || g, "
                            + "'agent-plan-' || g, 'address-plan-' || g, " + copied
                            + " FROM wallets, generate_series(1, :wallets) AS g WHERE id = :wallet")
                    .bind("wallets", WALLETS).bind("wallet", wallet.id().value()).execute();
            h.createUpdate("INSERT INTO spend_entries (wallet_id, tx_id, at, amount_micros) SELECT w.id, "
                            + "'tx_spend' || s, now() - s * interval '3 days', 10000 FROM wallets w, "
                            + "generate_series(1, :spends) AS s")
                    .bind("spends", SPENDS_EACH).execute();
        });
    }

    /** {@code rows} payments of {@code wallet} in {@code status}, numbered from {@code first}. */
    private static void insert(Wallet wallet, int first, int rows, String status) {
        jdbi.useHandle(h -> h.createUpdate("INSERT INTO transactions (id, org_id, wallet_id, type, status, "
                        + "amount_micros, recipient, policy_triggered, created_at, updated_at) "
                        + "SELECT 'tx_plan' || lpad(g::text, 17, '0'), :org, :wallet, 'payment', :status, 10000, "
                        + "'payee', false, now(), now() FROM generate_series(:first, :last) AS g")
                .bind("org", org.value()).bind("wallet", wallet.id().value()).bind("status", status)
                .bind("first", first).bind("last", first + rows - 1).execute());
    }

    private static final RandomIdGenerator IDS = new RandomIdGenerator(new Random(7));
    /** The update of one transaction's outcome, on condition that it is still pending. */
    private static final String UPDATE_IF_PENDING = JdbiTransactions.UPDATE_IF_PENDING.statementOf()
            .apply(List.of(Transaction.open(IDS.tx(), IDS.org(), IDS.wallet(), TransactionType.PAYMENT, TransactionStatus.PENDING, Usdc.parse("1"),
                    "payee", Instant.EPOCH))).sql();

    @AfterAll
    static void closeDatabase() {
        pool.close();
    }

    @Test
    void theLedgersOutcomeFindsItsTransactionByThePrimaryKey() throws SQLException {
        assertThat(genericPlan(UPDATE_IF_PENDING)).contains("Index Cond: (id = $17)").contains("transactions_pkey");
        assertThat(customPlan(UPDATE_IF_PENDING)).contains("transactions_pkey");
    }

    @Test
    void theLockOfTransactionsWhoseOutcomesAreAppliedTogetherFindsThemByThePrimaryKey() throws SQLException {
        String values = "ARRAY['tx_plan00000000000020005', 'tx_plan00000000000020006'], '" + org.value() + "'";

        assertThat(plan(JdbiTransactions.LOCK_ALL, "force_generic_plan", values)).contains("transactions_pkey");
        assertThat(plan(JdbiTransactions.LOCK_ALL, "force_custom_plan", values)).contains("transactions_pkey");
    }

    @Test
    void theEscrowClockworkLooksUpEachLockByThePrimaryKey() throws SQLException {
        assertThat(claimPlan(JdbiEscrows.CLAIM_TIMED_OUT)).contains("transactions_pkey");
    }

    /**
     * Planned once for any wallets, the lock of a batch's wallets finds them by the primary key, and
     * the read-ahead of their spends reads each wallet's by a range of the window index, not every
     * spend.
     */
    @Test
    void aBatchsLockAndReadAheadPlannedForAnyValuesFindTheirRowsByIndex() throws SQLException {
        String wallets = "ARRAY['" + wallet.id().value() + "', 'wal_plan7']";
        String orgId = "'" + org.value() + "'";
        String window = "now() - interval '1 day', " + wallets + ", " + orgId;

        assertThat(plan(JdbiWallets.LOCK_ALL, "force_generic_plan", wallets + ", " + orgId)).contains("wallets_pkey")
                .doesNotContain("Seq Scan");
        assertThat(plan(JdbiSpendLog.LEAVING, "force_generic_plan", String.join(", ", window, window, window)))
                .contains("spend_entries_window").doesNotContain("Seq Scan");
    }

    /** The control: without it, the tests above could pass in books where no status index looks cheap. */
    @Test
    void writtenWithStatusEqualsPendingTheSameStatementsScanAnIndexOfPendingTransactions() throws SQLException {
        String equals = UPDATE_IF_PENDING.replace("IS NOT DISTINCT FROM", "=");

        assertThat(equals).isNotEqualTo(UPDATE_IF_PENDING);
        assertThat(genericPlan(equals)).doesNotContain("transactions_pkey");
        assertThat(customPlan(equals)).doesNotContain("transactions_pkey");
        assertThat(claimPlan(JdbiEscrows.CLAIM_TIMED_OUT.replace("IS NOT DISTINCT FROM", "=")))
                .doesNotContain("transactions_pkey");
    }

    /** The plan for any values: the one a prepared statement is given after its first executions. */
    private static String genericPlan(String sql) throws SQLException {
        return plan(sql, "force_generic_plan");
    }

    /** The plan for one pending transaction's values: the one of a statement's first executions. */
    private static String customPlan(String sql) throws SQLException {
        return plan(sql, "force_custom_plan");
    }

    /**
     * {@code sql} prepared as the driver prepares it, then explained for the outcome of one pending
     * transaction, with the plan cache in {@code mode}.
     */
    private static String plan(String sql, String mode) throws SQLException {
        return plan(sql, mode, outcomeOf("tx_plan00000000000020005"));
    }

    /** The values of the outcome's update that confirms pending transaction {@code id}. */
    private static String outcomeOf(String id) {
        return "'confirmed', NULL, false" + ", NULL".repeat(12) + ", now(), '" + id + "', '" + org.value() + "'";
    }

    /** {@code sql} prepared as the driver prepares it, then explained for {@code values}, with the plan cache in {@code mode}. */
    private static String plan(String sql, String mode, String values) throws SQLException {
        AtomicInteger n = new AtomicInteger();
        String numbered = PLACEHOLDER.matcher(sql).replaceAll(m -> Matcher.quoteReplacement("$" + n.incrementAndGet()));
        return jdbi.<String, SQLException>withHandle(h -> {
            try (Statement statement = h.getConnection().createStatement()) {
                statement.execute("SET plan_cache_mode = " + mode);
                statement.execute("PREPARE outcome AS " + numbered);
                try {
                    return lines(statement, "EXPLAIN EXECUTE outcome(" + values + ")");
                } finally {
                    statement.execute("DEALLOCATE outcome");
                    statement.execute("RESET plan_cache_mode");
                }
            }
        });
    }

    /** The plan of the escrow clockwork's claim, at this moment. */
    private static String claimPlan(String sql) throws SQLException {
        return jdbi.<String, SQLException>withHandle(h -> {
            try (Statement statement = h.getConnection().createStatement()) {
                return lines(statement, "EXPLAIN " + sql.replace(":now", "now()"));
            }
        });
    }

    private static String lines(Statement statement, String query) throws SQLException {
        StringBuilder lines = new StringBuilder();
        try (ResultSet rows = statement.executeQuery(query)) {
            while (rows.next()) {
                lines.append(rows.getString(1)).append('\n');
            }
        }
        return lines.toString();
    }
}
