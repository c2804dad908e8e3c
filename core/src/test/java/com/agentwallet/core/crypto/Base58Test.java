package com.agentwallet.core.crypto;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class Base58Test {

    @Test
    void encodesTheEmptyInputAsTheEmptyString() {
        assertThat(Base58.encode(new byte[0])).isEmpty();
        assertThat(Base58.decode("")).hasValueSatisfying(bytes -> assertThat(bytes).isEmpty());
    }

    @Test
    void encodesHelloWorld() {
        byte[] hello = "Hello World".getBytes(StandardCharsets.US_ASCII);
        assertThat(Base58.encode(hello)).isEqualTo("JxF12TrwUP45BMd");
        assertThat(Base58.decode("JxF12TrwUP45BMd")).hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(hello));
    }

    @Test
    void encodesEachLeadingZeroByteAsAOne() {
        assertThat(Base58.encode(new byte[] {0})).isEqualTo("1");
        assertThat(Base58.encode(new byte[] {0, 0})).isEqualTo("11");
        assertThat(Base58.encode(new byte[] {0, 0, 0, 1})).isEqualTo("1112");
        assertThat(Base58.encode(new byte[32])).isEqualTo("11111111111111111111111111111111");
        assertThat(Base58.decode("11111111111111111111111111111111"))
                .hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(new byte[32]));
    }

    /** Vectors of Bitcoin Core's base58_encode_decode.json. */
    @ParameterizedTest(name = "{0} <-> {1}")
    @CsvSource({
            "61, 2g",
            "626262, a3gV",
            "636363, aPEr",
            "73696d706c792061206c6f6e6720737472696e67, 2cFupjhnEsSn59qHXstmK2ffpLv2",
            "00eb15231dfceb60925886b67d065299925915aeb172c06647, 1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L",
            "516b6fcd0f, ABnLTmg",
            "bf4f89001e670274dd, 3SEo3LWLoPntC",
            "572e4794, 3EFU7m",
            "ecac89cad93923c02321, EJDM8drfXA6uyA",
            "10c8511e, Rt5zm",
            "00000000000000000000, 1111111111",
            "ff, 5Q",
    })
    void matchesKnownVectorsBothWays(String hex, String base58) {
        byte[] bytes = HexFormat.of().parseHex(hex);
        assertThat(Base58.encode(bytes)).isEqualTo(base58);
        assertThat(Base58.decode(base58)).hasValueSatisfying(decoded -> assertThat(decoded).isEqualTo(bytes));
    }

    @Test
    void decodingAnEncodingGivesTheSameBytes() {
        long seed = 58L;
        System.out.println("Base58Test.decodingAnEncodingGivesTheSameBytes seed=" + seed);
        Random random = new Random(seed);
        for (int i = 0; i < 2_000; i++) {
            byte[] bytes = new byte[random.nextInt(80)];
            random.nextBytes(bytes);
            int leadingZeros = bytes.length == 0 ? 0 : random.nextInt(Math.min(4, bytes.length) + 1);
            for (int z = 0; z < leadingZeros; z++) {
                bytes[z] = 0;
            }
            String encoded = Base58.encode(bytes);
            assertThat(Base58.decode(encoded)).as("decode(%s)", encoded)
                    .hasValueSatisfying(decoded -> assertThat(decoded).isEqualTo(bytes));
        }
    }

    @ParameterizedTest(name = "\"{0}\" is not base58")
    @ValueSource(strings = {"0", "O", "I", "l", "abc0", "1O1", "+", "/", "=", " ", "abc def", "é", "\u00ff", "\u2028", "JxF12TrwUP45BMd!"})
    void decodesTextWithACharacterOutsideTheAlphabetToEmpty(String text) {
        assertThat(Base58.decode(text)).isEmpty();
    }

    @Test
    void decodeWithALengthRefusesOtherLengths() {
        String key = Base58.encode(new byte[32]);
        assertThat(Base58.decode(key, 32)).isPresent();
        assertThat(Base58.decode(key, 31)).isEmpty();
        assertThat(Base58.decode(key, 33)).isEmpty();
        assertThat(Base58.decode("0", 1)).isEmpty();
    }
}
