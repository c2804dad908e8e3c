package com.agentwallet.bootstrap.metrics;

import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.port.ServiceMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The use cases' counts as Micrometer counters, one series per named value, all made up front so
 * that every series is there (at 0) from the first scrape: {@code agentwallet_payments_total{outcome}},
 * {@code agentwallet_payments_blocked_total{rule}}, {@code agentwallet_webhook_deliveries_total{outcome}}.
 * Counted in this process only.
 */
public final class MicrometerServiceMetrics implements ServiceMetrics {
    private final Map<TransactionStatus, Counter> payments;
    private final Map<ViolationRule, Counter> blocked;
    private final Map<DeliveryResult, Counter> deliveries;

    public MicrometerServiceMetrics(MeterRegistry registry) {
        payments = counters(TransactionStatus.class, status -> Counter.builder("agentwallet.payments")
                .description("New payment requests, by the state they were answered in")
                .tag("outcome", status.wireName()).register(registry));
        blocked = counters(ViolationRule.class, rule -> Counter.builder("agentwallet.payments.blocked")
                .description("New payments blocked, by the policy rule that blocked them")
                .tag("rule", rule.wireName()).register(registry));
        deliveries = counters(DeliveryResult.class, result -> Counter.builder("agentwallet.webhook.deliveries")
                .description("Webhook delivery attempts, by what each came to")
                .tag("outcome", result.wireName()).register(registry));
    }

    private static <E extends Enum<E>> Map<E, Counter> counters(Class<E> type, Function<E, Counter> counter) {
        Map<E, Counter> counters = new EnumMap<>(type);
        Arrays.stream(type.getEnumConstants()).forEach(constant -> counters.put(constant, counter.apply(constant)));
        return counters;
    }

    @Override
    public void paymentAnswered(TransactionStatus outcome) {
        payments.get(outcome).increment();
    }

    @Override
    public void paymentBlocked(ViolationRule rule) {
        blocked.get(rule).increment();
    }

    @Override
    public void deliveryAttempted(DeliveryResult result) {
        deliveries.get(result).increment();
    }
}
