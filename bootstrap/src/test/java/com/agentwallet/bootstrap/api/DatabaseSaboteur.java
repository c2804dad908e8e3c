package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.persistence.EmbeddedDatabase;
import com.agentwallet.adapters.persistence.PersistenceSettings;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Cuts a running server's database connections, as a failover, a restarted PostgreSQL or a network
 * blip would: from a connection of its own to the server's embedded PostgreSQL it terminates every
 * other backend of the service's database ({@code pg_terminate_backend}, which the server meets as
 * SQLState 57P01 mid-statement, or as a broken connection on its next use), a round every
 * {@code minPause} to {@code maxPause} (drawn from the test's seeded source), on a thread of its own,
 * until closed.
 */
final class DatabaseSaboteur implements AutoCloseable {
    /** The server's backends, each terminated; whether it was inside a transaction is read in the same pass. */
    private static final String KILL = "SELECT xact_start IS NOT NULL, pg_terminate_backend(pid) FROM pg_stat_activity"
            + " WHERE datname = ? AND pid <> pg_backend_pid() AND backend_type = 'client backend'";

    private final Connection connection;
    private final AtomicInteger killed = new AtomicInteger();
    private final AtomicInteger killedInTransaction = new AtomicInteger();
    private volatile Thread loop;
    /** What stopped the rounds early, if anything: reported by {@link #close()}. */
    private volatile RuntimeException failure;

    private DatabaseSaboteur(Connection connection) {
        this.connection = connection;
    }

    /** A saboteur of the server whose data directory is {@code data}; nothing is cut until asked. */
    static DatabaseSaboteur of(Path data) {
        String url = BooksAndChain.databaseUrl(data);
        try {
            return new DatabaseSaboteur(DriverManager.getConnection(url, EmbeddedDatabase.USER,
                    BooksAndChain.databasePassword(data)));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach the server's PostgreSQL at " + url, e);
        }
    }

    /** Starts cutting every {@code minPause} to {@code maxPause}, as {@code pauses} draws them, until {@link #close()}. */
    DatabaseSaboteur start(Random pauses, Duration minPause, Duration maxPause) {
        Thread thread = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(pauses.nextLong(minPause.toMillis(), maxPause.toMillis() + 1));
                    killNow();
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    // A round cut short by close() is no failure.
                    if (!Thread.currentThread().isInterrupted()) {
                        failure = e;
                    }
                    return;
                }
            }
        }, "database-saboteur");
        thread.setDaemon(true);
        thread.start();
        loop = thread;
        return this;
    }

    /** One round: terminates every backend of the server now. */
    private void killNow() {
        try (PreparedStatement kill = connection.prepareStatement(KILL)) {
            kill.setString(1, PersistenceSettings.EMBEDDED_DATABASE);
            int round = 0;
            try (ResultSet rows = kill.executeQuery()) {
                while (rows.next()) {
                    if (rows.getBoolean(2)) {
                        round++;
                        if (rows.getBoolean(1)) {
                            killedInTransaction.incrementAndGet();
                        }
                    }
                }
            }
            killed.addAndGet(round);
        } catch (SQLException e) {
            throw new IllegalStateException("the saboteur's own connection failed", e);
        }
    }

    /** Backends terminated so far. */
    int killed() {
        return killed.get();
    }

    /** Of those, the ones that were inside a transaction when cut. */
    int killedInTransaction() {
        return killedInTransaction.get();
    }

    /**
     * Stops cutting (waiting for a round in progress) and closes the saboteur's own connection; fails
     * if the rounds stopped early.
     */
    @Override
    public void close() {
        Thread thread = loop;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(Duration.ofSeconds(10).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            connection.close();
        } catch (SQLException e) {
            throw new IllegalStateException("closing the saboteur's connection failed", e);
        }
        if (failure != null) {
            throw new IllegalStateException("the saboteur stopped early", failure);
        }
    }
}
