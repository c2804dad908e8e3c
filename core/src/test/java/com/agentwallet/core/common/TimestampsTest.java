package com.agentwallet.core.common;

import com.agentwallet.core.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TimestampsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "2026-04-01T12:00:00Z, 2026-04-01T12:00:00.000Z",
            "2026-04-01T12:00:00.5Z, 2026-04-01T12:00:00.500Z",
            "2026-04-01T12:00:00.123456789Z, 2026-04-01T12:00:00.123Z",
            "2026-04-01T12:00:00.999999999Z, 2026-04-01T12:00:00.999Z",
            "1970-01-01T00:00:00Z, 1970-01-01T00:00:00.000Z",
            "2024-02-29T23:59:59.001Z, 2024-02-29T23:59:59.001Z",
    })
    void formatsInUtcWithMillisecondsAndZ(String instant, String expected) {
        assertThat(Timestamps.format(Instant.parse(instant))).isEqualTo(expected);
    }

    @Test
    void formatsAnyInstantAsTheContractsPatternDoes() {
        DateTimeFormatter pattern = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
        Random random = new Random(TestSeed.of("TimestampsTest.formatsAnyInstantAsTheContractsPatternDoes", 42));
        List<Instant> instants = new ArrayList<>(List.of(Instant.EPOCH, Instant.parse("0000-01-01T00:00:00Z"),
                Instant.parse("9999-12-31T23:59:59.999999999Z"), Instant.parse("+10000-01-01T00:00:00Z"),
                Instant.parse("-0001-12-31T23:59:59.5Z")));
        for (int i = 0; i < 10_000; i++) {
            instants.add(Instant.ofEpochSecond(random.nextLong(-70_000_000_000L, 260_000_000_000L),
                    random.nextInt(1_000_000_000)));
        }

        assertThat(instants).allSatisfy(instant -> assertThat(Timestamps.format(instant)).as("%s", instant)
                .isEqualTo(pattern.format(instant)));
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
            "2026-04-01T12:00:00.000Z, 2026-04-01T12:00:00Z",
            "2026-04-01T12:00:00Z, 2026-04-01T12:00:00Z",
            "2026-04-01T14:00:00+02:00, 2026-04-01T12:00:00Z",
            "2026-04-01T07:30:00.250-04:30, 2026-04-01T12:00:00.250Z",
            "2026-04-02T01:00:00+13:00, 2026-04-01T12:00:00Z",
            "2026-04-01T12:00:00+00:00, 2026-04-01T12:00:00Z",
            "2026-04-01T12:00:00.123456789Z, 2026-04-01T12:00:00.123Z",
            "2026-04-01T12:00:00.999999-01:00, 2026-04-01T13:00:00.999Z",
    })
    void parsesAnyOffsetToAnInstantWithMillisecondPrecision(String text, String expected) {
        assertThat(Timestamps.parse(text, "expiry")).isEqualTo(Instant.parse(expected));
    }

    @Test
    void parsingTheFormattedFormGivesTheSameInstant() {
        Instant instant = Instant.parse("2026-04-01T12:34:56.789Z");
        assertThat(Timestamps.parse(Timestamps.format(instant), "at")).isEqualTo(instant);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @NullAndEmptySource
    @ValueSource(strings = {"2026-04-01", "2026-04-01T12:00:00", "2026-04-01 12:00:00Z", "2026-13-01T00:00:00Z",
            "2026-02-30T00:00:00Z", "2026-04-01T25:00:00Z", "yesterday", "1711972800", "2026-04-01T12:00:00+25:00",
            " 2026-04-01T12:00:00Z"})
    void refusesAnythingElseAsAValidationErrorNamingTheParam(String text) {
        assertThatThrownBy(() -> Timestamps.parse(text, "expiry"))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.param()).isEqualTo("expiry"));
    }
}
