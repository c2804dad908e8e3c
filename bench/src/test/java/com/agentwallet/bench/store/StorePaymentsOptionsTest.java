package com.agentwallet.bench.store;

import com.agentwallet.bench.Arguments;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StorePaymentsOptionsTest {
    @Test
    void defaults() {
        assertThat(StorePaymentsBenchmark.Options.parse())
                .isEqualTo(new StorePaymentsBenchmark.Options(20, 15, 16, 1000, true));
    }

    @Test
    void everyOption() {
        assertThat(StorePaymentsBenchmark.Options.parse("--seconds", "2", "--warmup", "1", "--threads", "4",
                "--wallets", "50", "--no-pgbench"))
                .isEqualTo(new StorePaymentsBenchmark.Options(2, 1, 4, 50, false));
        assertThat(StorePaymentsBenchmark.Options.parse("--warmup", "0").warmup()).isZero();
    }

    @Test
    void badInputIsAClearError() {
        assertThatThrownBy(() -> StorePaymentsBenchmark.Options.parse("--threads", "0"))
                .isInstanceOf(Arguments.UsageException.class).hasMessage("--threads must be positive, not 0");
        assertThatThrownBy(() -> StorePaymentsBenchmark.Options.parse("--warmup", "-3"))
                .hasMessage("--warmup must not be negative, not -3");
        assertThatThrownBy(() -> StorePaymentsBenchmark.Options.parse("--wallets"))
                .hasMessage("--wallets needs a value");
        assertThatThrownBy(() -> StorePaymentsBenchmark.Options.parse("--pgbench"))
                .hasMessage("unknown option --pgbench");
    }
}
