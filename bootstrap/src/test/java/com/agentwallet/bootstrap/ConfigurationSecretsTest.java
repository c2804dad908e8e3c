package com.agentwallet.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No secret is written in a shipped configuration: each is an environment variable's or a secret
 * generated on first start, kept in a file readable by its owner only.
 */
class ConfigurationSecretsTest {
    @TempDir
    Path data;

    @Test
    void aGeneratedSecretIsMadeOnceAtRandomAndKeptOwnerOnly() throws Exception {
        Path file = data.resolve("tls/localhost.p12.password");
        String first = new ConfigurationSecrets().replace("password: ${generated-secret:" + file + "}");
        String again = new ConfigurationSecrets().replace("password: ${generated-secret:" + file + "}");
        String elsewhere = new ConfigurationSecrets().replace("${generated-secret:" + data.resolve("other") + "}");

        assertThat(first).isEqualTo(again).isEqualTo("password: " + Files.readString(file)).hasSizeGreaterThan(40);
        assertThat("password: " + elsewhere).isNotEqualTo(first);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
    }

    @Test
    void anEnvironmentVariableIsSubstitutedAndAnUnsetOneWithoutDefaultIsLeftAsWritten() {
        Map.Entry<String, String> set = System.getenv().entrySet().iterator().next();
        assertThat(new ConfigurationSecrets().replace("a: ${" + set.getKey() + "}")).isEqualTo("a: " + set.getValue());
        assertThat(new ConfigurationSecrets().replace("# password: ${AGENT_WALLET_UNSET_IN_TESTS}"))
                .isEqualTo("# password: ${AGENT_WALLET_UNSET_IN_TESTS}");
        assertThat(new ConfigurationSecrets().replace("a: ${AGENT_WALLET_UNSET_IN_TESTS:-fallback}"))
                .isEqualTo("a: fallback");
    }

    @Test
    void theShippedConfigurationsHoldNoSecret() throws Exception {
        for (String name : List.of("embedded.yml", "localnet.yml")) {
            JsonNode config = new ObjectMapper(new YAMLFactory()).readTree(Path.of("..", "config", name).toFile());
            List<String> secrets = new ArrayList<>();
            collectSecrets(config, secrets);
            assertThat(secrets).as(name).isNotEmpty().allSatisfy(value -> assertThat(value).startsWith("${"));
        }
    }

    /** The values of every field whose name says it holds a secret. */
    private static void collectSecrets(JsonNode node, List<String> secrets) {
        node.fields().forEachRemaining(field -> {
            String name = field.getKey().toLowerCase(Locale.ROOT);
            if (field.getValue().isValueNode() && (name.contains("password") || name.contains("secret")
                    || name.equals("signingkey"))) {
                secrets.add(field.getValue().asText());
            }
            collectSecrets(field.getValue(), secrets);
        });
        node.elements().forEachRemaining(element -> {
            if (!node.isObject()) {
                collectSecrets(element, secrets);
            }
        });
    }
}
