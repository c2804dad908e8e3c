package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.persistence.EmbeddedDatabase;
import com.agentwallet.bootstrap.AgentWalletApplication;
import io.dropwizard.testing.ResourceHelpers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The server in a JVM of its own, started from the tests' classpath with the end-to-end tests'
 * configuration, that a test can kill the way a crash or {@code kill -9} does: no shutdown hook
 * runs, so its embedded PostgreSQL is left running and nothing in flight is finished.
 */
final class ServerProcess implements AutoCloseable {
    private static final Duration START_LIMIT = Duration.ofMinutes(3);
    /** How long a process may take to exit, killed or asked to stop. */
    private static final Duration STOP_LIMIT = Duration.ofMinutes(1);

    private final Process process;
    private final Path data;
    private final Map<String, String> settings;
    private final int https;
    private final int http;
    private final Path log;
    private final ApiClient client;
    private final DemoOrg org;

    private ServerProcess(Process process, Path data, Map<String, String> settings, int https, int http, Path log,
                          ApiClient client, DemoOrg org) {
        this.process = process;
        this.data = data;
        this.settings = settings;
        this.https = https;
        this.http = http;
        this.log = log;
        this.client = client;
        this.org = org;
    }

    /** Starts the server on {@code data}, on free ports, and waits until it answers over HTTPS. */
    static ServerProcess start(Path data) {
        return start(data, Map.of());
    }

    /**
     * Starts the server on {@code data} with {@code settings} over the tests' configuration (each a
     * Dropwizard override: {@code "database.url"} to a value), on free ports.
     */
    static ServerProcess start(Path data, Map<String, String> settings) {
        return start(data, settings, freePort(), freePort());
    }

    /**
     * Starts the server again on the same data directory and ports, once this process is gone: its
     * clients reach the new one at the address they know.
     */
    ServerProcess startAgain() {
        if (process.isAlive()) {
            throw new IllegalStateException("the server process still runs; see " + log);
        }
        return start(data, settings, https, http);
    }

    private static ServerProcess start(Path data, Map<String, String> settings, int https, int http) {
        Path log = data.resolve("server-process.log");
        Process process;
        try {
            Files.createDirectories(data);
            List<String> command = jvm(data);
            command.addAll(List.of("-Ddw.server.applicationConnectors[0].port=" + https,
                    "-Ddw.server.applicationConnectors[1].port=" + http,
                    // The shortest delivery lease: a killed server's deliveries in flight are sent
                    // again by the next one within seconds, not a minute, while the audit waits.
                    "-Ddw.webhooks.deliveryLease=10s"));
            settings.forEach((name, value) -> command.add("-Ddw." + name + "=" + value));
            command.addAll(List.of(AgentWalletApplication.class.getName(), "server",
                    ResourceHelpers.resourceFilePath("api-test.yml")));
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("the server process did not start", e);
        }
        try {
            return awaitAnswering(process, data, settings, https, http, log);
        } catch (RuntimeException | AssertionError failed) {
            // A server that never came up must not outlive the test, nor leave its PostgreSQL running.
            try {
                stop(process, data);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw failed;
        }
    }

    /** The java command, up to its main class, of the server binary on {@code data} with the tests' configuration. */
    private static List<String> jvm(Path data) {
        return new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // C1 only and the serial collector: half the start-up time on a small shared machine,
                // for tests that start the server again after every kill.
                "-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"),
                "-Ddw.dataDirectory=" + data,
                "-Ddw.server.applicationConnectors[0].keyStorePath=" + data.resolve("tls/localhost.p12"),
                "-Ddw.logging.appenders[1].currentLogFilename=" + data.resolve(ApiServer.LOG_FILE),
                "-Ddw.server.requestLog.appenders[0].currentLogFilename=" + data.resolve(ApiServer.REQUEST_LOG_FILE)));
    }

    /** What an operator command printed (its output and errors, in order), and its exit code. */
    record CommandOutput(int exitCode, String output) {
    }

    /**
     * Runs the operator command {@code name} of the server binary on {@code data} with the tests'
     * configuration, in a JVM of its own, as an operator runs {@code ./run reconcile config.yml}.
     */
    static CommandOutput command(Path data, String name) throws InterruptedException {
        List<String> command = jvm(data);
        command.addAll(List.of(AgentWalletApplication.class.getName(), name, ResourceHelpers.resourceFilePath("api-test.yml")));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new CommandOutput(process.waitFor(), output);
        } catch (IOException e) {
            throw new UncheckedIOException("the command " + name + " did not run", e);
        }
    }

    private static ServerProcess awaitAnswering(Process process, Path data, Map<String, String> settings, int https,
                                                int http, Path log) {
        Path credentials = data.resolve("demo-credentials.json");
        DemoOrg org = Eventually.await(START_LIMIT, () -> "the server process did not come up; see " + log, () -> {
            if (!process.isAlive()) {
                throw exited(process, log);
            }
            return Files.exists(credentials) ? Optional.of(ApiServer.readOrgs(credentials).get(0)) : Optional.empty();
        });
        ApiClient client = new ApiClient("https://localhost:" + https + "/v1", "http://localhost:" + http + "/v1",
                ApiServer.trusting(data.resolve("tls/localhost.p12")));
        ServerProcess server = new ServerProcess(process, data, settings, https, http, log, client, org);
        Eventually.await(START_LIMIT, () -> "the server process does not answer over HTTPS; see " + log,
                server::answers);
        return server;
    }

    ApiClient client() {
        return client;
    }

    DemoOrg org() {
        return org;
    }

    /** Kills the process at once (SIGKILL) and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(STOP_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            throw new IllegalStateException("the server process survived SIGKILL; see " + log);
        }
    }

    /**
     * Asks the process to stop, with SIGTERM as a service manager does, and waits until it has exited;
     * it stops its workers, then its embedded PostgreSQL.
     */
    void terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            throw new IllegalStateException("the server process did not stop on SIGTERM; see " + log);
        }
    }

    /** The server's own log ({@link ApiServer#LOG_FILE}), kept across its restarts. */
    Path serverLog() {
        return data.resolve(ApiServer.LOG_FILE);
    }

    /**
     * Stops the process and its embedded PostgreSQL, leaving nothing running: the process is killed,
     * as in the test, then the PostgreSQL it left is asked to shut down (SIGTERM, a smart shutdown: its
     * clients died with the JVM), as the next start would.
     */
    void stop() throws InterruptedException {
        stop(process, data);
    }

    private static void stop(Process process, Path data) throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(STOP_LIMIT.toSeconds(), TimeUnit.SECONDS);
        try {
            EmbeddedDatabase.stopOrphanedServer(data.resolve("postgres"));
        } catch (IOException e) {
            throw new UncheckedIOException("the PostgreSQL of the server on " + data + " did not stop", e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }

    private Optional<Boolean> answers() {
        if (!process.isAlive()) {
            throw exited(process, log);
        }
        try {
            return Optional.of(client.get("/wallets", org.viewerKey()).status() == 200).filter(ok -> ok);
        } catch (IllegalStateException notListeningYet) {
            return Optional.empty();
        }
    }

    /**
     * The failure of a process that exited, with the end of its log: the log is removed with the tests'
     * data directories when their JVM exits, before anyone reads it.
     */
    private static IllegalStateException exited(Process process, Path log) {
        String end;
        try {
            List<String> lines = Files.readAllLines(log);
            end = String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            end = "(unreadable: " + e.getMessage() + ")";
        }
        return new IllegalStateException("the server process exited with " + process.exitValue() + "; the end of "
                + log + ":\n" + end);
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
