package com.agentwallet.bench.service;

import com.agentwallet.bench.Arguments;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServiceLoadOptionsTest {
    @Test
    void defaults() {
        assertThat(ServiceLoadOptions.parse()).isEqualTo(new ServiceLoadOptions(Optional.empty(), Optional.empty(), 3,
                List.of("-Xms1g", "-Xmx1g", "-XX:MaxGCPauseMillis=10"), OptionalInt.empty(), List.of(16, 32, 64), 10, 15,
                8, 1_000_000, false, true, OptionalInt.empty(), List.of()));
        assertThat(ServiceLoadOptions.parse().runWarmup()).isEqualTo(3);
    }

    @Test
    void everyOptionOfTheSingleBuildRun() {
        ServiceLoadOptions options = ServiceLoadOptions.parse("--server-jar", "x/agent-wallet.jar", "--server-jvm",
                "  -Xmx2g   -XX:+UseZGC ", "--pool", "8", "--clients", "4,8", "--warmup", "2", "--seconds", "5",
                "--read-seconds", "3", "--export-rows", "1000", "--export-json", "--no-pgbench", "--open-rate", "300",
                "--curve", "0.4,0.2");
        assertThat(options).isEqualTo(new ServiceLoadOptions(Optional.of(Path.of("x/agent-wallet.jar")),
                Optional.empty(), 3, List.of("-Xmx2g", "-XX:+UseZGC"), OptionalInt.of(8), List.of(4, 8), 2, 5, 3, 1000,
                true, false, OptionalInt.of(300), List.of(0.2, 0.4)));
        assertThat(options.runWarmup()).isEqualTo(2);
        assertThat(ServiceLoadOptions.parse("--no-export").exportRows()).isZero();
        assertThat(ServiceLoadOptions.parse("--warmup", "0").runWarmup()).isZero();
    }

    @Test
    void theComparisonOfTwoBuilds() {
        ServiceLoadOptions options = ServiceLoadOptions.parse("--baseline-jar", "/work/baseline/old.jar",
                "--server-jar", "new.jar", "--rounds", "5", "--clients", "32,64", "--no-pgbench", "--no-export");
        assertThat(options.baselineJar()).contains(Path.of("/work/baseline/old.jar"));
        assertThat(options.serverJar()).contains(Path.of("new.jar"));
        assertThat(options.rounds()).isEqualTo(5);
        assertThat(options.clients()).containsExactly(32, 64);
    }

    @Test
    void theComparisonRefusesWhatItDoesNotMeasure() {
        assertThatThrownBy(() -> ServiceLoadOptions.parse("--baseline-jar", "old.jar", "--curve", "0.3"))
                .isInstanceOf(Arguments.UsageException.class)
                .hasMessage("--curve: not measured when --baseline-jar compares two builds (closed-loop payments only); "
                        + "leave it out");
        assertThatThrownBy(() -> ServiceLoadOptions.parse("--open-rate", "100", "--export-json", "--baseline-jar",
                "old.jar"))
                .hasMessage("--open-rate, --export-json: not measured when --baseline-jar compares two builds "
                        + "(closed-loop payments only); leave them out");
        assertThatThrownBy(() -> ServiceLoadOptions.parse("--rounds", "2"))
                .hasMessage("--rounds counts the rounds of the comparison of two builds: give --baseline-jar too");
    }

    @Test
    void badInputIsAClearError() {
        assertThatThrownBy(() -> ServiceLoadOptions.parse("--clients", "16,0"))
                .hasMessage("--clients takes positive whole numbers, comma-separated, not '16,0'");
        assertThatThrownBy(() -> ServiceLoadOptions.parse("--curve", "0.5,1.5"))
                .hasMessage("--curve takes fractions of the peak above 0 and at most 1, comma-separated");
        assertThatThrownBy(() -> ServiceLoadOptions.parse("--curve", "0"))
                .hasMessage("--curve takes fractions of the peak above 0 and at most 1, comma-separated");
        assertThatThrownBy(() -> ServiceLoadOptions.parse("--rounds", "0", "--baseline-jar", "old.jar"))
                .hasMessage("--rounds must be positive, not 0");
        assertThatThrownBy(() -> ServiceLoadOptions.parse("--baseline-jar"))
                .hasMessage("--baseline-jar needs a value");
        assertThatThrownBy(() -> ServiceLoadOptions.parse("--pool", "none"))
                .hasMessage("--pool takes a whole number, not 'none'");
        assertThatThrownBy(() -> ServiceLoadOptions.parse("--no-reads"))
                .hasMessage("unknown option --no-reads");
    }
}
