package com.agentwallet.bootstrap.api;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Waiting, with a bound, for what the running server does in the background (settling with the
 * ledger, generating an export, delivering a webhook): the probe is asked again every few
 * milliseconds until it answers, and the test fails with {@code what} once the bound has passed.
 */
final class Eventually {
    private static final Duration POLL = Duration.ofMillis(50);

    private Eventually() {
    }

    static <T> T await(Duration limit, Supplier<String> what, Supplier<Optional<T>> probe) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            Optional<T> answer = probe.get();
            if (answer.isPresent()) {
                return answer.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what.get() + " within " + limit);
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
