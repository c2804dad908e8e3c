package com.agentwallet.bootstrap;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dropwizard.jackson.Jackson;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code retiredSigningKeys} as an operator writes it: one key, a list, or an unset environment variable's blank. */
class SessionTokenSettingsTest {
    private static final ObjectMapper YAML = Jackson.newObjectMapper(new YAMLFactory());

    @Test
    void retiredKeysAreOneKeyAListOrNone() throws Exception {
        assertThat(retired("retiredSigningKeys: a2V5LW9uZQ==")).containsExactly("a2V5LW9uZQ==");
        assertThat(retired("retiredSigningKeys: [a2V5LW9uZQ==, a2V5LXR3bw==]")).containsExactly("a2V5LW9uZQ==", "a2V5LXR3bw==");
        assertThat(retired("retiredSigningKeys: ''")).isEmpty();
        assertThat(retired("retiredSigningKeys: ['', a2V5LXR3bw==]")).containsExactly("a2V5LXR3bw==");
        assertThat(retired("issuer: agent-wallet")).isEmpty();
    }

    private static List<String> retired(String yaml) throws Exception {
        return YAML.readValue(yaml, ServiceConfiguration.SessionTokenSettings.class).retiredSigningKeys();
    }
}
