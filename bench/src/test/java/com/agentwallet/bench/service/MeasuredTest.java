package com.agentwallet.bench.service;

import com.agentwallet.bench.Latencies;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MeasuredTest {
    private static final long MS = 1_000_000;

    private static LoadDriver.Measured measured(Map<String, Long> problems, int connections, Latencies wokeLate) {
        Latencies latencies = new Latencies();
        for (int i = 1; i <= 100; i++) {
            latencies.record(i * MS);
        }
        LoadDriver.CpuUse cpu = new LoadDriver.CpuUse(0.02, 0.5, 0.7, new TreeMap<>(Map.of("requests", 0.3,
                "JIT", 0.0001)));
        return new LoadDriver.Measured("1000 wallets, 16 clients", 16, 100, problems, 2.0, latencies, wokeLate, cpu,
                connections, "during it: nothing");
    }

    @Test
    void figuresOfARun() {
        LoadDriver.Measured run = measured(Map.of(), 16, new Latencies());
        assertThat(run.perSecond()).isEqualTo(50.0);
        assertThat(run.ms(50)).isCloseTo(50.0, within(0.005));
        assertThat(run.ms(99)).isCloseTo(99.0, within(0.005));
        assertThat(run.maxMs()).isCloseTo(100.0, within(0.005));
        assertThat(run.cpuMs(0.5)).isEqualTo(5.0);
        assertThat(run.failed()).isZero();
        assertThat(run.summary("payments")).isEqualTo("50.0 payments/s, p50 50.00 ms, p99 99.00 ms, p99.9 100.00 ms, "
                + "max 100.00 ms; 100 ok in 2.0 s; 16 connections for 16 clients");
        assertThat(run.cpuLine()).isEqualTo("CPU ms per request: load generator 0.200, server JVM 5.000 (requests 3.00), "
                + "PostgreSQL 7.000");
    }

    @Test
    void saysWhatWasNotAsExpectedAndWhoReconnected() {
        LoadDriver.Measured run = measured(Map.of("503 unavailable", 3L, "I/O error: EOFException", 1L), 18,
                new Latencies());
        assertThat(run.failed()).isEqualTo(4);
        assertThat(run.summary("payments")).endsWith("18 connections for 16 clients (RECONNECTED: the server closed "
                + "some); NOT AS EXPECTED: " + run.problems());
    }

    @Test
    void saysHowLateClientsWokeToSend() {
        Latencies late = new Latencies();
        late.record(MS / 10);
        late.record(3 * MS);
        assertThat(measured(Map.of(), 16, late).summary("payments")).endsWith("; clients woke late to send: p50 0.10 ms, "
                + "p99 3.00 ms, max 3.00 ms (2 sends waited for their time)");
    }

    @Test
    void theErrorCodeOfAnAnswer() {
        assertThat(LoadDriver.errorCode("{\"error\":{\"code\":\"insufficient_funds\",\"message\":\"x\"}}"))
                .isEqualTo("insufficient_funds");
        assertThat(LoadDriver.errorCode("<html>Bad gateway</html>")).isEqualTo("-");
        assertThat(LoadDriver.errorCode("{\"code\":\"cut")).isEqualTo("-");
        assertThat(LoadDriver.unexpected(new HttpConnection.Response(429, "{\"code\":\"rate_limited\"}")))
                .isEqualTo("429 rate_limited");
    }
}
