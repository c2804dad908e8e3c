package com.agentwallet.adapters.http.json;

import com.agentwallet.adapters.http.error.ApiException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

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
    void oneFieldInBothSpellingsIsAValidationErrorNamingIt() throws Exception {
        JsonNode body = json.readTree("{\"max_per_tx\":\"1\",\"maxPerTx\":\"2\"}");

        assertThatThrownBy(() -> SnakeCaseKeys.normalise(body, ""))
                .isInstanceOfSatisfying(ApiException.class, error -> {
                    assertThat(error.status()).isEqualTo(400);
                    assertThat(error.param()).contains("max_per_tx");
                });
    }
}
