package com.agentwallet.core.payment;

import static java.util.Objects.requireNonNull;

/**
 * What a payment request answers: the payment, and whether the request replayed an earlier one by
 * its idempotency key; then the payment is as the first request answered it, when that is known.
 */
public record PaymentResult(Transaction transaction, boolean replayed) {
    public PaymentResult {
        requireNonNull(transaction, "transaction is null");
    }
}
