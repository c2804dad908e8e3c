package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The real server, started once per test JVM as a child process from the bootstrap jar (system property
 * {@code agentwallet.server.jar}) with the embedded configuration, a fresh data directory, free ports and
 * the demo organisations, and stopped when the JVM exits.
 */
final class TestServer {
    private static final String KEY_STORE_PASSWORD = "client-test";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);
    private static TestServer instance;

    private final Path data;
    private final Process process;
    private final int httpsPort;
    private final SSLContext trust;
    private final JsonNode organisation;

    private TestServer(Path data, Process process, int httpsPort, SSLContext trust, JsonNode organisation) {
        this.data = data;
        this.process = process;
        this.httpsPort = httpsPort;
        this.trust = trust;
        this.organisation = organisation;
    }

    static synchronized TestServer get() {
        if (instance == null) {
            try {
                instance = start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(instance::stop));
        }
        return instance;
    }

    String baseUrl() {
        return "https://localhost:" + httpsPort + "/v1";
    }

    int httpsPort() {
        return httpsPort;
    }

    /** Trusts the server's self-signed certificate, as a user of the embedded demo would. */
    SSLContext trust() {
        return trust;
    }

    /** The same trust, with the TLS versions of {@code protocol} at most. */
    SSLContext trust(String protocol) {
        return trustContext(data, protocol);
    }

    /** A key store holding the server's certificate and key, for a local HTTPS webhook receiver. */
    SSLContext serverTls() {
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(keyStore(), KEY_STORE_PASSWORD.toCharArray());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    String key(String role) {
        return organisation.path("keys").path(role).asText();
    }

    String coSignerSecretKey() {
        return organisation.path("co_signer_secret_key").asText();
    }

    AgentWallet client(String role) {
        return AgentWallet.builder().baseUrl(baseUrl()).apiKey(key(role)).sslContext(trust).build();
    }

    AgentWallet agent(String sessionToken) {
        return AgentWallet.builder().baseUrl(baseUrl()).sessionToken(sessionToken).sslContext(trust).build();
    }

    private static TestServer start() throws IOException {
        Path jar = Path.of(System.getProperty("agentwallet.server.jar", "../../bootstrap/target/agent-wallet.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no server jar at " + jar.toAbsolutePath()
                    + ": build it (mvn -pl bootstrap -am package) or set -Dagentwallet.server.jar");
        }
        Path data = Files.createTempDirectory("agent-wallet-client-test");
        int[] ports = freePorts(3);
        Path config = Path.of(System.getProperty("agentwallet.server.config", "../../config/embedded.yml"));
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(overrides(data, ports));
        command.addAll(List.of("-jar", jar.toAbsolutePath().toString(), "server", config.toAbsolutePath().toString()));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(data.resolve("server.log").toFile()).start();
        Path credentials = data.resolve("demo-credentials.json");
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (!Files.exists(credentials) || !Files.exists(data.resolve("tls/localhost.p12"))) {
            awaitAlive(process, data, deadline);
        }
        SSLContext trust = trustContext(data, "TLS");
        JsonNode organisation = new ObjectMapper().readTree(credentials.toFile()).path("organisations").get(0);
        HttpClient http = HttpClient.newBuilder().sslContext(trust).build();
        HttpRequest probe = HttpRequest.newBuilder(URI.create("https://localhost:" + ports[0] + "/v1/wallets?limit=1"))
                .header("Authorization", "Bearer " + organisation.path("keys").path("viewer").asText()).build();
        while (true) {
            try {
                if (http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    break;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            awaitAlive(process, data, deadline);
        }
        return new TestServer(data, process, ports[0], trust, organisation);
    }

    private static void awaitAlive(Process process, Path data, Instant deadline) throws IOException {
        if (!process.isAlive() || Instant.now().isAfter(deadline)) {
            process.destroyForcibly();
            throw new IllegalStateException("the server did not start; its log:\n"
                    + Files.readString(data.resolve("server.log")));
        }
        try {
            Thread.sleep(250);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * config/embedded.yml as shipped (path in {@code agentwallet.server.config}), with Dropwizard's
     * {@code dw.} overrides for this run's folder, ports and key store password, and a rate limit the
     * benchmark never meets.
     */
    private static List<String> overrides(Path data, int[] ports) {
        String https = "-Ddw.server.applicationConnectors[0].";
        return List.of("-Ddw.dataDirectory=" + data.toAbsolutePath(),
                https + "port=" + ports[0],
                https + "keyStorePath=" + data.resolve("tls/localhost.p12").toAbsolutePath(),
                https + "keyStorePassword=" + KEY_STORE_PASSWORD,
                "-Ddw.server.applicationConnectors[1].port=" + ports[1],
                "-Ddw.server.adminConnectors[0].port=" + ports[2],
                "-Ddw.api.rateLimit.perSecond=100000",
                "-Ddw.api.rateLimit.burst=100000",
                "-Ddw.logging.level=WARN");
    }

    private static SSLContext trustContext(Path data, String protocol) {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(keyStore(data));
            SSLContext context = SSLContext.getInstance(protocol);
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private KeyStore keyStore() throws GeneralSecurityException, IOException {
        return keyStore(data);
    }

    private static KeyStore keyStore(Path data) throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(data.resolve("tls/localhost.p12"))) {
            store.load(in, KEY_STORE_PASSWORD.toCharArray());
        }
        return store;
    }

    private static int[] freePorts(int count) throws IOException {
        int[] ports = new int[count];
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0);
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
        return ports;
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Stops the server and removes its folder; the JVM's exit does it too, so calling it is optional. */
    synchronized void stop() {
        if (!Files.exists(data)) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(Duration.ofSeconds(60).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(data)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("left " + data + ": " + e);
        }
    }
}
