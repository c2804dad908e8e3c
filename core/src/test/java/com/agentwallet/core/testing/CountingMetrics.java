package com.agentwallet.core.testing;

import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.port.ServiceMetrics;

import java.util.ArrayList;
import java.util.List;

/** Remembers every count, in order. */
public final class CountingMetrics implements ServiceMetrics {
    public final List<TransactionStatus> payments = new ArrayList<>();
    public final List<ViolationRule> blocked = new ArrayList<>();
    public final List<DeliveryResult> deliveries = new ArrayList<>();

    @Override
    public synchronized void paymentAnswered(TransactionStatus outcome) {
        payments.add(outcome);
    }

    @Override
    public synchronized void paymentBlocked(ViolationRule rule) {
        blocked.add(rule);
    }

    @Override
    public synchronized void deliveryAttempted(DeliveryResult result) {
        deliveries.add(result);
    }
}
