package com.agentwallet.bench.service;

import com.agentwallet.adapters.persistence.EmbeddedDatabase;
import com.agentwallet.adapters.persistence.PersistenceSettings;
import org.jdbi.v3.core.Jdbi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server binary ({@code agent-wallet.jar}) in a JVM of its own, as an operator runs it: a
 * configuration like {@code config/embedded.yml} on free ports of 127.0.0.1 with its data (embedded
 * PostgreSQL, simulated ledger, self-signed certificate) in a temporary directory, an organisation,
 * an admin key and a deposit made with the binary's operator commands, and the organisation's rate
 * limit raised by configuration ({@code api.organisationRateLimits}), the way a customer on a
 * custom plan gets it. A {@link #second second} server process can join it on its database, as
 * docs/SCALING.md runs several.
 */
final class LaunchedServer implements AutoCloseable {
    private static final Duration COMMAND_LIMIT = Duration.ofMinutes(3);
    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    private static final Pattern ORG_ID = Pattern.compile("\\borg_[0-9A-Za-z]{24}\\b");
    /** The time in a log line ({@code WARN  [2025-01-01 12:00:00,000] logger: message}). */
    private static final Pattern LOG_TIME = Pattern.compile("\\[[^]]*\\] ");
    private static final Pattern ADMIN_KEY = Pattern.compile("(?m)^key_[0-9A-Za-z]{24} admin (\\S+)$");
    /** The operator commands start, do one thing and stop: the quick JIT and collector start them sooner. */
    private static final List<String> COMMAND_JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    /** Where a second server's secrets come from: the environment, as docs/SCALING.md has an operator pass them. */
    private static final String DB_PASSWORD_VARIABLE = "AGENT_WALLET_DB_PASSWORD";
    private static final String SESSION_KEY_VARIABLE = "AGENT_WALLET_SESSION_KEY";

    private final Path jar;
    private final Path temp;
    private final Path data;
    private final Path config;
    private final List<String> jvmOptions;
    private final int pool;
    private final int https;
    private final int http;
    private final int admin;
    private final Path log;
    private final Path console;
    private final Path gcLog;
    private final Thread hook = new Thread(this::stop, "stop the server under test");
    /** The environment of the server's JVM beyond this one's: a second server's secrets. */
    private final Map<String, String> environment = new LinkedHashMap<>();
    /** Another server's database and simulator journal, for a second server; null for one with its own. */
    private String databaseUrl;
    private Path journal;
    private String orgId;
    private String adminKey;
    private Process process;

    private LaunchedServer(Path jar, Path temp, List<String> jvmOptions, int pool) {
        this.jar = jar;
        this.temp = temp;
        this.data = temp.resolve("data");
        this.config = temp.resolve("bench.yml");
        this.jvmOptions = List.copyOf(jvmOptions);
        this.pool = pool;
        this.https = freePort();
        this.http = freePort();
        this.admin = freePort();
        this.log = temp.resolve("server.log");
        this.console = temp.resolve("server-console.log");
        this.gcLog = temp.resolve("server-gc.log");
    }

    /**
     * Prepares the organisation with the operator commands ({@code create-org}, {@code create-key
     * --role admin}, {@code deposit}), then starts the server and waits until it answers.
     * {@code pool}, when given, is {@code database.maxConnections}; otherwise the configuration's 16.
     */
    static LaunchedServer launch(Path jar, Path temp, List<String> jvmOptions, OptionalInt pool, String deposit)
            throws IOException, InterruptedException {
        return new LaunchedServer(jar, temp, jvmOptions, pool.orElse(16)).started(server -> {
            server.writeConfig();
            Matcher org = ORG_ID.matcher(server.command("create-org", "--name", "Bench"));
            if (!org.find()) {
                throw new IllegalStateException("create-org printed no organisation id; see " + server.log);
            }
            server.orgId = org.group();
            Matcher key = ADMIN_KEY.matcher(server.command("create-key", "--org", server.orgId, "--role", "admin"));
            if (!key.find()) {
                throw new IllegalStateException("create-key printed no admin key; see " + server.log);
            }
            server.adminKey = key.group(1);
            server.command("deposit", "--org", server.orgId, "--amount", deposit);
        });
    }

    /**
     * A second server process of the same binary on this one's database: its own data directory
     * (so its own server id and certificate), ports and log under {@code temp}; this one's
     * embedded PostgreSQL (its URL, its user, its password), simulator journal (one chain) and
     * session-token signing key (the agents' tokens hold on both), the two secrets passed through
     * the environment; the same organisation, admin key and rate limit, so no operator command
     * runs. Started, and answering, when returned; close it before this one, whose PostgreSQL it uses.
     */
    LaunchedServer second(Path temp) throws IOException, InterruptedException {
        return new LaunchedServer(jar, temp, jvmOptions, pool).started(second -> {
            second.orgId = orgId;
            second.adminKey = adminKey;
            second.databaseUrl = postgresUrl();
            second.journal = data.resolve("ledger-sim").resolve("journal.jsonl");
            second.environment.put(DB_PASSWORD_VARIABLE, EmbeddedDatabase.password(postgresData()));
            second.environment.put(SESSION_KEY_VARIABLE,
                    Files.readString(data.resolve("session-signing.key"), StandardCharsets.UTF_8).trim());
        });
    }

    /** What is done to a new server's data and configuration before it starts. */
    @FunctionalInterface
    private interface Preparation {
        void prepare(LaunchedServer server) throws IOException, InterruptedException;
    }

    /** This server, prepared, configured and started; stopped again if any of that fails. */
    private LaunchedServer started(Preparation preparation) throws IOException, InterruptedException {
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            Files.createDirectories(data);
            preparation.prepare(this);
            writeConfig();
            start();
            return this;
        } catch (IOException | InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void writeConfig() throws IOException {
        String orgLimit = orgId == null ? "" : String.format(Locale.ROOT, """
                  # The benchmark organisation's limit, raised the way a custom plan is: by configuration.
                  organisationRateLimits:
                    %s: {perSecond: 1000000, burst: 1000000}
                """, orgId);
        String database = databaseUrl == null ? "" : String.format(Locale.ROOT, """
                  url: "%s"
                  user: %s
                  password: ${%s}
                """, databaseUrl, EmbeddedDatabase.USER, DB_PASSWORD_VARIABLE);
        String sharedJournal = journal == null ? "" : String.format(Locale.ROOT, """
                    journal: "%s"
                """, journal);
        String signingKey = databaseUrl == null ? "" : String.format(Locale.ROOT, """
                  sessionTokens:
                    signingKey: ${%s}
                """, SESSION_KEY_VARIABLE);
        Files.writeString(config, String.format(Locale.ROOT, """
                # Written by ServiceLoadBenchmark: config/embedded.yml on free ports of 127.0.0.1, data in a
                # temporary directory, no demo organisations, the log in a file, no request log.
                dataDirectory: "%1$s"

                server:
                  applicationConnectors:
                    - type: https
                      port: %2$d
                      bindHost: 127.0.0.1
                      keyStorePath: "%1$s/tls/localhost.p12"
                      keyStorePassword: agent-wallet-bench
                      keyStoreType: PKCS12
                      validateCerts: false
                    - type: http
                      port: %3$d
                      bindHost: 127.0.0.1
                  adminConnectors:
                    - type: http
                      port: %4$d
                      bindHost: 127.0.0.1
                  requestLog:
                    appenders: []

                logging:
                  level: INFO
                  loggers:
                    org.eclipse.jetty: WARN
                    liquibase: WARN
                  appenders:
                    - type: console
                      threshold: WARN
                    - type: file
                      currentLogFilename: "%5$s"
                      archive: false

                database:
                  maxConnections: %6$d
                %8$s
                ledger:
                  type: sim
                  settings:
                    seed: "1"
                %9$s
                api:
                  selfSignedCertificate: true
                  rateLimit:
                    perSecond: 50
                    burst: 200
                %7$s%10$s
                demo: false

                # Reconciliation compares the books with the ledger; pgbench's payments move money in the
                # books only, so it would report them as drift. It is not part of the payment path: off
                # for the run (once a day).
                clockwork:
                  tick: 2s
                  recoveryGrace: 30s
                  reconcileEvery: 24h
                """, data, https, http, admin, log, pool, orgLimit, database, sharedJournal, signingKey),
                StandardCharsets.UTF_8);
    }

    /** Runs an operator command of the binary with this configuration; answers what it printed. */
    private String command(String name, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(COMMAND_JVM);
        command.addAll(List.of("-jar", jar.toString(), name, config.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(temp.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(COMMAND_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(name + " did not finish within " + COMMAND_LIMIT.toSeconds() + " s");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(name + " failed (exit " + p.exitValue() + "): " + output.trim());
        }
        return output;
    }

    private void start() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(jvmOptions);
        command.add("-Xlog:gc:file=" + gcLog + ":time");
        command.addAll(List.of("-jar", jar.toString(), "server", config.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(temp.toFile()).redirectErrorStream(true)
                .redirectOutput(console.toFile());
        builder.environment().putAll(environment);
        process = builder.start();
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        try (HttpConnection probe = api(new AtomicInteger())) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the server exited with " + process.exitValue() + ": "
                            + tail(console) + "\nsee " + log);
                }
                try {
                    int status = probe.send("GET", "/v1/wallets?limit=1", null).status();
                    if (status == 200) {
                        return;
                    }
                    throw new IllegalStateException("the server answers GET /v1/wallets with " + status + "; see " + log);
                } catch (IOException notListeningYet) {
                    probe.close();
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the server did not answer within " + START_LIMIT.toSeconds()
                            + " s; see " + log);
                }
                Thread.sleep(250);
            }
        }
    }

    /** A new connection to the API over HTTPS, with the admin key; {@code opened} counts its connections. */
    HttpConnection api(AtomicInteger opened) {
        return HttpConnection.https("127.0.0.1", https, "Bearer " + adminKey, opened);
    }

    /** A new connection to the API over HTTPS with an agent's session token; {@code opened} counts its connections. */
    HttpConnection agent(String sessionToken, AtomicInteger opened) {
        return HttpConnection.https("127.0.0.1", https, "Bearer " + sessionToken, opened);
    }

    /** A new connection to the admin port (plain HTTP, 127.0.0.1), where the metrics are. */
    HttpConnection admin(AtomicInteger opened) {
        return HttpConnection.http("127.0.0.1", admin, opened);
    }

    String orgId() {
        return orgId;
    }

    long pid() {
        return process.pid();
    }

    List<String> jvmOptions() {
        return jvmOptions;
    }

    int pool() {
        return pool;
    }

    Path log() {
        return log;
    }

    /** The server's GC log: one line per pause, stamped with the wall-clock time it ended. */
    Path gcLog() {
        return gcLog;
    }

    /**
     * The server log's warnings and errors: how many, and each kind (level, logger and the start of
     * the message, without its time) with its count; the log is deleted with the run's directory.
     */
    String logSummary() {
        Map<String, Integer> kinds = new LinkedHashMap<>();
        long[] counts = new long[3];
        try (BufferedReader lines = Files.newBufferedReader(log)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                counts[0]++;
                boolean warn = line.startsWith("WARN");
                if (warn || line.startsWith("ERROR")) {
                    counts[warn ? 1 : 2]++;
                    String kind = LOG_TIME.matcher(line).replaceFirst("");
                    if (kind.endsWith(": ")) {
                        kind += bannerText(lines, counts);
                    }
                    kinds.merge(kind.substring(0, Math.min(kind.length(), 200)), 1, Integer::sum);
                }
            }
        } catch (IOException e) {
            return "server log unreadable: " + e.getMessage();
        }
        StringBuilder summary = new StringBuilder(String.format(Locale.ROOT, "server log: %d lines, %d WARN, %d ERROR",
                counts[0], counts[1], counts[2]));
        kinds.forEach((kind, n) -> summary.append(String.format(Locale.ROOT, "%n  %dx %s", n, kind)));
        return summary.toString();
    }

    /** A banner's message: the first of the next lines with more than its frame of '!'. */
    private static String bannerText(BufferedReader lines, long[] counts) throws IOException {
        for (int i = 0; i < 5; i++) {
            String line = lines.readLine();
            if (line == null) {
                break;
            }
            counts[0]++;
            String text = line.replace('!', ' ').trim();
            if (!text.isEmpty()) {
                return text;
            }
        }
        return "";
    }

    /** The embedded PostgreSQL's cluster directory. */
    Path postgresData() {
        return data.resolve("postgres");
    }

    /** The embedded PostgreSQL's port: line 4 of its {@code postmaster.pid}. */
    int postgresPort() throws IOException {
        return Integer.parseInt(Files.readAllLines(postgresData().resolve("postmaster.pid")).get(3).trim());
    }

    /** The service's own database, for the benchmark's setup SQL and pgbench. */
    Jdbi jdbi() throws IOException {
        return Jdbi.create(postgresUrl(), EmbeddedDatabase.USER, EmbeddedDatabase.password(postgresData()));
    }

    /** The JDBC URL of the service's database on the embedded PostgreSQL. */
    private String postgresUrl() throws IOException {
        return "jdbc:postgresql://localhost:" + postgresPort() + "/" + PersistenceSettings.EMBEDDED_DATABASE;
    }

    /** The server's resident memory now, in bytes (VmRSS of /proc/[pid]/status); -1 when unknown. */
    long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone: unknown
        }
        return -1;
    }

    /**
     * Kills the server and stops the PostgreSQL it leaves. Not with SIGTERM: the embedded PostgreSQL
     * stops at once on it while the server's workers still wait (up to the pool's 30 s) for their
     * connections; so the JVM is killed and its PostgreSQL then shut down as its next start would.
     */
    @Override
    public void close() {
        if (process != null && databaseUrl == null) {
            System.out.println("stopping the server: its JVM killed, then its PostgreSQL shut down (the warning that "
                    + "follows says so)");
        } else if (process != null) {
            System.out.println("stopping the second server: its JVM killed");
        }
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs (or ran) anyway
        }
    }

    private void stop() {
        try {
            if (process != null) {
                process.destroyForcibly();
                process.waitFor(1, TimeUnit.MINUTES);
            }
            EmbeddedDatabase.stopOrphanedServer(postgresData());
        } catch (IOException e) {
            throw new UncheckedIOException("the server's PostgreSQL did not stop", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
