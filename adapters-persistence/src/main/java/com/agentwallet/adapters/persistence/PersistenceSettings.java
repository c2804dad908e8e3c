package com.agentwallet.adapters.persistence;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Where the books live: an external PostgreSQL 14+ when {@code jdbcUrl} is given (as {@code user}
 * with {@code password}), otherwise the embedded PostgreSQL with its cluster under
 * {@code dataDirectory} (kept between runs, with a password of its own). {@code connectionTimeout}
 * is the longest a unit of work waits for a connection before it fails as unavailable.
 */
public record PersistenceSettings(Optional<String> jdbcUrl, String user, String password, Path dataDirectory,
                                  int embeddedPort, int maxConnections, Duration connectionTimeout) {
    public static final String EMBEDDED_DATABASE = "agent_wallet";

    public PersistenceSettings {
        requireNonNull(jdbcUrl, "jdbcUrl is null");
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        requireNonNull(dataDirectory, "dataDirectory is null");
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1");
        }
        requireNonNull(connectionTimeout, "connectionTimeout is null");
    }

    /** The embedded default: data under {@code dataDirectory}, any free port. */
    public static PersistenceSettings embedded(Path dataDirectory, int maxConnections) {
        return new PersistenceSettings(Optional.empty(), EmbeddedDatabase.USER, "", dataDirectory, 0, maxConnections,
                Postgres.DEFAULT_CONNECTION_TIMEOUT);
    }
}
