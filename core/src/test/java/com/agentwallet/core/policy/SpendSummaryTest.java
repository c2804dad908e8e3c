package com.agentwallet.core.policy;

import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SpendSummaryTest {
    private static final Instant T0 = Instant.parse("2026-04-01T12:00:00Z");
    private static final Duration MS = Duration.ofMillis(1);

    private final RandomIdGenerator ids = new RandomIdGenerator(new Random(7));

    @Test
    void theEmptySummaryMovedToNowHasEmptyWindowsEndingAWindowLengthAgo() {
        SpendSummary summary = SpendSummary.EMPTY.advanceTo(T0, List.of());
        assertThat(summary).isEqualTo(new SpendSummary(Usdc.ZERO, Usdc.ZERO, 0,
                T0.minus(Duration.ofHours(24)), T0.minus(Duration.ofDays(30)), T0.minus(Duration.ofMinutes(60))));
    }

    @Test
    void aNewSpendCountsInEveryWindow() {
        SpendSummary summary = SpendSummary.EMPTY.advanceTo(T0, List.of()).plus(spend(T0, "10.50"));
        assertThat(summary.day()).isEqualTo(Usdc.parse("10.50"));
        assertThat(summary.month()).isEqualTo(Usdc.parse("10.50"));
        assertThat(summary.hourCount()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SpendWindow.class)
    void aSpendOneMillisecondShortOfTheWindowLengthOldIsStillIn(SpendWindow window) {
        SpendEntry entry = spend(T0, "10.00");
        SpendSummary summary = SpendSummary.EMPTY.advanceTo(T0, List.of()).plus(entry)
                .advanceTo(T0.plus(window.length()).minus(MS), List.of(entry));
        assertThat(total(summary, window)).isEqualTo(contribution(window, entry));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SpendWindow.class)
    void aSpendExactlyTheWindowLengthOldHasLeft(SpendWindow window) {
        SpendEntry entry = spend(T0, "10.00");
        SpendSummary summary = SpendSummary.EMPTY.advanceTo(T0, List.of()).plus(entry)
                .advanceTo(T0.plus(window.length()), List.of(entry));
        assertThat(total(summary, window)).isZero();
        assertThat(summary.cutoff(window)).isEqualTo(T0);
    }

    @Test
    void windowsEmptyOneAfterTheOther() {
        SpendEntry entry = spend(T0, "10.00");
        SpendSummary start = SpendSummary.EMPTY.advanceTo(T0, List.of()).plus(entry);

        SpendSummary afterAnHour = start.advanceTo(T0.plus(Duration.ofMinutes(60)), List.of(entry));
        assertThat(afterAnHour.hourCount()).isZero();
        assertThat(afterAnHour.day()).isEqualTo(Usdc.parse("10.00"));
        assertThat(afterAnHour.month()).isEqualTo(Usdc.parse("10.00"));

        SpendSummary afterADay = afterAnHour.advanceTo(T0.plus(Duration.ofHours(24)), List.of(entry));
        assertThat(afterADay.day()).isEqualTo(Usdc.ZERO);
        assertThat(afterADay.month()).isEqualTo(Usdc.parse("10.00"));

        SpendSummary afterAMonth = afterADay.advanceTo(T0.plus(Duration.ofDays(30)), List.of(entry));
        assertThat(afterAMonth).isEqualTo(SpendSummary.EMPTY.advanceTo(T0.plus(Duration.ofDays(30)), List.of()));
    }

    @Test
    void leavingByNamesTheRangesBetweenTheOldAndNewCutoffs() {
        SpendSummary summary = SpendSummary.EMPTY.advanceTo(T0, List.of());
        Instant later = T0.plus(Duration.ofMinutes(90));
        assertThat(summary.leavingBy(later)).containsExactlyInAnyOrder(
                new TimeRange(T0.minus(Duration.ofMinutes(60)), later.minus(Duration.ofMinutes(60))),
                new TimeRange(T0.minus(Duration.ofHours(24)), later.minus(Duration.ofHours(24))),
                new TimeRange(T0.minus(Duration.ofDays(30)), later.minus(Duration.ofDays(30))));
        assertThat(summary.leavingBy(T0)).isEmpty();
        assertThat(summary.leavingBy(T0.minus(Duration.ofHours(5)))).isEmpty();
    }

    @Test
    void advanceToOnlySubtractsSpendsThatCrossACutoff() {
        SpendEntry longGone = spend(T0.minus(Duration.ofDays(40)), "1000.00");
        SpendEntry twoDaysOld = spend(T0.minus(Duration.ofDays(2)), "100.00");
        SpendEntry halfAnHourOld = spend(T0.minus(Duration.ofMinutes(30)), "10.00");
        SpendEntry fresh = spend(T0, "1.00");
        SpendSummary summary = recompute(T0, List.of(twoDaysOld, halfAnHourOld, fresh));
        assertThat(summary.month()).isEqualTo(Usdc.parse("111.00"));

        SpendSummary moved = summary.advanceTo(T0.plus(Duration.ofMinutes(30)),
                List.of(longGone, twoDaysOld, halfAnHourOld, fresh));

        assertThat(moved.hourCount()).as("only the half-hour-old spend crossed the hour cutoff").isEqualTo(1);
        assertThat(moved.day()).as("the two-day-old spend had already left the day").isEqualTo(Usdc.parse("11.00"));
        assertThat(moved.month()).as("nothing crossed the month cutoff").isEqualTo(Usdc.parse("111.00"));
    }

    @Test
    void cutoffsNeverMoveBackwardsWhenTheClockStepsBack() {
        SpendEntry entry = spend(T0.minus(Duration.ofHours(23)), "50.00");
        SpendSummary summary = recompute(T0, List.of(entry));
        assertThat(summary.day()).isEqualTo(Usdc.parse("50.00"));

        SpendSummary later = summary.advanceTo(T0.plus(Duration.ofHours(2)), List.of(entry));
        assertThat(later.day()).isEqualTo(Usdc.ZERO);

        SpendSummary steppedBack = later.advanceTo(T0.minus(Duration.ofHours(1)), List.of(entry));
        assertThat(steppedBack).as("an old spend does not come back").isEqualTo(later);
        assertThat(later.leavingBy(T0.minus(Duration.ofHours(1)))).isEmpty();

        SpendSummary forwardAgain = steppedBack.advanceTo(T0.plus(Duration.ofHours(3)), List.of(entry));
        assertThat(forwardAgain.day()).as("a spend is subtracted once").isEqualTo(Usdc.ZERO);
        assertThat(forwardAgain.dayCutoff()).isEqualTo(T0.plus(Duration.ofHours(3)).minus(Duration.ofHours(24)));
    }

    static Stream<Arguments> spendAges() {
        return Stream.of(
                Arguments.of(Duration.ZERO),
                Arguments.of(Duration.ofMinutes(60).minus(MS)),
                Arguments.of(Duration.ofMinutes(60)),
                Arguments.of(Duration.ofHours(24).minus(MS)),
                Arguments.of(Duration.ofHours(24)),
                Arguments.of(Duration.ofDays(30).minus(MS)),
                Arguments.of(Duration.ofDays(30)),
                Arguments.of(Duration.ofDays(31)));
    }

    @ParameterizedTest(name = "spend {0} old")
    @MethodSource("spendAges")
    void plusCountsASpendInExactlyTheWindowsItFallsIn(Duration age) {
        SpendSummary base = recompute(T0, List.of(spend(T0.minus(Duration.ofMinutes(5)), "3.00")));
        SpendEntry entry = spend(T0.minus(age), "7.25");
        SpendSummary added = base.plus(entry);
        for (SpendWindow window : SpendWindow.values()) {
            long expected = age.compareTo(window.length()) < 0 ? contribution(window, entry) : 0;
            assertThat(total(added, window) - total(base, window)).as(window.name()).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "spend {0} old")
    @MethodSource("spendAges")
    void minusUndoesPlus(Duration age) {
        SpendSummary base = recompute(T0, List.of(spend(T0.minus(Duration.ofMinutes(5)), "3.00")));
        SpendEntry entry = spend(T0.minus(age), "7.25");
        assertThat(base.plus(entry).minus(entry)).isEqualTo(base);
    }

    @Test
    void givingBackMoreThanWasCountedIsRefusedRatherThanGoingNegative() {
        SpendSummary empty = SpendSummary.EMPTY.advanceTo(T0, List.of());
        assertThatThrownBy(() -> empty.minus(spend(T0, "1.00"))).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * The invariant from both sides: after any sequence of moves (forward, exactly by a window
     * length, backward), spends and give-backs, each total equals the sum (the count for the hour)
     * of the logged spends after the window's cutoff.
     */
    @Test
    void totalsAlwaysEqualARecomputationFromTheLog() {
        long seed = TestSeed.of("SpendSummaryTest.totalsAlwaysEqualARecomputationFromTheLog", 0x5EED_2026L);
        Random random = new Random(seed);
        List<Duration> steps = List.of(MS, Duration.ofMinutes(1), Duration.ofMinutes(60), Duration.ofMinutes(60).minus(MS),
                Duration.ofMinutes(60).plus(MS), Duration.ofHours(24), Duration.ofHours(24).minus(MS), Duration.ofDays(30),
                Duration.ofDays(30).minus(MS), Duration.ofDays(3));
        Instant now = T0;
        Instant latest = T0;
        SpendSummary summary = SpendSummary.EMPTY.advanceTo(now, List.of());
        List<SpendEntry> log = new ArrayList<>();

        for (int step = 0; step < 5_000; step++) {
            int choice = random.nextInt(100);
            if (choice < 40) {
                Duration by = random.nextBoolean() ? steps.get(random.nextInt(steps.size()))
                        : Duration.ofMillis(random.nextInt(3 * 3_600_000));
                now = random.nextInt(10) == 0 ? now.minus(by) : now.plus(by);
                latest = now.isAfter(latest) ? now : latest;
                List<SpendEntry> leaving = random.nextBoolean() ? inRanges(log, summary.leavingBy(now)) : log;
                summary = summary.advanceTo(now, leaving);
            } else if (choice < 85 || log.isEmpty()) {
                SpendEntry entry = new SpendEntry(ids.tx(), now, Usdc.ofMicros(1 + random.nextInt(500_000_000)));
                log.add(entry);
                summary = summary.plus(entry);
            } else {
                SpendEntry entry = log.remove(random.nextInt(log.size()));
                summary = summary.minus(entry);
            }
            String context = "seed " + seed + ", step " + step;
            assertThat(summary).as(context).isEqualTo(recompute(latest, log));
        }
    }

    /**
     * The summary of {@code log} summed from scratch, with the cutoffs of the latest instant the
     * clock reached: the reference the incremental summary must match.
     */
    private static SpendSummary recompute(Instant latest, List<SpendEntry> log) {
        Instant day = latest.minus(SpendWindow.DAY.length());
        Instant month = latest.minus(SpendWindow.MONTH.length());
        Instant hour = latest.minus(SpendWindow.HOUR.length());
        long dayMicros = 0;
        long monthMicros = 0;
        int hourCount = 0;
        for (SpendEntry entry : log) {
            dayMicros += entry.at().isAfter(day) ? entry.amount().micros() : 0;
            monthMicros += entry.at().isAfter(month) ? entry.amount().micros() : 0;
            hourCount += entry.at().isAfter(hour) ? 1 : 0;
        }
        return new SpendSummary(Usdc.ofMicros(dayMicros), Usdc.ofMicros(monthMicros), hourCount, day, month, hour);
    }

    private static List<SpendEntry> inRanges(List<SpendEntry> log, List<TimeRange> ranges) {
        return log.stream().filter(entry -> ranges.stream().anyMatch(range -> range.contains(entry.at()))).toList();
    }

    private static long total(SpendSummary summary, SpendWindow window) {
        return switch (window) {
            case HOUR -> summary.hourCount();
            case DAY -> summary.day().micros();
            case MONTH -> summary.month().micros();
        };
    }

    private static long contribution(SpendWindow window, SpendEntry entry) {
        return window == SpendWindow.HOUR ? 1 : entry.amount().micros();
    }

    private SpendEntry spend(Instant at, String amount) {
        return new SpendEntry(ids.tx(), at, Usdc.parse(amount));
    }
}
