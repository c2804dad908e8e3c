package com.agentwallet.bootstrap.api;

import com.agentwallet.bootstrap.CommandRun;
import com.agentwallet.core.testing.TempFolders;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A running server keeps live API keys in memory; a key revoked or rotated by the operator commands,
 * in another process on the same database, stops working on the server without a restart: the
 * server hears the change from PostgreSQL within moments. On the shared server, with keys of the
 * test's own.
 */
class ApiKeyRevocationTest {
    /** A change is heard within milliseconds; the bound only keeps a broken feed from hanging the test. */
    private static final Duration HEARD_WITHIN = Duration.ofSeconds(20);

    private static ApiServer server;
    private static Path commandConfig;

    @BeforeAll
    static void operatorConfiguration() throws IOException {
        server = ApiServer.shared();
        Path operator = TempFolders.make("agent-wallet-operator");
        commandConfig = operator.resolve("operator.yml");
        Files.writeString(commandConfig, "dataDirectory: " + operator.resolve("data") + "\n"
                + "database:\n  url: " + BooksAndChain.databaseUrl(server.dataDirectory()) + "\n  maxConnections: 2\n"
                + "  password: '" + BooksAndChain.databasePassword(server.dataDirectory()) + "'\n"
                + "ledger:\n  type: sim\n"
                + "logging:\n  level: WARN\n");
    }

    @Test
    void aKeyRevokedByTheOperatorCommandIsRefusedByTheRunningServer() {
        String[] created = command("create-key", "--org", server.org().id(), "--role", "viewer");
        String keyId = created[0];
        String secret = created[2];
        assertThat(status(secret)).isEqualTo(200);
        assertThat(status(secret)).isEqualTo(200);

        command("revoke-key", "--org", server.org().id(), "--key", keyId);

        awaitStatus(secret, 401);
    }

    @Test
    void aKeyRotatedByTheOperatorCommandIsRefusedAndItsSuccessorAccepted() {
        String[] created = command("create-key", "--org", server.org().id(), "--role", "viewer");
        assertThat(status(created[2])).isEqualTo(200);

        String[] rotated = command("rotate-key", "--org", server.org().id(), "--key", created[0]);

        awaitStatus(created[2], 401);
        assertThat(status(rotated[2])).isEqualTo(200);
    }

    private static String[] command(String name, String... options) {
        String[] arguments = new String[options.length + 2];
        arguments[0] = name;
        arguments[1] = commandConfig.toString();
        System.arraycopy(options, 0, arguments, 2, options.length);
        CommandRun ran = CommandRun.run(arguments);
        assertThat(ran.failure()).as(ran.err()).isEmpty();
        return ran.out().trim().split(" ");
    }

    private static int status(String secret) {
        return server.client().call("GET", "/wallets").key(secret).send().status();
    }

    private static void awaitStatus(String secret, int expected) {
        Eventually.await(HEARD_WITHIN, () -> "the server answered " + expected + " to the key",
                () -> Optional.of(status(secret)).filter(status -> status == expected));
    }
}
