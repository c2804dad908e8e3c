package com.agentwallet.adapters.http.json;

import com.agentwallet.adapters.http.error.ApiException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnakeCaseKeysTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void camelCaseNamesBecomeSnakeCaseAtEveryDepth() throws Exception {
        JsonNode body = json.readTree("[{\"walletId\":\"w\",\"amount\":\"1\",\"autoTopup\":{\"triggerBelow\":\"2\"}}]");

        assertThat(SnakeCaseKeys.normalise(body, "").toString())
                .isEqualTo("[{\"wallet_id\":\"w\",\"amount\":\"1\",\"auto_topup\":{\"trigger_below\":\"2\"}}]");
    }

    @Test
    void snakeCaseNamesAndValuesAreLeftAsTheyAre() {
        assertThat(SnakeCaseKeys.snakeCase("max_per_tx")).isEqualTo("max_per_tx");
        assertThat(SnakeCaseKeys.snakeCase("maxPerTx")).isEqualTo("max_per_tx");
        assertThat(SnakeCaseKeys.snakeCase("ttlSeconds")).isEqualTo("ttl_seconds");
    }

    @Test
    void numbersPassTheRewriteExactlyAsSent() throws Exception {
        SnakeCaseKeys keys = new SnakeCaseKeys(ApiJson.configure(new ObjectMapper()));

        JsonNode body = keys.read("{\"a\":1e400,\"b\":3.0,\"c\":12,\"d\":0.1}".getBytes(StandardCharsets.UTF_8));

        assertThat(json.writeValueAsString(SnakeCaseKeys.normalise(body, "")))
                .isEqualTo("{\"a\":1E+400,\"b\":3.0,\"c\":12,\"d\":0.1}");
    }

    @Test
    void bytesThatAreNotUtf8AreRefusedAsTheBody() {
        SnakeCaseKeys keys = new SnakeCaseKeys(ApiJson.configure(new ObjectMapper()));
        // an overlong '.', a surrogate, a byte that never occurs, a cut sequence
        for (byte[] bad : List.of(new byte[]{(byte) 0xC0, (byte) 0xAE}, new byte[]{(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                new byte[]{(byte) 0xFF}, new byte[]{(byte) 0xE2, (byte) 0x82})) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            body.writeBytes("{\"name\":\"".getBytes(StandardCharsets.US_ASCII));
            body.writeBytes(bad);
            body.writeBytes("\"}".getBytes(StandardCharsets.US_ASCII));

            assertThatThrownBy(() -> keys.read(body.toByteArray())).isInstanceOfSatisfying(ApiException.class,
                    error -> assertThat(error.param()).contains("body"));
        }
    }

    @Test
    void oneFieldInBothSpellingsIsAValidationErrorNamingIt() throws Exception {
        JsonNode body = json.readTree("{\"max_per_tx\":\"1\",\"maxPerTx\":\"2\"}");

        assertThatThrownBy(() -> SnakeCaseKeys.normalise(body, ""))
                .isInstanceOfSatisfying(ApiException.class, error -> {
                    assertThat(error.status()).isEqualTo(400);
                    assertThat(error.param()).contains("max_per_tx");
                });
    }
}
