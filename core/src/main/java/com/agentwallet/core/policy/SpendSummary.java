package com.agentwallet.core.policy;

import com.agentwallet.core.money.Usdc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A wallet's running totals in its three rolling windows, kept exact without summing history:
 * each window has a cutoff (spends at or before it have left) and the total of the spends after
 * it. Moving to a later instant subtracts only the spends that crossed a cutoff since the last
 * move, so the cost of a check is independent of how many spends are in the windows; each spend
 * is added once and subtracted once per window.
 *
 * <p>Invariant, checked by the tests from two sides: for every window, the total equals the sum
 * (for {@link SpendWindow#HOUR}, the count) of the logged spends after its cutoff.
 */
public record SpendSummary(Usdc day, Usdc month, int hourCount, Instant dayCutoff, Instant monthCutoff, Instant hourCutoff) {

    public static final SpendSummary EMPTY =
            new SpendSummary(Usdc.ZERO, Usdc.ZERO, 0, Instant.EPOCH, Instant.EPOCH, Instant.EPOCH);

    public SpendSummary {
        requireNonNull(day, "day is null");
        requireNonNull(month, "month is null");
        requireNonNull(dayCutoff, "dayCutoff is null");
        requireNonNull(monthCutoff, "monthCutoff is null");
        requireNonNull(hourCutoff, "hourCutoff is null");
        if (hourCount < 0) {
            throw new IllegalArgumentException("negative hour count: " + hourCount);
        }
    }

    public Instant cutoff(SpendWindow window) {
        return switch (window) {
            case HOUR -> hourCutoff;
            case DAY -> dayCutoff;
            case MONTH -> monthCutoff;
        };
    }

    /** The ranges of spend times that leave a window when moving to {@code now}: what to read from the log. */
    public List<TimeRange> leavingBy(Instant now) {
        List<TimeRange> ranges = new ArrayList<>(SpendWindow.values().length);
        for (SpendWindow window : SpendWindow.values()) {
            TimeRange range = new TimeRange(cutoff(window), nextCutoff(window, now));
            if (!range.isEmpty()) {
                ranges.add(range);
            }
        }
        return ranges;
    }

    /**
     * The summary at {@code now}, given the logged spends in {@link #leavingBy(Instant)} (more may
     * be passed; only those that cross a cutoff count). Cutoffs never move backwards, so a clock
     * that steps back does not bring old spends back.
     */
    public SpendSummary advanceTo(Instant now, List<SpendEntry> leaving) {
        TimeRange leavingDay = new TimeRange(dayCutoff, nextCutoff(SpendWindow.DAY, now));
        TimeRange leavingMonth = new TimeRange(monthCutoff, nextCutoff(SpendWindow.MONTH, now));
        TimeRange leavingHour = new TimeRange(hourCutoff, nextCutoff(SpendWindow.HOUR, now));
        long dayMicros = day.micros();
        long monthMicros = month.micros();
        int hours = hourCount;
        for (SpendEntry entry : leaving) {
            if (leavingDay.contains(entry.at())) {
                dayMicros -= entry.amount().micros();
            }
            if (leavingMonth.contains(entry.at())) {
                monthMicros -= entry.amount().micros();
            }
            if (leavingHour.contains(entry.at())) {
                hours--;
            }
        }
        return new SpendSummary(Usdc.ofMicros(dayMicros), Usdc.ofMicros(monthMicros), hours,
                leavingDay.until(), leavingMonth.until(), leavingHour.until());
    }

    /** The summary with a new spend counted in every window it falls in. */
    public SpendSummary plus(SpendEntry entry) {
        return adjust(entry, 1);
    }

    /** The summary with a spend given back (a rejected, expired or failed payment, a refunded escrow). */
    public SpendSummary minus(SpendEntry entry) {
        return adjust(entry, -1);
    }

    private SpendSummary adjust(SpendEntry entry, int sign) {
        long amount = sign * entry.amount().micros();
        long dayMicros = entry.at().isAfter(dayCutoff) ? Math.addExact(day.micros(), amount) : day.micros();
        long monthMicros = entry.at().isAfter(monthCutoff) ? Math.addExact(month.micros(), amount) : month.micros();
        int hours = entry.at().isAfter(hourCutoff) ? hourCount + sign : hourCount;
        return new SpendSummary(Usdc.ofMicros(dayMicros), Usdc.ofMicros(monthMicros), hours,
                dayCutoff, monthCutoff, hourCutoff);
    }

    private Instant nextCutoff(SpendWindow window, Instant now) {
        Instant candidate = now.minus(window.length());
        Instant current = cutoff(window);
        return candidate.isAfter(current) ? candidate : current;
    }
}
