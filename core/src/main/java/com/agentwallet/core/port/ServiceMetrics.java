package com.agentwallet.core.port;

import com.agentwallet.core.common.WireNamed;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.ViolationRule;

/**
 * What only the use cases know, counted for the operator: how payment requests were answered, which
 * rule blocked a payment, what became of each webhook delivery attempt. Every argument is one of a
 * few named values, never an id. Implementations count without blocking and never throw.
 */
public interface ServiceMetrics {

    /** Counts nothing: for tests and tools that do not report metrics. */
    ServiceMetrics NONE = new ServiceMetrics() {
        @Override
        public void paymentAnswered(TransactionStatus outcome) {
        }

        @Override
        public void paymentBlocked(ViolationRule rule) {
        }

        @Override
        public void deliveryAttempted(DeliveryResult result) {
        }
    };

    /** A new payment (not a replay of its idempotency key) was answered in state {@code outcome}. */
    void paymentAnswered(TransactionStatus outcome);

    /** A new payment was blocked by {@code rule} (it is also answered {@code blocked}). */
    void paymentBlocked(ViolationRule rule);

    /** One attempt of a webhook delivery ended as {@code result}. */
    void deliveryAttempted(DeliveryResult result);

    /** What one delivery attempt came to. */
    enum DeliveryResult implements WireNamed {
        /** The receiver acknowledged the event. */
        DELIVERED,
        /** The attempt failed; another is scheduled. */
        FAILED_ATTEMPT,
        /** The last attempt failed; the delivery is exhausted. */
        GAVE_UP,
        /** The attempt's lease ran out and another claim took the delivery over: its outcome was not recorded. */
        SUPERSEDED
    }
}
