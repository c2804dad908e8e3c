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
import java.time.Duration;
import java.util.Map;

/** Connecting to PostgreSQL: a pooled data source, the schema migrated by Liquibase, and Jdbi on top. */
public final class Postgres {
    public static final String CHANGELOG = "db/changelog.xml";
    /**
     * How long a unit of work waits for a connection: with the database down, a request answers 503
     * after this, well within 5 s, instead of after the pool's own default of 30 s.
     */
    public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(3);

    private static final Duration LOGIN_TIMEOUT = Duration.ofSeconds(10);
    /** Hikari's floor is 250 ms, and the check of a pooled connection gets half. */
    private static final Duration MIN_CONNECTION_TIMEOUT = Duration.ofMillis(500);

    private Postgres() {
    }

    public static HikariDataSource pool(String jdbcUrl, String user, String password, int maxConnections) {
        return pool(jdbcUrl, user, password, maxConnections, DEFAULT_CONNECTION_TIMEOUT);
    }

    /**
     * A pool whose callers wait at most {@code connectionTimeout} for a connection, checking a pooled
     * one included, so a database that is down or unreachable is reported within that time.
     */
    public static HikariDataSource pool(String jdbcUrl, String user, String password, int maxConnections,
                                        Duration connectionTimeout) {
        if (connectionTimeout.compareTo(MIN_CONNECTION_TIMEOUT) < 0) {
            throw new IllegalArgumentException("connectionTimeout must be at least " + MIN_CONNECTION_TIMEOUT.toMillis()
                    + " ms");
        }
        HikariConfig config = new HikariConfig();
        config.setConnectionTimeout(connectionTimeout.toMillis());
        config.setValidationTimeout(connectionTimeout.toMillis() / 2);
        // Opening a connection may take longer than a caller waits (a loaded machine, a slow start):
        // the caller gives up after connectionTimeout all the same, and the connection joins the pool.
        config.addDataSourceProperty("loginTimeout", Long.toString(LOGIN_TIMEOUT.toSeconds()));
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
