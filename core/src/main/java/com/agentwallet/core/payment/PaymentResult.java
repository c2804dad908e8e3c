package com.agentwallet.core.payment;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A payment as it stands after the request, whether the request replayed an earlier one by its
 * idempotency key, and the response: on a replay, the first request's when it was recorded; on a
 * new payment, the answer it was paid with ({@link PaymentService#pay(PayCommand, Optional)}).
 */
public record PaymentResult(Transaction transaction, boolean replayed, Optional<RecordedResponse> response) {
    public PaymentResult {
        requireNonNull(transaction, "transaction is null");
        requireNonNull(response, "response is null");
    }
}
