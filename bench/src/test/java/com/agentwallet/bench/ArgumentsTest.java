package com.agentwallet.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ArgumentsTest {
    @Test
    void readsOptionsAndTheirValuesInOrder() {
        Arguments in = new Arguments("--seconds", "20", "--flag", "--jar", "a/b.jar", "--clients", "16, 32,64",
                "--curve", "0.2,0.3", "--warmup", "0");
        List<Object> read = new ArrayList<>();
        while (in.hasNext()) {
            switch (in.next()) {
                case "--seconds" -> read.add(in.positive());
                case "--flag" -> read.add("flag");
                case "--jar" -> read.add(in.path());
                case "--clients" -> read.add(in.positives());
                case "--curve" -> read.add(in.numbers());
                case "--warmup" -> read.add(in.notNegative());
                default -> throw in.unknown();
            }
        }
        assertThat(read).containsExactly(20, "flag", Path.of("a/b.jar"), List.of(16, 32, 64), List.of(0.2, 0.3), 0);
    }

    @Test
    void aMissingValueNamesItsOption() {
        Arguments in = new Arguments("--seconds");
        in.next();
        assertThatThrownBy(in::positive).isInstanceOf(Arguments.UsageException.class)
                .hasMessage("--seconds needs a value");
    }

    @Test
    void aNumberThatIsNotOneSaysWhatWasGiven() {
        assertThatThrownBy(() -> first("--seconds", "ten").positive()).isInstanceOf(Arguments.UsageException.class)
                .hasMessage("--seconds takes a whole number, not 'ten'");
        assertThatThrownBy(() -> first("--seconds", "1.5").notNegative())
                .hasMessage("--seconds takes a whole number, not '1.5'");
    }

    @Test
    void boundsAreChecked() {
        assertThatThrownBy(() -> first("--seconds", "0").positive()).hasMessage("--seconds must be positive, not 0");
        assertThatThrownBy(() -> first("--warmup", "-1").notNegative())
                .hasMessage("--warmup must not be negative, not -1");
        assertThat(first("--warmup", "0").notNegative()).isZero();
    }

    @Test
    void listsRefuseEmptyNonNumericAndNonPositiveItems() {
        for (String bad : new String[]{"16,,32", "16,x", "0,16", "-1", ""}) {
            assertThatThrownBy(() -> first("--clients", bad).positives()).isInstanceOf(Arguments.UsageException.class)
                    .hasMessage("--clients takes positive whole numbers, comma-separated, not '" + bad + "'");
        }
        assertThatThrownBy(() -> first("--curve", "0.2,half").numbers())
                .hasMessage("--curve takes numbers, comma-separated, not '0.2,half'");
    }

    @Test
    void anUnknownOptionIsNamed() {
        Arguments in = new Arguments("--secnds", "5");
        in.next();
        assertThat(in.unknown()).hasMessage("unknown option --secnds");
    }

    private static Arguments first(String option, String value) {
        Arguments in = new Arguments(option, value);
        in.next();
        return in;
    }
}
