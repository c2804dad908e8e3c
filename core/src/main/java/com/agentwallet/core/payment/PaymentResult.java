package com.agentwallet.core.payment;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A payment as it stands after the request, whether the request replayed an earlier one by its
 * idempotency key, and, on a replay, the first request's response when it was recorded.
 */
public record PaymentResult(Transaction transaction, boolean replayed, Optional<RecordedResponse> recorded) {
    public PaymentResult {
        requireNonNull(transaction, "transaction is null");
        requireNonNull(recorded, "recorded is null");
        if (recorded.isPresent() && !replayed) {
            throw new IllegalArgumentException("only a replay answers a recorded response");
        }
    }
}
