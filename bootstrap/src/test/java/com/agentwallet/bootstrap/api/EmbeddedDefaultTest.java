package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.persistence.EmbeddedDatabase;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded default as an operator meets it: what it writes of secrets is readable by its owner
 * only; SIGTERM stops it (requests, then the workers, then the database) with nothing in its log;
 * with its database down a request is answered 503 {@code service_unavailable} after the configured
 * wait for a connection (the time is printed, not asserted).
 */
class EmbeddedDefaultTest {
    private static final String OWNER_ONLY_FILE = "rw-------";
    private static final String OWNER_ONLY_DIRECTORY = "rwx------";

    @Test
    void itsSecretsAreOwnerOnlyAndSigtermStopsItWithNoWarningOrErrorLogged() throws Exception {
        Path data = ApiServer.newDataDirectory();
        try (ServerProcess server = ServerProcess.start(data)) {
            assertThat(server.client().get("/wallets", server.org().viewerKey()).status()).isEqualTo(200);
            assertThat(mode(data)).isEqualTo(OWNER_ONLY_DIRECTORY);
            assertThat(mode(data.resolve("tls"))).isEqualTo(OWNER_ONLY_DIRECTORY);
            assertThat(mode(data.resolve("postgres"))).isEqualTo(OWNER_ONLY_DIRECTORY);
            for (Path secret : List.of(data.resolve("demo-credentials.json"), data.resolve("session-signing.key"),
                    data.resolve("tls/localhost.p12"), EmbeddedDatabase.passwordFile(data.resolve("postgres")))) {
                assertThat(mode(secret)).as("%s", secret).isEqualTo(OWNER_ONLY_FILE);
            }

            server.terminate();
        }
        assertThat(data.resolve("postgres/postmaster.pid")).as("the embedded PostgreSQL stopped with the server")
                .doesNotExist();
        for (Path log : List.of(data.resolve(ApiServer.LOG_FILE), data.resolve("server-process.log"))) {
            try (Stream<String> lines = Files.lines(log)) {
                assertThat(lines.filter(line -> line.startsWith("WARN") || line.startsWith("ERROR")))
                        .as("warnings and errors in %s", log).isEmpty();
            }
        }
    }

    @Test
    void withItsDatabaseDownARequestIsAnswered503AfterTheConfiguredWaitForAConnection()
            throws Exception {
        ApiServer server = ApiServer.start(ConfigOverride.config("database.connectionTimeout", "2s"));
        try {
            assertThat(server.configuration().getDatabase().connectionTimeout()).isEqualTo(Duration.ofSeconds(2));
            DemoOrg org = server.org();
            assertThat(server.client().get("/wallets", org.viewerKey()).status()).isEqualTo(200);
            Path cluster = server.dataDirectory().resolve("postgres");
            List<String> postmaster = Files.readAllLines(cluster.resolve("postmaster.pid"));
            ProcessHandle running = ProcessHandle.of(Long.parseLong(postmaster.get(0).strip())).orElseThrow();

            // A fast shutdown (SIGINT): every session is ended at once, as when the database goes away.
            Process interrupt = new ProcessBuilder("kill", "-INT", Long.toString(running.pid())).start();
            assertThat(interrupt.waitFor()).isZero();
            running.onExit().get(1, TimeUnit.MINUTES);

            long started = System.nanoTime();
            ApiResponse down = server.client().get("/wallets", org.viewerKey());
            long elapsed = Duration.ofNanos(System.nanoTime() - started).toMillis();
            System.out.printf("with the database down: %d %s after %d ms (connection timeout 2000 ms)%n",
                    down.status(), down.errorCode(), elapsed);
            assertError(down, 503, "service_unavailable");
            assertThat(down.raw()).doesNotContain("SQLState").doesNotContain("at com.");

        } finally {
            server.stop();
        }
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
