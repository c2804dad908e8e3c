package com.agentwallet.core.payment;

import static java.util.Objects.requireNonNull;

/** A payment as it stands after the request, and whether the request replayed an earlier one by its idempotency key. */
public record PaymentResult(Transaction transaction, boolean replayed) {
    public PaymentResult {
        requireNonNull(transaction, "transaction is null");
    }
}
