package com.agentwallet.bench;

import com.agentwallet.adapters.persistence.Postgres;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.ledger.LedgerAddress;
import org.jdbi.v3.core.Jdbi;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.sql.DataSource;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/** What the benchmarks with a main share: option values, the machine, the embedded server, the temp directory. */
public final class BenchmarkSupport {
    private BenchmarkSupport() {
    }

    /** A benchmark's run, in the temporary directory that holds its database. */
    @FunctionalInterface
    public interface Run {
        void in(Path temp) throws Exception;
    }

    /**
     * Runs the benchmark in a new temporary directory, deletes the directory, and exits (the
     * embedded server's and the libraries' threads would otherwise keep the JVM alive).
     */
    public static void runInTempDirectory(String prefix, Run run) throws Exception {
        Path temp = Files.createTempDirectory(prefix);
        try {
            run.in(temp);
        } finally {
            deleteRecursively(temp);
        }
        System.exit(0);
    }

    /** A rate with one decimal, or "-" when there is none. */
    public static String rate(Optional<Double> perSecond) {
        return perSecond.map(r -> String.format(Locale.ROOT, "%.1f", r)).orElse("-");
    }

    /** {@code rate} over {@code of} with two decimals, or "-" if either is missing. */
    public static String ratio(Optional<Double> rate, Optional<Double> of) {
        return rate.flatMap(r -> of.map(o -> String.format(Locale.ROOT, "%.2f", r / o))).orElse("-");
    }

    /** A valid ledger address that belongs to no wallet of the service, derived from {@code name}. */
    public static String externalAddress(String name) {
        return LedgerAddress.of(Hashing.sha256(("external/" + name).getBytes(StandardCharsets.UTF_8))).base58();
    }

    /** The TLS of a local HTTPS server with the certificate in the PKCS12 {@code keyStore}. */
    public static SSLContext serverTls(Path keyStore, String password) throws IOException {
        char[] secret = password.toCharArray();
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, secret);
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, secret);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the certificate at " + keyStore + " is unusable", e);
        }
    }

    /** Liquibase reports every change set on stdout and through java.util.logging; the table is what matters here. */
    public static void migrateQuietly(DataSource pool) {
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        for (java.util.logging.Handler handler : java.util.logging.Logger.getLogger("").getHandlers()) {
            handler.setLevel(java.util.logging.Level.WARNING);
        }
        java.io.PrintStream out = System.out;
        System.setOut(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        try {
            Postgres.migrate(pool);
        } finally {
            System.setOut(out);
        }
    }

    public static String serverVersion(Jdbi jdbi) {
        return jdbi.withHandle(h -> h.createQuery("SELECT version()").mapTo(String.class).one());
    }

    /** The settings that decide how fast commits are: durability, WAL and memory. */
    public static String serverSettings(Jdbi jdbi) {
        return jdbi.withHandle(h -> h.createQuery(
                "SELECT string_agg(name || '=' || setting || COALESCE(unit, ''), ', ' ORDER BY name) FROM pg_settings "
                        + "WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method', "
                        + "'shared_buffers', 'max_wal_size', 'checkpoint_timeout')").mapTo(String.class).one());
    }

    /** The line that says how much of the machine the benchmark had at its start. */
    public static void printMachine() {
        System.out.println(machine());
    }

    /** The machine line of {@link #printMachine()}, for a benchmark that prints it again in its summary. */
    public static String machine() {
        return String.format(Locale.ROOT, "machine: %d cpus, load average at start: %s",
                Runtime.getRuntime().availableProcessors(), loadAverage());
    }

    public static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /**
     * The commit of the working directory ({@code git rev-parse --short HEAD}), "+changes" after it
     * when files differ from it, or "unknown" outside a git checkout: which code a run's figures are of.
     */
    public static String commit() {
        try {
            String head = git("rev-parse", "--short", "HEAD");
            return head.isEmpty() ? "unknown" : head + (git("status", "--porcelain", "--untracked-files=no").isEmpty()
                    ? "" : " +changes");
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private static String git(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        Process git = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return git.waitFor() == 0 ? out : "";
    }

    /** The CPU this JVM has used so far, all threads. */
    public static double processCpuSeconds() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() / 1e9 : Double.NaN;
    }

    public static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort: a temp directory
                }
            });
        } catch (IOException e) {
            System.err.println("could not delete " + root + ": " + e.getMessage());
        }
    }
}
