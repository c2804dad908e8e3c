package com.agentwallet.adapters.persistence;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import liquibase.Liquibase;
import liquibase.Scope;
import liquibase.UpdateSummaryOutputEnum;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import liquibase.ui.LoggerUIService;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.postgres.PostgresPlugin;

import javax.sql.DataSource;
import java.sql.Connection;
import java.util.Map;

/** Connecting to PostgreSQL: a pooled data source, the schema migrated by Liquibase, and Jdbi on top. */
public final class Postgres {
    public static final String CHANGELOG = "db/changelog.xml";

    private Postgres() {
    }

    public static HikariDataSource pool(String jdbcUrl, String user, String password, int maxConnections) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(maxConnections);
        config.setPoolName("agent-wallet");
        config.setAutoCommit(true);
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        return new HikariDataSource(config);
    }

    /**
     * Brings the schema up to date; safe to run on every start. Liquibase reports to the log, not
     * to standard output, which belongs to the operator commands' answers.
     */
    public static void migrate(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            Database database = DatabaseFactory.getInstance()
                    .findCorrectDatabaseImplementation(new JdbcConnection(connection));
            try (Liquibase liquibase = new Liquibase(CHANGELOG, new ClassLoaderResourceAccessor(), database)) {
                Scope.child(Map.of(Scope.Attr.ui.name(), new LoggerUIService(),
                        "liquibase.command.showSummaryOutput", UpdateSummaryOutputEnum.LOG), () -> liquibase.update(""));
            }
        } catch (Exception e) {
            throw new IllegalStateException("migrating the database failed", e);
        }
    }

    public static Jdbi jdbi(DataSource dataSource) {
        Jdbi jdbi = Jdbi.create(dataSource);
        jdbi.installPlugin(new PostgresPlugin());
        jdbi.registerArrayType(String.class, "text");
        return jdbi;
    }
}
