package com.agentwallet.core.common;

import java.util.function.BooleanSupplier;

/** Background work done one claimed item at a time, each in a transaction of its own. */
public final class Repeat {
    private Repeat() {
    }

    /** Runs {@code step} until it reports that there was nothing to do, at most {@code limit} times; answers how often it did something. */
    public static int upTo(int limit, BooleanSupplier step) {
        int done = 0;
        while (done < limit && step.getAsBoolean()) {
            done++;
        }
        return done;
    }
}
