package com.agentwallet.bench.store;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class PgbenchOutcomeTest {
    private static final String OUTPUT = """
            pgbench (15.18 (Debian 15.18-0+deb12u1))
            transaction type: /tmp/payment-1.sql
            scaling factor: 1
            query mode: prepared
            number of clients: 16
            number of threads: 2
            maximum number of tries: 1
            duration: 15 s
            number of transactions actually processed: 25627
            number of failed transactions: 0 (0.000%)
            latency average = 9.365 ms
            initial connection time = 25.112 ms
            tps = 1708.512345 (without initial connection time)
            """;

    @Test
    void readsTheFiguresOfACleanRun() {
        Pgbench.Outcome outcome = Pgbench.Outcome.of(0, OUTPUT);
        assertThat(outcome.tps()).contains(1708.512345);
        assertThat(outcome.latencyMs()).contains(9.365);
        assertThat(outcome.processed()).isEqualTo(25627);
        assertThat(outcome.failed()).isZero();
        assertThat(outcome.clean()).isTrue();
    }

    @Test
    void anAbortedClientOrAnExitOtherThanZeroIsNotClean() {
        assertThat(Pgbench.Outcome.of(0, OUTPUT + "client 3 aborted in command 4 of script 0\n").clean()).isFalse();
        assertThat(Pgbench.Outcome.of(2, OUTPUT).clean()).isFalse();
    }

    @Test
    void failedTransactionsAreCounted() {
        Pgbench.Outcome outcome = Pgbench.Outcome.of(0,
                OUTPUT.replace("failed transactions: 0 (0.000%)", "failed transactions: 12 (0.047%)"));
        assertThat(outcome.failed()).isEqualTo(12);
    }

    @Test
    void whatItDidNotSayIsMissing() {
        Pgbench.Outcome outcome = Pgbench.Outcome.of(1, "pgbench: error: connection to server failed\n");
        assertThat(outcome.tps()).isEqualTo(Optional.empty());
        assertThat(outcome.latencyMs()).isEmpty();
        assertThat(outcome.processed()).isZero();
        assertThat(outcome.clean()).isFalse();
    }
}
