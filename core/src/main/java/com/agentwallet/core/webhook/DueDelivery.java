package com.agentwallet.core.webhook;

import static java.util.Objects.requireNonNull;

/** A delivery whose attempt is due, locked for the dispatcher, with its webhook and its event. */
public record DueDelivery(Delivery delivery, Webhook webhook, StoredEvent event) {
    public DueDelivery {
        requireNonNull(delivery, "delivery is null");
        requireNonNull(webhook, "webhook is null");
        requireNonNull(event, "event is null");
    }
}
