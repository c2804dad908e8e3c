package com.agentwallet.core.id;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TypedIdTest {
    private static final String RANDOM = "0123456789ABCDEFGHIJabcd";

    static Stream<Arguments> idTypes() {
        return Stream.of(
                Arguments.of("org_", (Function<String, TypedId>) OrgId::new),
                Arguments.of("wal_", (Function<String, TypedId>) WalletId::new),
                Arguments.of("pol_", (Function<String, TypedId>) PolicyId::new),
                Arguments.of("tx_", (Function<String, TypedId>) TxId::new),
                Arguments.of("escrow_", (Function<String, TypedId>) EscrowId::new),
                Arguments.of("wh_", (Function<String, TypedId>) WebhookId::new),
                Arguments.of("evt_", (Function<String, TypedId>) EventId::new),
                Arguments.of("exp_", (Function<String, TypedId>) ExportId::new),
                Arguments.of("key_", (Function<String, TypedId>) ApiKeyId::new));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("idTypes")
    void acceptsThePrefixFollowedBy24Base62Characters(String prefix, Function<String, TypedId> constructor) {
        TypedId id = constructor.apply(prefix + RANDOM);
        assertThat(id.value()).isEqualTo(prefix + RANDOM);
        assertThat(id).hasToString(prefix + RANDOM);
        assertThat(constructor.apply(prefix + RANDOM)).isEqualTo(id);
        assertThat(constructor.apply(prefix + "z".repeat(24))).isNotEqualTo(id);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("idTypes")
    void refusesMalformedIds(String prefix, Function<String, TypedId> constructor) {
        List<String> malformed = List.of(
                "",
                prefix,
                RANDOM,                                      // no prefix
                prefix + RANDOM.substring(1),                // 23 characters
                prefix + RANDOM + "e",                       // 25 characters
                prefix + RANDOM.substring(1) + "_",          // not base62
                prefix + RANDOM.substring(1) + "-",
                prefix + RANDOM.substring(1) + "é",
                prefix + RANDOM.substring(1) + " ",
                " " + prefix + RANDOM,
                prefix.toUpperCase() + RANDOM,
                prefix.substring(0, prefix.length() - 1) + RANDOM + "e", // prefix without its underscore
                "xx_" + RANDOM);
        for (String value : malformed) {
            assertThatThrownBy(() -> constructor.apply(value)).as("'%s'", value)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> constructor.apply(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anIdOfOneTypeIsNotWellFormedAsAnother() {
        assertThat(TypedId.isWellFormed("wal_" + RANDOM, WalletId.PREFIX)).isTrue();
        assertThat(TypedId.isWellFormed("wal_" + RANDOM, PolicyId.PREFIX)).isFalse();
        assertThat(TypedId.isWellFormed(null, WalletId.PREFIX)).isFalse();
        assertThatThrownBy(() -> new PolicyId("wal_" + RANDOM)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void base62EndsAtTheEdgesOfItsThreeRanges() {
        String body = RANDOM.substring(1);
        for (char edge : "09AZaz".toCharArray()) {
            assertThat(TypedId.isWellFormed("wal_" + body + edge, WalletId.PREFIX)).as("'%s'", edge).isTrue();
        }
        for (char outside : "/:@[`{".toCharArray()) {
            assertThat(TypedId.isWellFormed("wal_" + body + outside, WalletId.PREFIX)).as("'%s'", outside).isFalse();
        }
    }
}
