package com.agentwallet.adapters.persistence;

import com.agentwallet.core.auth.ApiKeyCache;
import com.zaxxer.hikari.HikariDataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;

import static java.util.Objects.requireNonNull;

/**
 * Follows the changes to API keys that any process commits (the {@code api_key_changed} channel,
 * which a trigger on {@code api_keys} announces to) and tells the {@link ApiKeyCache}. It listens on
 * a connection of its own, outside the pool. The cache keeps keys only while the listening
 * connection is up and proven alive: it is told it follows once {@code LISTEN} is in place, and that
 * it does not as soon as the connection fails or a periodic check of it does not answer, so a
 * revocation can never be missed while a key is kept. It then connects again, after a pause.
 */
public final class ApiKeyChanges implements AutoCloseable {
    static final String CHANNEL = "api_key_changed";
    /** The listening connection's {@code application_name}, as {@code pg_stat_activity} shows it. */
    static final String APPLICATION_NAME = "agent-wallet api-key-changes";
    private static final Logger LOG = LoggerFactory.getLogger(ApiKeyChanges.class);
    /** How long one wait for notifications lasts, and so how late {@link #close} is heard at most. */
    private static final int WAIT_MILLIS = 250;
    /** The listening connection is checked with a query after this long without a notification. */
    private static final Duration CHECK_EVERY = Duration.ofSeconds(5);
    /** A check that does not answer within this long counts as a failed connection. */
    private static final int CHECK_TIMEOUT_SECONDS = 2;
    private static final Duration RECONNECT_AFTER = Duration.ofSeconds(1);

    private final String jdbcUrl;
    private final Properties credentials = new Properties();
    private final ApiKeyCache cache;
    private final Thread follower;
    private volatile boolean closed;

    private ApiKeyChanges(HikariDataSource pool, ApiKeyCache cache) {
        this.jdbcUrl = pool.getJdbcUrl();
        credentials.setProperty("ApplicationName", APPLICATION_NAME);
        if (pool.getUsername() != null) {
            credentials.setProperty("user", pool.getUsername());
        }
        if (pool.getPassword() != null) {
            credentials.setProperty("password", pool.getPassword());
        }
        this.cache = requireNonNull(cache, "cache is null");
        this.follower = new Thread(this::follow, "api-key-changes");
        follower.setDaemon(true);
    }

    /** Starts following on the pool's database, with the pool's credentials. */
    public static ApiKeyChanges follow(HikariDataSource pool, ApiKeyCache cache) {
        ApiKeyChanges changes = new ApiKeyChanges(pool, cache);
        changes.follower.start();
        return changes;
    }

    private void follow() {
        while (!closed) {
            try (Connection connection = DriverManager.getConnection(jdbcUrl, credentials)) {
                listen(connection);
            } catch (SQLException | RuntimeException e) {
                if (!closed) {
                    LOG.warn("API keys: lost the feed of their changes ({}); every request reads its key from the "
                            + "database until it is back", e.getMessage());
                }
            } finally {
                cache.following(false);
            }
            pause();
        }
    }

    private void listen(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("LISTEN " + CHANNEL);
        }
        cache.following(true);
        PGConnection notifications = connection.unwrap(PGConnection.class);
        long quietSince = System.nanoTime();
        while (!closed) {
            PGNotification[] heard = notifications.getNotifications(WAIT_MILLIS);
            if (heard != null && heard.length > 0) {
                for (PGNotification notification : heard) {
                    cache.changed(notification.getParameter());
                }
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince > CHECK_EVERY.toNanos()) {
                if (!connection.isValid(CHECK_TIMEOUT_SECONDS)) {
                    throw new SQLException("the listening connection did not answer a check");
                }
                quietSince = System.nanoTime();
            }
        }
    }

    private void pause() {
        try {
            Thread.sleep(closed ? 0 : RECONNECT_AFTER.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    /** Stops following; the cache then keeps nothing. */
    @Override
    public void close() {
        closed = true;
        follower.interrupt();
        try {
            follower.join(Duration.ofSeconds(5).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        cache.following(false);
    }
}
