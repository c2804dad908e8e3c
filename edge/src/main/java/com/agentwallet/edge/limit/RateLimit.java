package com.agentwallet.edge.limit;

/** A token bucket's shape: refilled at {@code perSecond}, holding at most {@code burst}. */
public record RateLimit(long perSecond, long burst) {
    public static final RateLimit DEFAULT = new RateLimit(50, 200);

    public RateLimit {
        if (perSecond < 1 || burst < 1) {
            throw new IllegalArgumentException("rate limits need a positive rate and burst: " + perSecond + "/" + burst);
        }
    }
}
