package com.agentwallet.core.common;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PageRequestTest {

    @ParameterizedTest(name = "limit {0}")
    @ValueSource(ints = {1, 2, 20, 99, 100})
    void acceptsLimitsFromOneToAHundred(int limit) {
        PageRequest request = new PageRequest(limit, Optional.of("cursor"));
        assertThat(request.limit()).isEqualTo(limit);
        assertThat(request.cursor()).contains("cursor");
    }

    @ParameterizedTest(name = "limit {0}")
    @ValueSource(ints = {Integer.MIN_VALUE, -1, 0, 101, 1000, Integer.MAX_VALUE})
    void refusesOtherLimitsNamingTheLimitParam(int limit) {
        assertThatThrownBy(() -> PageRequest.first(limit))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.param()).isEqualTo("limit"));
    }

    @Test
    void theFirstPageHasNoCursorAndTheDefaultLimitIsTwenty() {
        assertThat(PageRequest.first(5)).isEqualTo(new PageRequest(5, Optional.empty()));
        assertThat(PageRequest.firstDefault()).isEqualTo(new PageRequest(20, Optional.empty()));
    }

    @Test
    void aNullCursorIsAProgrammingError() {
        assertThatThrownBy(() -> new PageRequest(10, null)).isInstanceOf(NullPointerException.class);
    }
}
