package com.agentwallet.adapters.persistence;

import com.agentwallet.core.testing.TempFolders;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One embedded PostgreSQL per test JVM, and a fresh, migrated database for each caller: tests get
 * a real server without sharing rows. The schema is migrated once, into a template that each fresh
 * database is copied from (PostgreSQL's {@code CREATE DATABASE ... TEMPLATE}), rather than by
 * Liquibase again for every test class; {@code MigrationTest} migrates databases of its own. The
 * server's cluster lives under the build folder and is thrown away with it.
 */
public final class TestDatabase {
    private static final String TEMPLATE = "books_template";
    private static final AtomicInteger NEXT = new AtomicInteger();
    private static EmbeddedDatabase server;

    private TestDatabase() {
    }

    /** A new empty database with the schema applied, and a pool of {@code connections} to it. */
    public static synchronized HikariDataSource fresh(int connections) {
        if (server == null) {
            Path root = Path.of(System.getProperty("java.io.tmpdir"), "agent-wallet-test-pg-" + ProcessHandle.current().pid());
            server = EmbeddedDatabase.start(root.resolve("data"), root.resolve("work"), 0);
            TempFolders.removeAtExit(root, server::close);
            createDatabase(TEMPLATE, "");
            // Closed before any copy: PostgreSQL copies a template nobody is connected to.
            try (HikariDataSource template = Postgres.pool(server.jdbcUrl(TEMPLATE), EmbeddedDatabase.USER, server.password(), 1)) {
                Postgres.migrate(template);
            }
        }
        String name = "test_" + NEXT.incrementAndGet();
        createDatabase(name, " TEMPLATE " + TEMPLATE);
        return Postgres.pool(server.jdbcUrl(name), EmbeddedDatabase.USER, server.password(), connections);
    }

    private static void createDatabase(String name, String options) {
        Jdbi.create(server.jdbcUrl("postgres"), EmbeddedDatabase.USER, server.password())
                .useHandle(handle -> handle.execute("CREATE DATABASE " + name + options));
    }

    /**
     * Empties every table of the books (not Liquibase's own, nor the fan-out's horizon, a row the
     * schema always holds: transaction ids only grow, so the horizon as it was stays below every
     * event written after), for a test that needs empty books again.
     */
    public static void truncateAll(DataSource dataSource) {
        Jdbi.create(dataSource).useHandle(handle -> {
            List<String> tables = handle.createQuery("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                    + "AND tablename NOT LIKE 'databasechangelog%' AND tablename <> 'fan_out_horizon'")
                    .mapTo(String.class).list();
            handle.execute("TRUNCATE " + String.join(", ", tables) + " RESTART IDENTITY CASCADE");
        });
    }
}
