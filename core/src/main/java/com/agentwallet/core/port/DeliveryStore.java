package com.agentwallet.core.port;

import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.webhook.Delivery;
import com.agentwallet.core.webhook.DueDelivery;
import com.agentwallet.core.webhook.UnfannedEvent;
import com.agentwallet.core.webhook.Webhook;

import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * The way from the outbox to receivers: events are fanned out once into one delivery per
 * subscribed webhook, and due deliveries are claimed one at a time by whichever server gets there
 * first.
 */
public interface DeliveryStore {

    /**
     * Takes the fan-out for this transaction; false when another process holds it. One fan-out at
     * a time keeps each wallet's events scheduled in the order they were written.
     */
    boolean lockFanOut();

    /**
     * Events to fan out, oldest first. An event whose turn has not come yet (one written before it
     * may still be in flight) is left for later, and one already fanned out may be answered again:
     * scheduling it again changes nothing.
     */
    List<UnfannedEvent> unfanned(int limit);

    /** Records that the events {@link #unfanned} answered in this unit of work are fanned out. */
    void markFannedOut(Collection<EventId> events);

    /** The organisation's webhooks that are not deleted, active or degraded. */
    List<Webhook> liveWebhooks(OrgId orgId);

    /** Schedules a delivery; one already scheduled for the same event and webhook is left as it is. */
    void schedule(Delivery delivery);

    /**
     * Due deliveries of active webhooks, earliest first, locked and skipped by other claimants; a
     * delivery waits while an earlier event of the same wallet to the same webhook is undelivered.
     */
    List<DueDelivery> claimDue(Instant now, int limit);

    void update(Delivery delivery);

    /** The webhook's deliveries that exhausted their attempts, to requeue when it is re-enabled. */
    List<Delivery> exhausted(WebhookId webhookId);
}
