package com.agentwallet.core.crypto;

import com.agentwallet.core.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

class Base58Test {
    private static final String ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

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

    /**
     * The encoding against the definition, a number written in base 58 by {@link BigInteger}, and
     * its decoding back, for lengths across several 32-bit words and passes of five digits, leading
     * zeros included.
     */
    @Test
    void encodesAsTheNumberWrittenInBase58AndDecodesBack() {
        forRandomCases("encodesAsTheNumberWrittenInBase58AndDecodesBack", 58L, random -> {
            byte[] bytes = new byte[random.nextInt(100)];
            random.nextBytes(bytes);
            int leadingZeros = bytes.length == 0 ? 0 : random.nextInt(Math.min(5, bytes.length) + 1);
            for (int z = 0; z < leadingZeros; z++) {
                bytes[z] = 0;
            }
            String encoded = Base58.encode(bytes);
            assertThat(encoded).as("encode(%s)", HexFormat.of().formatHex(bytes)).isEqualTo(writtenInBase58(bytes));
            assertThat(Base58.decode(encoded)).as("decode(%s)", encoded)
                    .hasValueSatisfying(decoded -> assertThat(decoded).isEqualTo(bytes));
        });
    }

    /**
     * Decoding against the definition, for any text of the alphabet (not only texts this encoder
     * wrote): its leading {@code 1}s as zero bytes, then the number the rest writes in base 58.
     */
    @Test
    void decodesAsTheNumberTheTextWritesInBase58() {
        forRandomCases("decodesAsTheNumberTheTextWritesInBase58", 5859L, random -> {
            StringBuilder text = new StringBuilder("1".repeat(random.nextInt(4)));
            int digits = random.nextInt(130);
            for (int d = 0; d < digits; d++) {
                text.append(ALPHABET.charAt(random.nextInt(58)));
            }
            int ones = 0;
            while (ones < text.length() && text.charAt(ones) == '1') {
                ones++;
            }
            BigInteger number = BigInteger.ZERO;
            for (int d = ones; d < text.length(); d++) {
                number = number.multiply(BigInteger.valueOf(58))
                        .add(BigInteger.valueOf(ALPHABET.indexOf(text.charAt(d))));
            }
            byte[] magnitude = number.signum() == 0 ? new byte[0] : number.toByteArray();
            int sign = magnitude.length > 0 && magnitude[0] == 0 ? 1 : 0;
            byte[] expected = new byte[ones + magnitude.length - sign];
            System.arraycopy(magnitude, sign, expected, ones, magnitude.length - sign);
            assertThat(Base58.decode(text.toString())).as("decode(%s)", text)
                    .hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(expected));
        });
    }

    /** Runs {@code check} 5,000 times on one seeded source of randomness ({@link TestSeed}: printed for a rerun). */
    private static void forRandomCases(String test, long fixedSeed, Consumer<Random> check) {
        Random random = new Random(TestSeed.of("Base58Test." + test, fixedSeed));
        for (int i = 0; i < 5_000; i++) {
            check.accept(random);
        }
    }

    private static String writtenInBase58(byte[] bytes) {
        StringBuilder digits = new StringBuilder();
        BigInteger rest = new BigInteger(1, bytes);
        BigInteger base = BigInteger.valueOf(58);
        while (rest.signum() > 0) {
            BigInteger[] division = rest.divideAndRemainder(base);
            digits.append(ALPHABET.charAt(division[1].intValue()));
            rest = division[0];
        }
        for (int i = 0; i < bytes.length && bytes[i] == 0; i++) {
            digits.append('1');
        }
        return digits.reverse().toString();
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
