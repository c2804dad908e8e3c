package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.payment.IdempotencyRecord;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.PaymentRequest;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.postgresql.util.PSQLException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.agentwallet.adapters.persistence.PgBooks.number;
import static com.agentwallet.adapters.persistence.PgBooks.orgBalance;
import static com.agentwallet.adapters.persistence.PgBooks.refusalOf;
import static com.agentwallet.adapters.persistence.PgBooks.texts;
import static com.agentwallet.adapters.persistence.PgBooks.walletBalance;
import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/** The Liquibase schema: what migrating creates, that migrating twice is harmless, and what the database refuses. */
class MigrationTest {
    private static final String CHECK_VIOLATION = "23514";
    private static final String UNIQUE_VIOLATION = "23505";
    private static final Set<String> SCHEMA_TABLES = Set.of("organisations", "api_keys", "policies", "policy_audit",
            "recipient_categories", "wallets", "spend_entries", "escrows", "transactions", "idempotency_keys", "request_keys",
            "outbox_events", "fan_out_horizon", "webhooks", "webhook_deliveries", "delivery_attempts", "export_jobs",
            "dashboard_users", "dashboard_sessions", "rate_buckets", "settlement_claims", "ledger_attempts",
            "ledger_outcomes", "scheduled_runs");
    private static final Set<String> LIQUIBASE_TABLES = Set.of("databasechangelog", "databasechangeloglock");

    private static HikariDataSource migrated;
    private static Jdbi jdbi;
    private static final List<HikariDataSource> EXTRA_POOLS = new ArrayList<>();

    @BeforeAll
    static void createDatabase() {
        migrated = TestDatabase.fresh(4);
        jdbi = Postgres.jdbi(migrated);
    }

    @AfterAll
    static void closeDatabases() {
        EXTRA_POOLS.forEach(HikariDataSource::close);
        migrated.close();
    }

    /** A new database on the test server with nothing in it, not even Liquibase's tables. */
    private static HikariDataSource emptyDatabase(String name) {
        Jdbi.create(PgBooks.sibling(migrated, "postgres"), EmbeddedDatabase.USER, migrated.getPassword())
                .useHandle(handle -> handle.execute("CREATE DATABASE " + name));
        HikariDataSource pool = Postgres.pool(PgBooks.sibling(migrated, name), EmbeddedDatabase.USER, migrated.getPassword(), 2);
        EXTRA_POOLS.add(pool);
        return pool;
    }

