package com.agentwallet.core.webhook;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What one POST to a receiver came to: its status code (none on a timeout or a connection failure),
 * what went wrong, and how long it took. Only a 2xx acknowledges the event.
 */
public record DeliveryOutcome(Optional<Integer> statusCode, Optional<String> error, long latencyMs) {
    public DeliveryOutcome {
        requireNonNull(statusCode, "statusCode is null");
        requireNonNull(error, "error is null");
    }

    public static DeliveryOutcome answered(int statusCode, long latencyMs) {
        return new DeliveryOutcome(Optional.of(statusCode), statusCode / 100 == 2 ? Optional.empty()
                : Optional.of("receiver answered " + statusCode), latencyMs);
    }

    public static DeliveryOutcome failed(String error, long latencyMs) {
        return new DeliveryOutcome(Optional.empty(), Optional.of(error), latencyMs);
    }

    public boolean acknowledged() {
        return statusCode.filter(code -> code / 100 == 2).isPresent();
    }
}
