package com.agentwallet.bench.service;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class JarComparisonTest {
    @Test
    void theOrderTurnsFromPairToPairAndEachPairsFromRoundToRound() {
        assertThat(JarComparison.oldFirst(0, 0)).isTrue();
        assertThat(JarComparison.oldFirst(0, 1)).isFalse();
        assertThat(JarComparison.oldFirst(0, 2)).isTrue();
        for (int pair = 0; pair < 4; pair++) {
            for (int round = 0; round < 3; round++) {
                assertThat(JarComparison.oldFirst(round + 1, pair)).isNotEqualTo(JarComparison.oldFirst(round, pair));
            }
        }
    }

    @Test
    void theMedianOfTheRounds() {
        assertThat(JarComparison.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(JarComparison.median(List.of(4.0, 1.0, 2.0, 3.0))).isEqualTo(2.5);
        assertThat(JarComparison.median(List.of(7.5))).isEqualTo(7.5);
        assertThat(JarComparison.median(List.of())).isNaN();
    }

    @Test
    void theRatioIsNewOverOldOfTheMedians() {
        JarComparison.Comparison comparison = new JarComparison.Comparison("1000 wallets", 32,
                List.of(1000.0, 1200.0, 1100.0), List.of(990.0, 1050.0, 1500.0));
        assertThat(comparison.oldRate()).isEqualTo(1100.0);
        assertThat(comparison.newRate()).isEqualTo(1050.0);
        assertThat(comparison.ratio()).isEqualTo(1050.0 / 1100.0);
        assertThat(comparison.holds()).isTrue();
        assertThat(comparison.row()).isEqualTo("| 1000 wallets | 32 | 1100.0 | 1050.0 | 0.95 | yes |");
        assertThat(comparison.rounds())
                .isEqualTo("1000 wallets, 32 clients, pay/s by round: old 1000.0, 1200.0, 1100.0; new 990.0, 1050.0, 1500.0");
    }

    @Test
    void theGuardHoldsAtNineTenthsExactly() {
        assertThat(new JarComparison.Comparison("1 hot wallet", 64, List.of(1000.0), List.of(900.0)).holds()).isTrue();
        assertThat(new JarComparison.Comparison("1 hot wallet", 64, List.of(1000.0), List.of(899.9)).holds()).isFalse();
    }

    @Test
    void theSummaryEndsWithTheVerdict() {
        List<String> held = JarComparison.summary(List.of(
                new JarComparison.Comparison("1000 wallets", 32, List.of(1000.0), List.of(1000.0)),
                new JarComparison.Comparison("1 hot wallet", 64, List.of(1000.0), List.of(1100.0))));
        assertThat(held).containsExactly(
                "| scenario | clients | old pay/s | new pay/s | new/old | >= 0.90 |",
                "|---|---:|---:|---:|---:|---|",
                "| 1000 wallets | 32 | 1000.0 | 1000.0 | 1.00 | yes |",
                "| 1 hot wallet | 64 | 1000.0 | 1100.0 | 1.10 | yes |",
                "Guard, new pay/s >= 0.90 x old in every scenario: PASS");

        List<String> missed = JarComparison.summary(List.of(
                new JarComparison.Comparison("1 hot wallet", 64, List.of(1000.0), List.of(850.0))));
        assertThat(missed.get(missed.size() - 1))
                .isEqualTo("Guard, new pay/s >= 0.90 x old in every scenario: MISS: 1 hot wallet at 64 clients (0.85)");
        assertThat(missed.get(2)).isEqualTo("| 1 hot wallet | 64 | 1000.0 | 850.0 | 0.85 | NO |");
    }
}