    private static Set<String> tables(Jdbi db) {
        return new TreeSet<>(texts(db, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"));
    }

    /** Everything the schema is made of: columns, constraints, indexes and sequences, as comparable text. */
    private static List<String> schemaSnapshot(Jdbi db) {
        List<String> snapshot = new ArrayList<>();
        snapshot.addAll(texts(db, "SELECT table_name || '.' || column_name || ' ' || data_type || ' null=' || is_nullable "
                + "|| ' default=' || coalesce(column_default, '') FROM information_schema.columns "
                + "WHERE table_schema = 'public' ORDER BY 1"));
        snapshot.addAll(texts(db, "SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) "
                + "FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1"));
        snapshot.addAll(texts(db, "SELECT indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1"));
        snapshot.addAll(texts(db, "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1"));
        return snapshot;
    }

    private static List<String> changelog(Jdbi db) {
        return texts(db, "SELECT id || ' ' || author || ' ' || md5sum || ' ' || exectype FROM databasechangelog "
                + "ORDER BY orderexecuted");
    }

    /** The text of every SQL file the changelog includes. */
    private static String schemaFiles() {
        StringBuilder text = new StringBuilder();
        for (String file : matches(resource(Postgres.CHANGELOG), "<include file=\"([^\"]+)\"")) {
            text.append(resource(file));
        }
        return text.toString();
    }

    private static String resource(String name) {
        try (InputStream in = MigrationTest.class.getClassLoader().getResourceAsStream(name)) {
            assertThat(in).as(name + " on the classpath").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> matches(String text, String regex) {
        Set<String> found = new TreeSet<>();
        Matcher matcher = Pattern.compile(regex).matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }

    @Nested
    class Migrating {
        @Test
        void anEmptyDatabaseGetsEveryTableOfTheSchema() {
            Set<String> declared = matches(schemaFiles(), "(?m)^CREATE (?:UNLOGGED )?TABLE (\\w+)");
            assertThat(declared).as("the tables the schema file declares").isEqualTo(new TreeSet<>(SCHEMA_TABLES));
            HikariDataSource empty = emptyDatabase("migration_empty");
            Jdbi db = Jdbi.create(empty);
            assertThat(tables(db)).isEmpty();

            Postgres.migrate(empty);

            Set<String> expected = new TreeSet<>(SCHEMA_TABLES);
            expected.addAll(LIQUIBASE_TABLES);
            assertThat(tables(db)).isEqualTo(expected);
            assertThat(changelog(db)).hasSize(matches(schemaFiles(), "(?m)^--changeset agent-wallet:(\\S+)").size())
                    .allSatisfy(row -> assertThat(row).endsWith(" EXECUTED"));
            assertThat(schemaSnapshot(db)).as("the same schema as TestDatabase's migrated database")
                    .isEqualTo(schemaSnapshot(jdbi));
        }

        @Test
        void againChangesNothingAndKeepsTheRows() {
            HikariDataSource pool = emptyDatabase("migration_twice");
            Jdbi db = Jdbi.create(pool);
            Postgres.migrate(pool);
            db.useHandle(handle -> handle.execute("INSERT INTO organisations (id, name, balance_micros, created_at) "
                    + "VALUES ('org_kept', 'Kept', 42, now())"));
            List<String> schemaBefore = schemaSnapshot(db);
            List<String> changelogBefore = changelog(db);

            assertThatCode(() -> Postgres.migrate(pool)).doesNotThrowAnyException();
            assertThatCode(() -> Postgres.migrate(pool)).doesNotThrowAnyException();

            assertThat(schemaSnapshot(db)).isEqualTo(schemaBefore);
            assertThat(changelog(db)).isEqualTo(changelogBefore);
            assertThat(number(db, "SELECT balance_micros FROM organisations WHERE id = 'org_kept'")).isEqualTo(42L);
            assertThat(number(db, "SELECT count(*) FROM databasechangeloglock WHERE locked")).isZero();
        }
    }

    /** Books set up through the use cases, then raw SQL that must never be stored. */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class TheDatabaseRefuses {
        private OrgId org;
        private WalletId wallet;
        private String paymentId;

        @BeforeAll
        void someBooks() {
            TestDatabase.truncateAll(migrated);
            MutableClock clock = MutableClock.atTestEpoch();
            JdbiStorage storage = new JdbiStorage(jdbi, clock);
            CoreServices core = PgBooks.services(storage, new FakeLedger(), clock, 3);
            org = PgBooks.organisation(core, "100");
            FundedWallet funded = PgBooks.wallet(core, org, PgBooks.policy(core, org, rules().build()), "agent-1", "10");
            wallet = funded.wallet().id();
            PaymentResult paid = core.payments.pay(PaymentRequest.paymentFrom(funded).amount("1").build()).value();
            paymentId = paid.transaction().id().value();
            storage.inTransaction(stores -> {
                stores.idempotency().insert(IdempotencyRecord.firstUse(org, "key-1", "first request",
                        paid.transaction().id(), clock.instant()));
                return null;
            });
        }

        @Test
        void aNegativeOrganisationBalance() {
            long before = orgBalance(jdbi, org);

            PSQLException error = refusalOf(jdbi, "UPDATE organisations SET balance_micros = -1 WHERE id = ?", org.value());

            assertThat(error.getSQLState()).isEqualTo(CHECK_VIOLATION);
            assertThat(error.getServerErrorMessage().getConstraint()).isEqualTo("organisations_balance_micros_check");
            assertThat(orgBalance(jdbi, org)).isEqualTo(before).isEqualTo(90_000_000L);
        }

        @Test
        void aNegativeWalletBalance() {
            PSQLException error = refusalOf(jdbi, "UPDATE wallets SET balance_micros = -1 WHERE id = ?", wallet.value());

            assertThat(error.getSQLState()).isEqualTo(CHECK_VIOLATION);
            assertThat(error.getServerErrorMessage().getConstraint()).isEqualTo("wallets_balance_micros_check");
            assertThat(walletBalance(jdbi, wallet)).isEqualTo(9_000_000L);
        }

        @Test
        void aBlockedTransactionWithoutAViolationRuleButNotOneWithIt() {
            String blockedWithoutRule = copyOfThePayment("tx_blocked_norule", "'blocked'", "amount_micros", "NULL");
            String blockedWithRule = copyOfThePayment("tx_blocked_rule", "'blocked'", "amount_micros", "'max_per_tx'");

            PSQLException error = refusalOf(jdbi, blockedWithoutRule);
            jdbi.useHandle(handle -> handle.execute(blockedWithRule));

            assertThat(error.getSQLState()).isEqualTo(CHECK_VIOLATION);
            assertThat(error.getServerErrorMessage().getConstraint()).isEqualTo(constraintMentioning("violation_rule"));
            assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE id = 'tx_blocked_norule'")).isZero();
            assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE id = 'tx_blocked_rule'")).isOne();
            PSQLException unblockedWithRule = refusalOf(jdbi,
                    copyOfThePayment("tx_confirmed_rule", "'confirmed'", "amount_micros", "'max_per_tx'"));
            assertThat(unblockedWithRule.getSQLState()).isEqualTo(CHECK_VIOLATION);
        }

        @Test
        void aTransactionAmountOfZero() {
            PSQLException error = refusalOf(jdbi, copyOfThePayment("tx_zero", "status", "0", "NULL"));

            assertThat(error.getSQLState()).isEqualTo(CHECK_VIOLATION);
            assertThat(error.getServerErrorMessage().getConstraint()).isEqualTo("transactions_amount_micros_check");
            assertThat(number(jdbi, "SELECT count(*) FROM transactions WHERE id = 'tx_zero'")).isZero();
        }

        @Test
        void aSecondWalletForTheSameAgentOfTheSameOrganisation() {
            PSQLException error = refusalOf(jdbi, "INSERT INTO wallets SELECT 'wal_duplicate', org_id, agent_id, label, "
                    + "policy_id, tags, status, 'another-address', balance_micros, spend_day_micros, spend_month_micros, "
                    + "spend_hour_count, day_cutoff, month_cutoff, hour_cutoff, session_version, topup_enabled, "
                    + "topup_trigger_micros, topup_amount_micros, created_at, updated_at FROM wallets WHERE id = ?",
                    wallet.value());

            assertThat(error.getSQLState()).isEqualTo(UNIQUE_VIOLATION);
            assertThat(error.getServerErrorMessage().getConstraint()).isEqualTo("wallets_org_id_agent_id_key");
            assertThat(number(jdbi, "SELECT count(*) FROM wallets WHERE org_id = ?", org.value())).isOne();
        }

        @Test
        void anIdempotencyKeyUsedTwice() {
            PSQLException error = refusalOf(jdbi, "INSERT INTO idempotency_keys (org_id, key, fingerprint, tx_id, created_at) "
                    + "VALUES (?, 'key-1', 'another request', ?, now())", org.value(), paymentId);

            assertThat(error.getSQLState()).isEqualTo(UNIQUE_VIOLATION);
            assertThat(error.getServerErrorMessage().getConstraint()).isEqualTo("idempotency_keys_pkey");
            assertThat(texts(jdbi, "SELECT fingerprint FROM idempotency_keys WHERE org_id = ?", org.value()))
                    .containsExactly("first request");
        }

        @Test
        void anAnswerStatusWithoutItsTime() {
            PSQLException error = refusalOf(jdbi, "UPDATE idempotency_keys SET answer_status = 'confirmed' "
                    + "WHERE org_id = ?", org.value());

            assertThat(error.getSQLState()).isEqualTo(CHECK_VIOLATION);
            assertThat(error.getServerErrorMessage().getConstraint()).isEqualTo("idempotency_keys_answer");
            assertThat(number(jdbi, "SELECT count(*) FROM idempotency_keys WHERE answer_status IS NULL")).isOne();
        }

        /** An INSERT copying the payment under a new id, with the given SQL for status, amount and violation rule. */
        private String copyOfThePayment(String id, String status, String amount, String rule) {
            return "INSERT INTO transactions (id, org_id, wallet_id, type, status, amount_micros, recipient, memo, "
                    + "policy_triggered, violation_rule, violation_limit, violation_attempted, created_at, updated_at) "
                    + "SELECT '" + id + "', org_id, wallet_id, type, " + status + ", " + amount + ", recipient, memo, "
                    + "policy_triggered, " + rule + ", '1.00', '2.00', created_at, updated_at FROM transactions "
                    + "WHERE id = '" + paymentId + "'";
        }

        private String constraintMentioning(String column) {
            return PgBooks.text(jdbi, "SELECT conname FROM pg_constraint WHERE conrelid = 'transactions'::regclass "
                    + "AND contype = 'c' AND pg_get_constraintdef(oid) LIKE ?", "%" + column + "%");
        }
    }
}
