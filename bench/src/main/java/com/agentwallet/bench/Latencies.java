package com.agentwallet.bench;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Latencies of one measured run, recorded by any number of threads into one HdrHistogram in whole
 * microseconds with four significant digits: exact below 32.768 ms and within 0.01 % above, so the
 * figures printed in milliseconds with two decimals are those of the samples up to about 260 ms.
 * Percentiles are by nearest rank: the {@code p}th is the smallest sample with at least {@code p} %
 * of the samples at or below it.
 */
public final class Latencies {
    private static final int SIGNIFICANT_DIGITS = 4;

    private final Histogram micros = new ConcurrentHistogram(SIGNIFICANT_DIGITS);

    /** Records one latency; a negative one (a clock that stepped back) counts as zero. */
    public void record(long nanos) {
        micros.recordValue(Math.max(0, nanos) / 1000);
    }

    public long count() {
        return micros.getTotalCount();
    }

    /** The {@code percentile}th (0 to 100) latency in milliseconds; NaN when there is none. */
    public double ms(double percentile) {
        return count() == 0 ? Double.NaN : micros.getValueAtPercentile(percentile) / 1000.0;
    }

    /** The longest latency in milliseconds; NaN when there is none. */
    public double maxMs() {
        return count() == 0 ? Double.NaN : micros.getMaxValue() / 1000.0;
    }
}
