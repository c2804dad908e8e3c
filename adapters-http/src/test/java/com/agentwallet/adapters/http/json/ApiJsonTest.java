package com.agentwallet.adapters.http.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ApiJsonTest {
    private final ObjectMapper json = ApiJson.configure(new ObjectMapper());

    public record Tags(List<String> tags, Integer cap) {
    }

    @Test
    void nullInsideAnArrayIsRefusedNamingTheArray() {
        assertThatThrownBy(() -> json.readValue("{\"tags\":[\"a\",null]}", Tags.class))
                .isInstanceOfSatisfying(MismatchedInputException.class, error ->
                        assertThat(error.getPath().get(0).getFieldName()).isEqualTo("tags"));
    }

    @Test
    void aFractionIsNotAnIntegerEvenWhenItIsWhole() {
        assertThatThrownBy(() -> json.readValue("{\"cap\":3.0}", Tags.class))
                .isInstanceOf(MismatchedInputException.class);
    }
}
