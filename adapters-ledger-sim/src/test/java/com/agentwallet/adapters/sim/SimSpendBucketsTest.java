package com.agentwallet.adapters.sim;

import com.agentwallet.core.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chain's bucketed windows against an exact rolling window: a window never counts a spend
 * older than the window, and leaves out at most one bucket's worth at the far edge.
 */
class SimSpendBucketsTest {
    private static final Instant T0 = Instant.parse("2026-04-01T12:05:00Z");

    private record Spend(Instant at, long micros) {
    }

    @Test
    void aSpendLeavesTheDayWindowAtTheStartOfItsBucketPlus24HoursAndNeverLater() {
        SpendBuckets buckets = new SpendBuckets();
        buckets.add(T0, T0, 70);

        assertThat(buckets.total(SpendBuckets.Window.DAY, T0)).isEqualTo(70);
        // The spend's 15-minute bucket began at 12:00, so it leaves 5 minutes before it is 24 h old.
        Instant bucketEnd = Instant.parse("2026-04-02T12:00:00Z");
        assertThat(buckets.total(SpendBuckets.Window.DAY, bucketEnd.minusMillis(1))).isEqualTo(70);
        assertThat(buckets.total(SpendBuckets.Window.DAY, bucketEnd)).isZero();
        assertThat(buckets.total(SpendBuckets.Window.DAY, T0.plus(Duration.ofHours(24)))).isZero();
        assertThat(Duration.between(bucketEnd, T0.plus(Duration.ofHours(24))))
                .isLessThanOrEqualTo(Duration.ofMinutes(15));
    }

    @Test
    void theHourWindowCountsPaymentsInWholeMinutes() {
        SpendBuckets buckets = new SpendBuckets();
        buckets.add(T0.plusSeconds(30), T0.plusSeconds(30), 1);
        buckets.add(T0.plusSeconds(59), T0.plusSeconds(59), 1);

        assertThat(buckets.count(SpendBuckets.Window.HOUR, T0.plusSeconds(59))).isEqualTo(2);
        assertThat(buckets.count(SpendBuckets.Window.HOUR, T0.plus(Duration.ofMinutes(60)).minusMillis(1))).isEqualTo(2);
        assertThat(buckets.count(SpendBuckets.Window.HOUR, T0.plus(Duration.ofMinutes(60)))).isZero();
    }

    @Test
    void aSpendTakenBackLeavesEveryWindow() {
        SpendBuckets buckets = new SpendBuckets();
        buckets.add(T0, T0, 70);
        buckets.add(T0.plusSeconds(1), T0.plusSeconds(1), 30);
        buckets.remove(T0, 70);

        Instant now = T0.plusSeconds(2);
        assertThat(buckets.total(SpendBuckets.Window.DAY, now)).isEqualTo(30);
        assertThat(buckets.total(SpendBuckets.Window.MONTH, now)).isEqualTo(30);
        assertThat(buckets.count(SpendBuckets.Window.HOUR, now)).isEqualTo(1);
    }

    @Test
    void aSpendCountedEarlierIsKeptOnlyInTheWindowsThatStillHoldItsInstantAndInItsBucket() {
        SpendBuckets buckets = new SpendBuckets();
        Instant late = T0.plus(Duration.ofHours(26));
        buckets.add(T0, late, 80);

        assertThat(SpendBuckets.holds(SpendBuckets.Window.DAY, T0, late)).isFalse();
        assertThat(buckets.total(SpendBuckets.Window.DAY, late)).isZero();
        assertThat(buckets.count(SpendBuckets.Window.HOUR, late)).isZero();
        assertThat(buckets.total(SpendBuckets.Window.MONTH, late)).isEqualTo(80);

        Instant sooner = T0.plus(Duration.ofHours(10));
        buckets.add(T0, sooner, 60);
        assertThat(buckets.total(SpendBuckets.Window.DAY, sooner)).isEqualTo(60);
        // In T0's bucket, it leaves the day when a spend made at T0 does, not 24 h after it landed.
        assertThat(buckets.total(SpendBuckets.Window.DAY, Instant.parse("2026-04-02T12:00:00Z"))).isZero();
    }

    @Test
    void aSpendInTheFutureOfTheQueryIsNotCounted() {
        SpendBuckets buckets = new SpendBuckets();
        buckets.add(T0.plus(Duration.ofHours(1)), T0.plus(Duration.ofHours(1)), 70);

        assertThat(buckets.total(SpendBuckets.Window.DAY, T0)).isZero();
    }

    @Test
    void randomSpendsAreCountedWithinOneBucketOfTheExactWindow() {
        long seed = TestSeed.of("SimSpendBucketsTest", 20_260_401L);
        Random random = new Random(seed);
        SpendBuckets buckets = new SpendBuckets();
        List<Spend> spends = new ArrayList<>();
        Instant at = T0;
        int checks = 0;
        for (int i = 0; i < 1500; i++) {
            at = at.plusMillis(random.nextInt(random.nextInt(10) == 0 ? 36 * 3_600_000 : 2 * 3_600_000));
            Spend spend = new Spend(at, 1 + random.nextInt(1_000_000));
            buckets.add(spend.at(), spend.at(), spend.micros());
            spends.add(spend);
            for (int q = 0; q < 3; q++) {
                Instant now = at.plusMillis(random.nextInt(26 * 3_600_000));
                for (SpendBuckets.Window window : SpendBuckets.Window.values()) {
                    assertWithinOneBucket(buckets, spends, window, now, seed);
                    checks++;
                }
            }
        }
        assertThat(checks).isEqualTo(1500 * 3 * SpendBuckets.Window.values().length);
    }

    private static void assertWithinOneBucket(SpendBuckets buckets, List<Spend> spends, SpendBuckets.Window window,
                                              Instant now, long seed) {
        Duration length = Duration.ofMillis(window.bucketMillis * window.buckets);
        Duration bucket = Duration.ofMillis(window.bucketMillis);
        Instant windowStart = now.minus(length);
        // Exact: a spend exactly one window length old has left the window.
        List<Spend> inWindow = spends.stream().filter(s -> s.at().isAfter(windowStart) && !s.at().isAfter(now)).toList();
        List<Spend> atTheEdge = inWindow.stream().filter(s -> !s.at().isAfter(windowStart.plus(bucket))).toList();
        long exactTotal = inWindow.stream().mapToLong(Spend::micros).sum();
        long edgeTotal = atTheEdge.stream().mapToLong(Spend::micros).sum();
        String where = window + " at " + now + " (seed " + seed + ")";

        assertThat(buckets.total(window, now)).as("total of " + where)
                .isLessThanOrEqualTo(exactTotal)
                .isGreaterThanOrEqualTo(exactTotal - edgeTotal);
        assertThat((long) buckets.count(window, now)).as("count of " + where)
                .isLessThanOrEqualTo(inWindow.size())
                .isGreaterThanOrEqualTo(inWindow.size() - atTheEdge.size());
    }
}
