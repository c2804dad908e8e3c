package com.agentwallet.adapters.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The on-chain program's model of the rolling windows, in fixed space as an account must be: per
 * window a ring of time buckets (hour: 60 × 1 min, day: 96 × 15 min, month: 30 × 1 day). A window's
 * total counts the buckets that lie wholly inside it, so it never counts a spend older than the
 * window and may leave out at most one bucket's worth at the far edge: the chain is a backstop
 * that is never stricter than the service's exact check, and never lets a cap be exceeded by more
 * than one bucket.
 *
 * <p>A spend counts at an instant of its own ({@code countedAt}): when it lands, or, for a co-signed
 * payment, when the books held it. A window still holding that instant checks it and keeps it in that
 * instant's bucket; a window that no longer holds it neither checks nor keeps it.
 */
final class SpendBuckets {
    enum Window {
        HOUR(60, Duration.ofMinutes(1)), DAY(96, Duration.ofMinutes(15)), MONTH(30, Duration.ofDays(1));

        final int buckets;
        final long bucketMillis;

        Window(int buckets, Duration bucket) {
            this.buckets = buckets;
            this.bucketMillis = bucket.toMillis();
        }

        Duration length() {
            return Duration.ofMillis(buckets * bucketMillis);
        }
    }

    private final long[][] epochs = new long[Window.values().length][];
    private final long[][] amounts = new long[Window.values().length][];
    private final int[][] counts = new int[Window.values().length][];

    SpendBuckets() {
        for (Window window : Window.values()) {
            epochs[window.ordinal()] = new long[window.buckets];
            amounts[window.ordinal()] = new long[window.buckets];
            counts[window.ordinal()] = new int[window.buckets];
            Arrays.fill(epochs[window.ordinal()], -1);
        }
    }

    /** Adds a spend counted at {@code countedAt} to each window that still {@link #holds holds} it at {@code now}. */
    void add(Instant countedAt, Instant now, long micros) {
        for (Window window : Window.values()) {
            if (!holds(window, countedAt, now)) {
                continue;
            }
            int w = window.ordinal();
            long epoch = countedAt.toEpochMilli() / window.bucketMillis;
            int slot = (int) (epoch % window.buckets);
            if (epochs[w][slot] != epoch) {
                epochs[w][slot] = epoch;
                amounts[w][slot] = 0;
                counts[w][slot] = 0;
            }
            amounts[w][slot] += micros;
            counts[w][slot]++;
        }
    }

    /** Takes a spend back out (a refunded escrow), from the buckets that still hold it. */
    void remove(Instant at, long micros) {
        for (Window window : Window.values()) {
            int w = window.ordinal();
            long epoch = at.toEpochMilli() / window.bucketMillis;
            int slot = (int) (epoch % window.buckets);
            if (epochs[w][slot] == epoch) {
                amounts[w][slot] = Math.max(0, amounts[w][slot] - micros);
                counts[w][slot] = Math.max(0, counts[w][slot] - 1);
            }
        }
    }

    /** Whether {@code window} at {@code now} counts a spend counted at {@code countedAt}: its bucket is among those counted. */
    static boolean holds(Window window, Instant countedAt, Instant now) {
        long bucket = countedAt.toEpochMilli() / window.bucketMillis;
        return bucket > now.toEpochMilli() / window.bucketMillis - window.buckets;
    }

    long total(Window window, Instant now) {
        long sum = 0;
        for (int slot : live(window, now)) {
            sum += amounts[window.ordinal()][slot];
        }
        return sum;
    }

    int count(Window window, Instant now) {
        int sum = 0;
        for (int slot : live(window, now)) {
            sum += counts[window.ordinal()][slot];
        }
        return sum;
    }

    /** The slots whose bucket lies in the window ending at {@code now}: the current bucket and the n−1 before it. */
    private int[] live(Window window, Instant now) {
        int w = window.ordinal();
        long current = now.toEpochMilli() / window.bucketMillis;
        return IntStream.range(0, window.buckets)
                .filter(slot -> epochs[w][slot] > current - window.buckets && epochs[w][slot] <= current)
                .toArray();
    }
}
