package com.agentwallet.bootstrap;

import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.user.UserService;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.Guice;
import com.google.inject.Injector;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.jackson.Jackson;
import jakarta.validation.Validation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import static com.agentwallet.bootstrap.CommandRun.run;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator commands through the server binary's own command line, on the embedded PostgreSQL:
 * what an operator types, what they see, and what it did to the books.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorCliTest {
    @TempDir
    static Path data;
    private static Path config;
    private static String orgId;
    private static String keyId;
    private static String secret;

    @BeforeAll
    static void writeConfiguration() throws Exception {
        config = data.resolve("config.yml");
        Files.writeString(config, "dataDirectory: " + data.resolve("data") + "\n"
                + "database:\n  maxConnections: 2\n"
                + "ledger:\n  type: sim\n  settings:\n    seed: \"3\"\n"
                + "logging:\n  level: WARN\n");
    }

    @Test
    @Order(1)
    void migrateBringsTheSchemaUpToDate() {
        CommandRun migrated = run("migrate", config.toString());

        assertThat(migrated.failure()).isEmpty();
        assertThat(migrated.out()).contains("The database schema is up to date");
    }

    @Test
    @Order(2)
    void createOrgPrintsTheNewOrganisationsId() {
        CommandRun created = run("create-org", config.toString(), "--name", "Acme Robotics");

        orgId = created.out().trim();
        assertThat(created.failure()).isEmpty();
        assertThat(orgId).matches("org_[0-9A-Za-z]{24}");
    }

    @Test
    @Order(3)
    void depositAddsToTheOrganisationsBalance() {
        CommandRun deposited = run("deposit", config.toString(), "--org", orgId, "--amount", "1500.25");

        assertThat(deposited.failure()).isEmpty();
        assertThat(deposited.out()).contains("balance 1500.25 USDC");
        Usdc balance = withCore(injector -> injector.getInstance(OrganisationService.class).get(new OrgId(orgId))
                .value().balance());
        assertThat(balance).isEqualTo(Usdc.parse("1500.25"));
    }

    @Test
    @Order(4)
    void createKeyPrintsTheSecretOnceAndItAuthenticatesWithItsRole() {
        CommandRun created = run("create-key", config.toString(), "--org", orgId, "--role", "operator");

        String[] printed = created.out().trim().split(" ");
        keyId = printed[0];
        secret = printed[2];
        assertThat(created.failure()).isEmpty();
        assertThat(printed[1]).isEqualTo("operator");
        assertThat(secret).startsWith("sk_");
        assertThat(authenticates(secret)).isTrue();
    }

    @Test
    @Order(5)
    void rotateKeyReplacesTheSecretAtOnce() {
        CommandRun rotated = run("rotate-key", config.toString(), "--org", orgId, "--key", keyId);

        String[] printed = rotated.out().trim().split(" ");
        assertThat(rotated.failure()).isEmpty();
        assertThat(printed[1]).isEqualTo("operator");
        assertThat(authenticates(secret)).isFalse();
        assertThat(authenticates(printed[2])).isTrue();
        keyId = printed[0];
        secret = printed[2];
    }

    @Test
    @Order(6)
    void revokeKeyStopsItAtOnce() {
        CommandRun revoked = run("revoke-key", config.toString(), "--org", orgId, "--key", keyId);

        assertThat(revoked.failure()).isEmpty();
        assertThat(revoked.out()).contains(keyId + " revoked");
        assertThat(authenticates(secret)).isFalse();
    }

    @Test
    @Order(7)
    void aBadIdOrAnotherOrganisationsKeyIsAOneLineRefusal() {
        CommandRun badOrg = run("create-key", config.toString(), "--org", "acme", "--role", "admin");
        CommandRun foreignKey = run("revoke-key", config.toString(), "--org", "org_" + "Z".repeat(24), "--key", keyId);

        assertThat(badOrg.failure()).isPresent();
        assertThat(badOrg.err()).contains("'acme' is not an organisation id");
        assertThat(foreignKey.failure()).isPresent();
        assertThat(foreignKey.err()).contains("No such");
    }

    @Test
    @Order(8)
    void createUserReadsThePasswordFromStandardInputAndTheUserSignsIn() {
        CommandRun created = withInput("a long enough password\n", () -> run("create-user", config.toString(),
                "--org", orgId, "--email", "Ada@Example.com", "--role", "admin"));

        String[] printed = created.out().trim().split(" ");
        assertThat(created.failure()).isEmpty();
        assertThat(printed[0]).matches("usr_[0-9A-Za-z]{24}");
        assertThat(printed[1]).isEqualTo("admin");
        assertThat(printed[2]).isEqualTo("ada@example.com");
        assertThat(signsIn("ada@example.com", "a long enough password")).isTrue();
    }

    @Test
    @Order(9)
    void resetPasswordReplacesThePasswordFromStandardInput() {
        CommandRun reset = withInput("another long password\n", () -> run("reset-password", config.toString(),
                "--email", "ada@example.com"));

        assertThat(reset.failure()).isEmpty();
        assertThat(reset.out()).contains("ada@example.com password reset");
        assertThat(signsIn("ada@example.com", "a long enough password")).isFalse();
        assertThat(signsIn("ada@example.com", "another long password")).isTrue();
    }

    @Test
    @Order(10)
    void aShortPasswordATakenEmailOrAnUnknownUserIsAOneLineRefusal() {
        CommandRun shortPassword = withInput("short\n", () -> run("create-user", config.toString(), "--org", orgId,
                "--email", "bob@example.com", "--role", "viewer"));
        CommandRun taken = withInput("a long enough password\n", () -> run("create-user", config.toString(),
                "--org", orgId, "--email", "ada@example.com", "--role", "viewer"));
        CommandRun unknown = withInput("a long enough password\n", () -> run("reset-password", config.toString(),
                "--email", "nobody@example.com"));
        CommandRun noPassword = withInput("", () -> run("reset-password", config.toString(),
                "--email", "ada@example.com"));

        assertThat(shortPassword.err()).contains("'password' must be 12 to 256 characters");
        assertThat(taken.err()).contains("already exists");
        assertThat(unknown.err()).contains("No such dashboard user");
        assertThat(noPassword.err()).contains("no password was given on standard input");
        assertThat(List.of(shortPassword, taken, unknown, noPassword)).allSatisfy(
                refused -> assertThat(refused.failure()).isPresent());
    }

    private static CommandRun withInput(String input, Supplier<CommandRun> command) {
        InputStream console = System.in;
        System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
        try {
            return command.get();
        } finally {
            System.setIn(console);
        }
    }

    private static boolean signsIn(String email, String password) {
        return withCore(injector -> injector.getInstance(UserService.class).signIn(email, password).isOk());
    }

    private static boolean authenticates(String secret) {
        return withCore(injector -> injector.getInstance(ApiKeyService.class).authenticate(secret).isPresent());
    }

    private static <T> T withCore(Function<Injector, T> read) {
        try {
            ObjectMapper json = Jackson.newObjectMapper();
            ServiceConfiguration configuration = new YamlConfigurationFactory<>(ServiceConfiguration.class,
                    Validation.buildDefaultValidatorFactory().getValidator(), json, "dw").build(config.toFile());
            Injector injector = Guice.createInjector(new CoreModule(configuration, CoreModule.SYSTEM_CLOCK));
            try (Resources resources = injector.getInstance(Resources.class)) {
                return read.apply(injector);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
