package com.agentwallet.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LatenciesTest {
    private static final long MS = 1_000_000;

    @Test
    void percentilesAreByNearestRankInMilliseconds() {
        Latencies latencies = new Latencies();
        List<Long> shuffled = new ArrayList<>();
        for (long ms = 1; ms <= 1000; ms++) {
            shuffled.add(ms * MS / 100);
        }
        Collections.shuffle(shuffled, new Random(42));
        shuffled.forEach(latencies::record);

        assertThat(latencies.count()).isEqualTo(1000);
        assertThat(latencies.ms(50)).isEqualTo(5.00);
        assertThat(latencies.ms(99)).isEqualTo(9.90);
        assertThat(latencies.ms(99.9)).isEqualTo(9.99);
        assertThat(latencies.ms(100)).isEqualTo(10.00);
        assertThat(latencies.maxMs()).isEqualTo(10.00);
        assertThat(latencies.ms(0.1)).isEqualTo(0.01);
    }

    @Test
    void aPercentileBetweenRanksTakesTheHigherSample() {
        Latencies latencies = new Latencies();
        for (long ms : new long[]{1, 2, 3}) {
            latencies.record(ms * MS);
        }
        assertThat(latencies.ms(50)).isEqualTo(2.0);
        assertThat(latencies.ms(34)).isEqualTo(2.0);
        assertThat(latencies.ms(33)).isEqualTo(1.0);
        assertThat(latencies.ms(99)).isEqualTo(3.0);
    }

    @Test
    void keepsTwoDecimalsOfAMillisecondUpToAQuarterSecond() {
        Latencies latencies = new Latencies();
        latencies.record(16_634_999);
        assertThat(latencies.ms(50)).isEqualTo(16.634);

        Latencies longer = new Latencies();
        longer.record(249_876_000);
        assertThat(longer.ms(50)).isCloseTo(249.876, within(0.01));
        assertThat(longer.maxMs()).isCloseTo(249.876, within(0.01));
    }

    @Test
    void noSampleGivesNoFigure() {
        Latencies latencies = new Latencies();
        assertThat(latencies.count()).isZero();
        assertThat(latencies.ms(50)).isNaN();
        assertThat(latencies.maxMs()).isNaN();
    }

    @Test
    void aNegativeLatencyCountsAsZero() {
        Latencies latencies = new Latencies();
        latencies.record(-5 * MS);
        assertThat(latencies.ms(100)).isZero();
    }

    @Test
    void threadsRecordIntoOneHistogram() throws Exception {
        Latencies latencies = new Latencies();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                done.add(threads.submit(() -> {
                    for (long ms = 1; ms <= 10_000; ms++) {
                        latencies.record(ms * MS / 100);
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            threads.shutdown();
        }
        assertThat(latencies.count()).isEqualTo(40_000);
        assertThat(latencies.maxMs()).isCloseTo(100.0, within(0.01));
        assertThat(latencies.ms(50)).isCloseTo(50.0, within(0.01));
    }
}
