package com.agentwallet.bench.delivery;

import com.agentwallet.bench.Arguments;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeliveryOptionsTest {
    @Test
    void defaults() {
        DeliveryBenchmark.Options options = DeliveryBenchmark.Options.parse();
        assertThat(options).isEqualTo(new DeliveryBenchmark.Options(20, 5, 500, 4, 50, 200, 1, 1, 120));
        assertThat(options.target()).isEqualTo("500 events/s");
    }

    @Test
    void everyOption() {
        DeliveryBenchmark.Options options = DeliveryBenchmark.Options.parse("--seconds", "3", "--warmup", "0",
                "--rate", "0", "--workers", "2", "--poll-ms", "10", "--wallets", "20", "--batch", "5",
                "--producers", "3", "--drain", "30");
        assertThat(options).isEqualTo(new DeliveryBenchmark.Options(3, 0, 0, 2, 10, 20, 5, 3, 30));
        assertThat(options.target()).isEqualTo("as fast as possible");
    }

    @Test
    void badInputIsAClearError() {
        assertThatThrownBy(() -> DeliveryBenchmark.Options.parse("--rate", "-1"))
                .isInstanceOf(Arguments.UsageException.class).hasMessage("--rate must not be negative, not -1");
        assertThatThrownBy(() -> DeliveryBenchmark.Options.parse("--workers", "0"))
                .hasMessage("--workers must be positive, not 0");
        assertThatThrownBy(() -> DeliveryBenchmark.Options.parse("--poll-ms", "fast"))
                .hasMessage("--poll-ms takes a whole number, not 'fast'");
        assertThatThrownBy(() -> DeliveryBenchmark.Options.parse("--drain"))
                .hasMessage("--drain needs a value");
        assertThatThrownBy(() -> DeliveryBenchmark.Options.parse("--threads", "2"))
                .hasMessage("unknown option --threads");
    }
}
