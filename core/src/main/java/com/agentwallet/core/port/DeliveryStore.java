package com.agentwallet.core.port;

import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.webhook.Delivery;
import com.agentwallet.core.webhook.DueDelivery;
import com.agentwallet.core.webhook.UnfannedEvent;
import com.agentwallet.core.webhook.Webhook;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The way from the outbox to receivers: events are fanned out once into one delivery per
 * subscribed webhook, and due deliveries are claimed, under a lease, one at a time by whichever
 * server gets there first; the attempt itself is made outside any transaction.
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
     * Claims the due delivery of an active webhook to attempt next, earliest first, and leases it
     * until {@code now + lease}: one claim at a time over every process, and none of a webhook that
     * already has a delivery under a running lease, nor of an organisation that has
     * {@code inFlightPerOrganisation} of them. A delivery waits while an earlier event of the same
     * wallet to the same webhook is undelivered. A delivery whose lease ran out may be claimed again.
     */
    Optional<DueDelivery> claim(Instant now, Duration lease, int inFlightPerOrganisation);

    /**
     * Records the claimed delivery's next state and ends its lease, if the delivery is still under
     * {@code lease}; false, changing nothing, when the lease ran out and another claim took it over.
     */
    boolean settle(Delivery delivery, String lease);

    /** Writes a delivery that no claim holds (a requeue of an exhausted one). */
    void update(Delivery delivery);

    /** The webhook's deliveries that exhausted their attempts, to requeue when it is re-enabled. */
    List<Delivery> exhausted(WebhookId webhookId);
}
