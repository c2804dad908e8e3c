package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.persistence.EmbeddedDatabase;
import com.agentwallet.adapters.persistence.PersistenceSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Several server processes ({@link ServerProcess}) of one deployment, as SCALING.md runs them: one
 * PostgreSQL (started here, each process's {@code database.url}), one simulated chain (a journal
 * file they share), one session-token signing key, each process with a data directory of its own
 * (its server id). The first process makes the demo organisations; the others get its credentials
 * file and its certificate, so that one client trusting one certificate reaches them all, and
 * {@link #client()} spreads requests across them as a load balancer does.
 */
final class ServerDeployment implements AutoCloseable {
    private static final int SIGNING_KEY_BYTES = 32;

    private final Path root;
    private final EmbeddedDatabase database;
    private final List<ServerProcess> servers;

    private ServerDeployment(Path root, EmbeddedDatabase database, List<ServerProcess> servers) {
        this.root = root;
        this.database = database;
        this.servers = servers;
    }

    /** Starts {@code count} server processes with {@code settings} over the tests' configuration. */
    static ServerDeployment start(int count, Map<String, String> settings) {
        Path root = ApiServer.newDataDirectory();
        EmbeddedDatabase database = EmbeddedDatabase.start(root.resolve("postgres"), root.resolve("postgres-bin"), 0);
        ServerDeployment deployment = new ServerDeployment(root, database, new ArrayList<>());
        try {
            byte[] signingKey = new byte[SIGNING_KEY_BYTES];
            new SecureRandom().nextBytes(signingKey);
            Map<String, String> shared = new LinkedHashMap<>(settings);
            shared.put("database.url", database.jdbcUrl(PersistenceSettings.EMBEDDED_DATABASE));
            shared.put("database.password", database.password());
            shared.put("ledger.settings.journal", root.resolve("chain.jsonl").toString());
            shared.put("api.sessionTokens.signingKey", Base64.getEncoder().encodeToString(signingKey));
            ServerProcess first = ServerProcess.start(root.resolve("server-1"), shared);
            deployment.servers.add(first);
            for (int i = 2; i <= count; i++) {
                Path data = root.resolve("server-" + i);
                copyTree(root.resolve("server-1").resolve("tls"), data.resolve("tls"));
                // With the credentials file there, the server takes the demo organisations as made.
                Files.copy(root.resolve("server-1").resolve("demo-credentials.json"), data.resolve("demo-credentials.json"));
                deployment.servers.add(ServerProcess.start(data, shared));
            }
            return deployment;
        } catch (IOException | RuntimeException e) {
            deployment.close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /** A client that sends each request to the next server in turn. */
    ApiClient client() {
        return ApiClient.across(servers.stream().map(ServerProcess::client).toList());
    }

    /** The demo organisations the first server made, in its credentials file's order. */
    List<DemoOrg> orgs() {
        return ApiServer.readOrgs(root.resolve("server-1").resolve("demo-credentials.json"));
    }

    int size() {
        return servers.size();
    }

    /** The certificate every server presents. */
    Path keyStore() {
        return root.resolve("server-1").resolve("tls").resolve("localhost.p12");
    }

    BankAudit.Database database() {
        String url = database.jdbcUrl(PersistenceSettings.EMBEDDED_DATABASE);
        return new BankAudit.Database(() -> url, database.password());
    }

    /** Kills server {@code index} with SIGKILL, then starts it again on its data directory and ports. */
    void killAndRestart(int index) throws InterruptedException {
        ServerProcess server = servers.get(index);
        server.kill();
        servers.set(index, server.startAgain());
    }

    /**
     * Stops every server as a service manager does (SIGTERM), one after another; answers each one's
     * log lines written from the moment it was asked to stop.
     */
    List<List<String>> terminate() throws InterruptedException, IOException {
        List<List<String>> logs = new ArrayList<>();
        for (ServerProcess server : servers) {
            long before = Files.size(server.serverLog());
            server.terminate();
            byte[] all = Files.readAllBytes(server.serverLog());
            logs.add(new String(all, Math.toIntExact(before), all.length - Math.toIntExact(before), StandardCharsets.UTF_8)
                    .lines().toList());
        }
        return logs;
    }

    /** Kills what still runs, then stops the PostgreSQL. */
    @Override
    public void close() {
        try {
            for (ServerProcess server : servers) {
                server.close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            database.close();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(from.relativize(file).toString()));
            }
        }
    }
}
