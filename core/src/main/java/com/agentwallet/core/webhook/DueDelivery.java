package com.agentwallet.core.webhook;

import static java.util.Objects.requireNonNull;

/**
 * A delivery whose attempt is due, claimed for one worker, with its webhook and its event. {@code lease}
 * names the claim: the outcome is recorded only while the delivery is still under this lease.
 */
public record DueDelivery(Delivery delivery, Webhook webhook, StoredEvent event, String lease) {
    public DueDelivery {
        requireNonNull(delivery, "delivery is null");
        requireNonNull(webhook, "webhook is null");
        requireNonNull(event, "event is null");
        requireNonNull(lease, "lease is null");
    }
}
