package com.agentwallet.bench.service;

import com.agentwallet.bench.store.Pgbench;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class PgbenchReferenceRunTest {
    private static Pgbench.Outcome clean(double tps, long processed) {
        return new Pgbench.Outcome(Optional.of(tps), Optional.of(9.5), processed, 0, true, "output");
    }

    @Test
    void paymentsPerSecondCountEveryPaymentOfAnExecution() {
        PgbenchReference.Run batched = new PgbenchReference.Run(PgbenchReference.Script.SERVICE_BATCHED,
                clean(600.0, 9000), 36_000, 1.8, 27.0, 0.4);
        assertThat(batched.payments()).isEqualTo(36_000);
        assertThat(batched.perSecond()).contains(2400.0);
        assertThat(batched.summary()).startsWith("2400.0 payments/s (600.0 tps of 4 a transaction), latency average "
                + "9.50 ms, 36000 payments, 36000 confirmed transaction rows written; CPU ms per payment: pgbench "
                + "0.050, PostgreSQL 0.750, server JVM (idle) 0.011");
    }

    @Test
    void noFigureWithoutARowForEachPayment() {
        PgbenchReference.Run run = new PgbenchReference.Run(PgbenchReference.Script.REFERENCE, clean(1700.0, 25_500),
                25_499, 1, 1, 1);
        assertThat(run.perSecond()).isEmpty();
        assertThat(run.summary()).contains("(NOT one per payment: no figure)");
    }

    @Test
    void noFigureFromARunThatDidNotFinishCleanly() {
        PgbenchReference.Run run = new PgbenchReference.Run(PgbenchReference.Script.REFERENCE,
                new Pgbench.Outcome(Optional.of(1700.0), Optional.empty(), 25_500, 3, true, "3 failed"), 25_500, 1, 1, 1);
        assertThat(run.perSecond()).isEmpty();
        assertThat(run.summary()).isEqualTo("did not finish cleanly; its output:\n3 failed");
    }
}
