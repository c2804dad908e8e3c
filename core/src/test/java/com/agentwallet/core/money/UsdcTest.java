package com.agentwallet.core.money;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UsdcTest {
    private static final Pattern WIRE_FORM = Pattern.compile("^[0-9]+\\.[0-9]{2,6}$");

    @ParameterizedTest(name = "\"{0}\" is {1} micros")
    @CsvSource({
            "0, 0",
            "0.0, 0",
            "0.000000, 0",
            "1, 1000000",
            "12.5, 12500000",
            "12.50, 12500000",
            "0.000001, 1",
            "0.1, 100000",
            "1.123456, 1123456",
            "007.25, 7250000",
            "000, 0",
            "0000000000000000000001.5, 1500000",
            "1000000, 1000000000000",
            "9223372036854.775807, 9223372036854775807",
    })
    void parsesPlainDecimalsToExactMicros(String text, long micros) {
        assertThat(Usdc.parse(text, "amount").micros()).isEqualTo(micros);
    }

    @ParameterizedTest(name = "\"{0}\" is refused")
    @ValueSource(strings = {
            "0.0000001", "1.1234567", "12.5000000",             // a 7th decimal, even a zero one
            "-1", "-0.01", "-0", "+1", "+0.5",                   // signs
            "1e6", "1E6", "1.5e2", "1e-6",                       // exponents
            " ", " 1", "1 ", "1. 5", "1\n", "\t1",               // whitespace
            "1.", ".5", ".", "1,50", "1.2.3", "1_000",            // malformed
            "0x10", "NaN", "Infinity", "abc",
            "１", "١٢",                                          // non-ASCII digits
    })
    void refusesAnythingButAPlainDecimalNamingTheParam(String text) {
        assertValidationError(() -> Usdc.parse(text, "max_per_tx"), "max_per_tx");
    }

    @ParameterizedTest(name = "\"{0}\" is refused")
    @NullAndEmptySource
    void refusesNullAndEmpty(String text) {
        assertValidationError(() -> Usdc.parse(text, "amount"), "amount");
    }

    @ParameterizedTest(name = "\"{0}\" does not fit in a long of micros")
    @ValueSource(strings = {
            "9223372036854.775808",      // Long.MAX_VALUE + 1 micro
            "9223372036855",             // whole part alone overflows
            "9999999999999.999999",
            "99999999999999",            // 14 integer digits
            "18446744073709551616",
            "9223372036854775807",       // Long.MAX_VALUE as whole USDC
            "100000000000000000000000000000.5",
    })
    void refusesAmountsBeyondLongMicrosAsValidationErrors(String text) {
        assertValidationError(() -> Usdc.parse(text, "amount"), "amount");
    }

    @Test
    void theOneArgumentParseNamesTheAmountParam() {
        assertValidationError(() -> Usdc.parse("1.0000001"), "amount");
        assertThat(Usdc.parse("2.5")).isEqualTo(Usdc.ofMicros(2_500_000));
    }

    @ParameterizedTest(name = "{0} micros render as \"{1}\"")
    @CsvSource({
            "0, 0.00",
            "1, 0.000001",
            "10, 0.00001",
            "100000, 0.10",
            "120000, 0.12",
            "123000, 0.123",
            "1100000, 1.10",
            "1234567, 1.234567",
            "12500000, 12.50",
            "1000000000000, 1000000.00",
            "9223372036854775807, 9223372036854.775807",
    })
    void rendersWithTwoToSixDecimals(long micros, String expected) {
        assertThat(Usdc.ofMicros(micros)).hasToString(expected);
    }

    @Test
    void rendersAnyAmountAsItsExactDecimalWithTwoToSixDecimals() {
        Random random = new Random(TestSeed.of("UsdcTest.rendersAnyAmountAsItsExactDecimalWithTwoToSixDecimals", 7));
        List<Long> amounts = new ArrayList<>(List.of(0L, 1L, 10L, 100_000L, 1_000_000L, Long.MAX_VALUE));
        for (int i = 0; i < 10_000; i++) {
            amounts.add(random.nextLong(0, i % 2 == 0 ? 1_000_000_000L : Long.MAX_VALUE));
        }

        assertThat(amounts).allSatisfy(micros -> {
            BigDecimal exact = BigDecimal.valueOf(micros, 6).stripTrailingZeros();
            String expected = exact.setScale(Math.max(2, exact.scale())).toPlainString();
            assertThat(Usdc.ofMicros(micros)).hasToString(expected);
        });
    }

    @ParameterizedTest(name = "\"{0}\" is zero")
    @ValueSource(strings = {"0", "0.00", "000.000000"})
    void parsePositiveRefusesZero(String zero) {
        assertValidationError(() -> Usdc.parsePositive(zero, "amount"), "amount");
    }

    @Test
    void parsePositiveAcceptsTheSmallestAmountAndRefusesMalformedInput() {
        assertThat(Usdc.parsePositive("0.000001", "amount")).isEqualTo(Usdc.ofMicros(1));
        assertValidationError(() -> Usdc.parsePositive("-5", "topup_amount"), "topup_amount");
    }

    @Test
    void negativeAmountsCannotBeConstructed() {
        assertThatThrownBy(() -> Usdc.ofMicros(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Usdc(Long.MIN_VALUE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Usdc.ofWhole(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ofWholeCountsMillionsOfMicrosAndThrowsOnOverflow() {
        assertThat(Usdc.ofWhole(12)).isEqualTo(Usdc.ofMicros(12_000_000));
        assertThatThrownBy(() -> Usdc.ofWhole(Long.MAX_VALUE / 1_000_000 + 1)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void plusAddsExactlyAndThrowsInsteadOfWrapping() {
        assertThat(Usdc.parse("0.1").plus(Usdc.parse("0.2"))).isEqualTo(Usdc.parse("0.3"));
        Usdc max = Usdc.ofMicros(Long.MAX_VALUE);
        assertThat(max.plus(Usdc.ZERO)).isEqualTo(max);
        assertThatThrownBy(() -> max.plus(Usdc.ofMicros(1))).isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> max.plus(max)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void minusSubtractsExactlyAndRefusesNegativeResults() {
        assertThat(Usdc.parse("1.00").minus(Usdc.parse("0.000001"))).isEqualTo(Usdc.parse("0.999999"));
        assertThat(Usdc.parse("5").minus(Usdc.parse("5"))).isEqualTo(Usdc.ZERO);
        assertThatThrownBy(() -> Usdc.ofMicros(1).minus(Usdc.ofMicros(2))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Usdc.ZERO.minus(Usdc.ofMicros(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void comparisonsAreByMicros() {
        Usdc small = Usdc.parse("1.000000");
        Usdc large = Usdc.parse("1.000001");
        assertThat(small.isLessThan(large)).isTrue();
        assertThat(large.isLessThan(small)).isFalse();
        assertThat(small.isAtLeast(small)).isTrue();
        assertThat(small.isAtLeast(large)).isFalse();
        assertThat(large.exceeds(small)).isTrue();
        assertThat(small.exceeds(small)).isFalse();
        assertThat(small.compareTo(large)).isNegative();
        assertThat(large.compareTo(small)).isPositive();
        assertThat(Usdc.parse("1.5").compareTo(Usdc.parse("1.50"))).isZero();
        assertThat(Usdc.ZERO.isZero()).isTrue();
        assertThat(Usdc.ofMicros(1).isZero()).isFalse();
    }

    @Test
    void parsingTheRenderedFormGivesTheSameAmount() {
        Random random = new Random(TestSeed.of("UsdcTest.parsingTheRenderedFormGivesTheSameAmount", 20260401L));
        List<Long> samples = new ArrayList<>(List.of(0L, 1L, 9L, 10L, 99L, 100L, 999_999L, 1_000_000L, 1_000_001L,
                1_100_000L, 12_345_678L, Long.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE / 1_000_000 * 1_000_000));
        for (int i = 0; i < 5_000; i++) {
            samples.add(random.nextLong() & Long.MAX_VALUE);
            samples.add((long) random.nextInt(100_000_000));
            samples.add(random.nextInt(1_000_000) * 1_000_000L + (long) random.nextInt(10) * 100_000);
        }
        for (long micros : samples) {
            Usdc amount = Usdc.ofMicros(micros);
            String text = amount.toString();
            assertThat(text).as("rendering of %d micros", micros).matches(WIRE_FORM);
            assertThat(Usdc.parse(text)).as("round trip of %s", text).isEqualTo(amount);
        }
    }

    private static void assertValidationError(Runnable parse, String param) {
        assertThatThrownBy(parse::run)
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.param()).isEqualTo(param));
    }
}
