package com.agentwallet.adapters.persistence;

import com.agentwallet.core.port.LedgerJournal;
import com.agentwallet.core.port.ScheduledRuns;
import com.agentwallet.core.port.Storage;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;

import java.time.Clock;
import java.util.Optional;

/** The opened books: a migrated database, its pool, and the storage over it; closing stops what it started. */
public final class Persistence implements AutoCloseable {
    private final Optional<EmbeddedDatabase> embedded;
    private final HikariDataSource pool;
    private final Jdbi jdbi;

    private Persistence(Optional<EmbeddedDatabase> embedded, HikariDataSource pool) {
        this.embedded = embedded;
        this.pool = pool;
        this.jdbi = Postgres.jdbi(pool);
    }

    /** Connects (starting the embedded server when no URL is configured) and migrates the schema. */
    public static Persistence open(PersistenceSettings settings) {
        Optional<EmbeddedDatabase> embedded = Optional.empty();
        String url;
        String user = settings.user();
        String password = settings.password();
        if (settings.jdbcUrl().isPresent()) {
            url = settings.jdbcUrl().get();
        } else {
            EmbeddedDatabase server = EmbeddedDatabase.start(settings.dataDirectory().resolve("postgres"),
                    settings.dataDirectory().resolve("postgres-bin"), settings.embeddedPort());
            embedded = Optional.of(server);
            createDatabaseIfMissing(server);
            url = server.jdbcUrl(PersistenceSettings.EMBEDDED_DATABASE);
            user = EmbeddedDatabase.USER;
            password = server.password();
        }
        HikariDataSource pool = Postgres.pool(url, user, password, settings.maxConnections(),
                settings.connectionTimeout());
        Postgres.migrate(pool);
        return new Persistence(embedded, pool);
    }

    /** The storage over these books, on the service's clock. */
    public Storage storage(Clock clock) {
        return new JdbiStorage(jdbi, clock);
    }

    /** The ledger plugin's journal of its submissions, in these books. */
    public LedgerJournal ledgerJournal() {
        return new JdbiLedgerJournal(jdbi);
    }

    /** The runs of the periodic jobs one process runs for all, in these books. */
    public ScheduledRuns scheduledRuns() {
        return new JdbiScheduledRuns(jdbi);
    }

    public Jdbi jdbi() {
        return jdbi;
    }

    public HikariDataSource dataSource() {
        return pool;
    }

    /** The embedded server, when the books run on it. */
    public Optional<EmbeddedDatabase> embedded() {
        return embedded;
    }

    @Override
    public void close() {
        pool.close();
        embedded.ifPresent(EmbeddedDatabase::close);
    }

    private static void createDatabaseIfMissing(EmbeddedDatabase server) {
        Jdbi.create(server.jdbcUrl("postgres"), EmbeddedDatabase.USER, server.password()).useHandle(handle -> {
            boolean exists = handle.createQuery("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = :name)")
                    .bind("name", PersistenceSettings.EMBEDDED_DATABASE).mapTo(Boolean.class).one();
            if (!exists) {
                handle.execute("CREATE DATABASE " + PersistenceSettings.EMBEDDED_DATABASE);
            }
        });
    }
}
