package com.agentwallet.bench.service;

import com.agentwallet.bench.Arguments;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScaleOutOptionsTest {
    @Test
    void defaults() {
        assertThat(ScaleOutBenchmark.Options.parse())
                .isEqualTo(new ScaleOutBenchmark.Options(Optional.empty(), 16, 20, 10, 2));
    }

    @Test
    void everyOption() {
        assertThat(ScaleOutBenchmark.Options.parse("--clients", "8", "--seconds", "5", "--warmup", "0", "--rounds", "3",
                "--server-jar", "/tmp/agent-wallet.jar"))
                .isEqualTo(new ScaleOutBenchmark.Options(Optional.of(Path.of("/tmp/agent-wallet.jar")), 8, 5, 0, 3));
    }

    @Test
    void badInputIsAClearError() {
        assertThatThrownBy(() -> ScaleOutBenchmark.Options.parse("--clients", "0"))
                .isInstanceOf(Arguments.UsageException.class).hasMessage("--clients must be positive, not 0");
        assertThatThrownBy(() -> ScaleOutBenchmark.Options.parse("--warmup", "-1"))
                .hasMessage("--warmup must not be negative, not -1");
        assertThatThrownBy(() -> ScaleOutBenchmark.Options.parse("--seconds"))
                .hasMessage("--seconds needs a value");
        assertThatThrownBy(() -> ScaleOutBenchmark.Options.parse("--threads", "2"))
                .hasMessage("unknown option --threads");
    }
}
