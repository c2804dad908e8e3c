package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.persistence.EmbeddedDatabase;
import com.agentwallet.core.testing.TempFolders;
import com.fasterxml.jackson.databind.JsonNode;
import io.zonky.test.db.postgres.util.LinuxUtils;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.agentwallet.bootstrap.api.ApiFixtures.body;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A backup of the embedded default restored on a fresh data directory, by the procedure of
 * docs/OPERATIONS.md ("Backups and restore"): {@code pg_dump -Fc} of the running server's database,
 * a fresh cluster made by {@code migrate}, {@code pg_restore --clean --create} into it, the rest of
 * the data directory copied (the simulator's chain, the secrets, the exports). The restored server
 * answers the same wallets, transactions, escrow and policies, goes on (the held payment is
 * co-signed), and {@code reconcile} finds no drift.
 *
 * <p>PostgreSQL 17's client tools are found or built by {@code tools/postgres-client}; without them
 * the test fails, naming it.
 */
class BackupRestoreTest {
    private static final String DATABASE = "agent_wallet";
    /** What reconcile prints last: "12 accounts checked, 0 skipped while money was in flight, 0 drifted, 0 stuck". */
    private static final Pattern RECONCILED = Pattern.compile(
            "(\\d+) accounts checked, (\\d+) skipped while money was in flight, (\\d+) drifted, (\\d+) stuck");

    @Test
    void aDumpRestoredOnAFreshDataDirectoryServesTheSameBooksAndReconcilesWithTheChain() throws Exception {
        Path tools = clientTools();
        Path original = ApiServer.newDataDirectory();
        Path backup = TempFolders.make("agent-wallet-backup").resolve("agent_wallet.dump");
        Books before;
        String heldPayment;
        String export;
        String exported;
        ServerProcess server = ServerProcess.start(original);
        try {
            ApiFixtures fx = new ApiFixtures(server.client(), server.org());
            ApiFixtures.Wallet agent = fx.fundedWallet("500.00");
            ApiFixtures.Wallet peer = fx.fundedWallet("20.00");
            fx.confirmedPayment(agent, randomAddress(), "12.50");
            fx.confirmedPayment(agent, randomAddress(), "7.25");
            fx.confirmedPayment(peer, randomAddress(), "1.00");
            String escrow = fx.lockedEscrow(agent, "40.00");
            ApiFixtures.Wallet coSigned = fx.fundedWallet("300.00",
                    body("require_co_sign", "100.00", "co_signer", fx.coSignerPublicKey()));
            JsonNode held = fx.pendingCoSign(coSigned, "150.00");
            heldPayment = held.path("tx_id").asText();
            for (ApiFixtures.Wallet wallet : List.of(agent, peer, coSigned)) {
                fx.awaitSettled(wallet.id());
            }
            export = fx.export();
            exported = awaitExport(fx, export);
            before = Books.of(fx, List.of(agent.id(), peer.id(), coSigned.id()), escrow);

            // Online, as an operator backs up a running service: pg_dump reads one consistent snapshot.
            List<String> postmaster = Files.readAllLines(original.resolve("postgres/postmaster.pid"));
            String port = postmaster.get(3).strip();
            String password = EmbeddedDatabase.password(original.resolve("postgres"));
            runTool(tools, password, "pg_dump", "--host=localhost", "--port=" + port, "--username=postgres",
                    "--format=custom", "--file=" + backup, DATABASE);
            server.terminate();
        } finally {
            server.stop();
        }

        Path restored = TempFolders.make("agent-wallet-restored");
        ServerProcess.CommandOutput migrated = ServerProcess.command(restored, "migrate");
        assertThat(migrated.exitCode()).as(migrated.output()).isZero();
        restoreInto(restored, backup, tools);
        // Everything of the data directory the database does not hold, but server-id: the restored
        // server is a new one (the original could still be running somewhere).
        copy(original, restored, "ledger-sim/journal.jsonl", "session-signing.key", "demo-credentials.json",
                "tls/localhost.p12", "exports");

        ServerProcess again = ServerProcess.start(restored);
        try {
            ApiFixtures fx = new ApiFixtures(again.client(), again.org());
            Books after = Books.of(fx, before.walletIds(), before.escrowId());
            assertThat(after).isEqualTo(before);
            ApiResponse download = again.client().get("/transactions/exports/" + export + "/download",
                    again.org().viewerKey());
            assertThat(download.status()).as(download.toString()).isEqualTo(200);
            assertThat(download.raw()).isEqualTo(exported);

            // The restored books go on where the original stopped: the hold is co-signed and settles.
            String payload = again.client().get("/payments/" + heldPayment, again.org().viewerKey())
                    .text("co_sign_payload");
            ApiResponse signed = again.client().post("/payments/" + heldPayment + "/co-sign",
                    again.org().operatorKey(), body("signature", fx.coSign(payload)));
            assertThat(signed.status()).as(signed.toString()).isEqualTo(200);
            assertThat(signed.text("status")).as(signed.toString()).isEqualTo("confirmed");
            again.terminate();
        } finally {
            again.stop();
        }

        ServerProcess.CommandOutput reconciled = ServerProcess.command(restored, "reconcile");
        System.out.println("reconcile on the restored data directory: " + reconciled.output().strip());
        Matcher line = RECONCILED.matcher(reconciled.output());
        assertThat(line.find()).as("reconcile's summary in: %s", reconciled.output()).isTrue();
        assertThat(Integer.parseInt(line.group(1))).as("accounts checked").isPositive();
        assertThat(line.group(3)).as("accounts drifted: %s", reconciled.output()).isEqualTo("0");
        assertThat(line.group(4)).as("transactions stuck: %s", reconciled.output()).isEqualTo("0");
        assertThat(reconciled.output()).doesNotContain("DRIFT");
        assertThat(reconciled.exitCode()).as(reconciled.output()).isZero();
    }

    /**
     * What the API answers of the books: every wallet, transaction and policy of the organisation,
     * the workload's wallets' histories, and its escrow.
     */
    private record Books(List<String> walletIds, String escrowId, List<JsonNode> wallets, List<JsonNode> transactions,
                         List<JsonNode> policies, List<List<JsonNode>> histories, JsonNode escrow) {

        static Books of(ApiFixtures fx, List<String> walletIds, String escrowId) {
            ApiResponse escrow = fx.client().get("/payments/a2a/" + escrowId, fx.org().viewerKey());
            assertThat(escrow.status()).as(escrow.toString()).isEqualTo(200);
            return new Books(walletIds, escrowId, fx.all("/wallets"), fx.all("/transactions"), fx.all("/policies"),
                    walletIds.stream().map(id -> fx.transactions(id, "")).toList(), escrow.json());
        }
    }

    /** Waits for the export's file and answers it. */
    private static String awaitExport(ApiFixtures fx, String export) {
        return Eventually.await(Duration.ofMinutes(1), () -> "export " + export + " is not ready", () -> {
            ApiResponse file = fx.client().get("/transactions/exports/" + export + "/download", fx.org().viewerKey());
            return file.status() == 200 ? Optional.of(file.raw()) : Optional.empty();
        });
    }

    /**
     * The restore of docs/OPERATIONS.md: the fresh cluster (made by {@code migrate}) started on its
     * own with the embedded binaries' pg_ctl, the migrated database replaced by the dump's, stopped.
     */
    private static void restoreInto(Path data, Path backup, Path tools) throws IOException, InterruptedException {
        Path cluster = data.resolve("postgres");
        Path pgCtl;
        try (Stream<Path> unpacked = Files.list(data.resolve("postgres-bin"))) {
            pgCtl = unpacked.map(dir -> dir.resolve("bin/pg_ctl")).filter(Files::isExecutable).findFirst()
                    .orElseThrow(() -> new AssertionError("no pg_ctl under " + data.resolve("postgres-bin")));
        }
        String port = Integer.toString(ServerProcess.freePort());
        String password = EmbeddedDatabase.password(cluster);
        runPgCtl(pgCtl, "-D", cluster.toString(), "-o", "-p " + port, "-l", data.resolve("restore-postgres.log").toString(),
                "-w", "start");
        try {
            runTool(tools, password, "pg_restore", "--host=localhost", "--port=" + port, "--username=postgres",
                    "--clean", "--if-exists", "--create", "--exit-on-error", "--dbname=postgres", backup.toString());
        } finally {
            runPgCtl(pgCtl, "-D", cluster.toString(), "-m", "fast", "-w", "stop");
        }
    }

    private static void copy(Path from, Path to, String... entries) throws IOException {
        for (String entry : entries) {
            Path source = from.resolve(entry);
            try (Stream<Path> files = Files.walk(source)) {
                for (Path file : files.toList()) {
                    Path target = to.resolve(from.relativize(file).toString());
                    Files.createDirectories(target.getParent());
                    Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /**
     * The bin directory of PostgreSQL 17's client tools, from {@code tools/postgres-client} with the
     * embedded binaries' version (both given by bootstrap/pom.xml); it builds them once when the
     * machine has none, and the test fails when it cannot.
     */
    private static Path clientTools() throws IOException, InterruptedException {
        String script = System.getProperty("agentwallet.test.postgresClient");
        String version = System.getProperty("agentwallet.test.postgresVersion");
        if (script == null || version == null) {
            fail("agentwallet.test.postgresClient and agentwallet.test.postgresVersion are not set: run the test"
                    + " through Maven (bootstrap/pom.xml sets them)");
        }
        Path errors = Files.createTempFile(TempFolders.make("agent-wallet-pg-client"), "postgres-client", ".log");
        long started = System.nanoTime();
        Process process = new ProcessBuilder(script, version).redirectError(errors.toFile()).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        int exit = process.waitFor();
        if (exit != 0 || out.isEmpty()) {
            fail("PostgreSQL's client tools (pg_dump, pg_restore, psql) for the embedded PostgreSQL " + version
                    + " could not be found or made by " + script + " " + version + " (exit " + exit
                    + "); install postgresql-client-17, set AGENT_WALLET_PG_BIN, or give the script what it asks for:\n"
                    + Files.readString(errors));
        }
        System.out.printf("PostgreSQL client tools in %s (found or made in %d s)%n", out,
                Duration.ofNanos(System.nanoTime() - started).toSeconds());
        return Path.of(out);
    }

    /** Runs the client tool {@code tool} with the cluster's password, and requires it to succeed. */
    private static void runTool(Path tools, String password, String tool, String... arguments)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(tools.resolve(tool).toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(Map.of("PGPASSWORD", password));
        run(builder);
    }

    /**
     * Runs {@code pg_ctl}; as root under {@code unshare -U}, which the embedded server also does:
     * PostgreSQL refuses to run as root.
     */
    private static void runPgCtl(Path pgCtl, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(LinuxUtils.isUnshareAvailable() ? List.of("unshare", "-U") : List.of());
        command.add(pgCtl.toString());
        command.addAll(List.of(arguments));
        run(new ProcessBuilder(command));
    }

    private static void run(ProcessBuilder builder) throws IOException, InterruptedException {
        Process process = builder.redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = process.waitFor();
        assertThat(exit).as("%s answered:%n%s", builder.command(), output).isZero();
    }
}
