package com.agentwallet.core.webhook;

import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Transition;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.port.ReceiverGuard;
import com.agentwallet.core.port.ServiceMetrics;
import com.agentwallet.core.port.ServiceMetrics.DeliveryResult;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.port.WebhookTransport;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Delivers the outbox to webhooks. {@link #fanOut} turns each new event into one scheduled delivery
 * per webhook it is for; {@link #deliverNext} claims one due delivery under a lease in a short
 * transaction, posts it with no transaction open (a receiver may take seconds), then records the
 * attempt and the delivery's next state in another short transaction, if the lease is still its own.
 * A crash mid-attempt leaves the lease to run out, and the delivery is tried again: delivery is at
 * least once, receivers drop duplicates by the event's {@code id}, and a delivery whose lease was
 * taken over is recorded only by the claim that took it, so never twice.
 */
public final class WebhookDispatcher {
    private final Storage storage;
    private final WebhookTransport transport;
    private final ReceiverGuard receivers;
    private final WebhookLimits limits;
    private final Clock clock;
    private final ServiceMetrics metrics;

    /** A dispatcher that counts nothing ({@link ServiceMetrics#NONE}). */
    public WebhookDispatcher(Storage storage, WebhookTransport transport, ReceiverGuard receivers, WebhookLimits limits,
                             Clock clock) {
        this(storage, transport, receivers, limits, clock, ServiceMetrics.NONE);
    }

    public WebhookDispatcher(Storage storage, WebhookTransport transport, ReceiverGuard receivers, WebhookLimits limits,
                             Clock clock, ServiceMetrics metrics) {
        this.storage = requireNonNull(storage, "storage is null");
        this.transport = requireNonNull(transport, "transport is null");
        this.receivers = requireNonNull(receivers, "receivers is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    /** Schedules deliveries for up to {@code limit} new events; answers how many events it fanned out. */
    public int fanOut(int limit) {
        return storage.inTransaction(stores -> {
            if (!stores.deliveries().lockFanOut()) {
                return 0;
            }
            List<UnfannedEvent> events = stores.deliveries().unfanned(limit);
            Map<OrgId, List<Webhook>> webhooks = new HashMap<>();
            for (UnfannedEvent event : events) {
                for (Webhook webhook : webhooks.computeIfAbsent(event.orgId(), stores.deliveries()::liveWebhooks)) {
                    if (event.isFor(webhook)) {
                        stores.deliveries().schedule(Delivery.schedule(event.id(), webhook.id(), event.createdAt()));
                    }
                }
            }
            stores.deliveries().markFannedOut(events.stream().map(UnfannedEvent::id).toList());
            return events.size();
        });
    }

    /** Attempts the earliest due delivery the limits let this worker claim, if any; answers whether there was one. */
    public boolean deliverNext() {
        Optional<DueDelivery> claimed = storage.inTransaction(stores -> stores.deliveries().claim(clock.instant(),
                limits.lease(), limits.inFlightPerOrganisation()));
        claimed.ifPresent(due -> {
            Instant attemptedAt = clock.instant();
            DeliveryOutcome outcome = post(due);
            metrics.deliveryAttempted(storage.inTransaction(stores -> record(stores, due, attemptedAt, outcome)));
        });
        return claimed.isPresent();
    }

    /**
     * Answers what the attempt came to: {@code superseded}, and nothing recorded, when the lease ran
     * out and another claim took the delivery.
     */
    private DeliveryResult record(Stores stores, DueDelivery due, Instant attemptedAt, DeliveryOutcome outcome) {
        Instant now = clock.instant();
        Delivery next = DeliveryMachine.apply(due.delivery(), outcome.acknowledged()
                ? DeliveryMachine.Command.SUCCEEDED : DeliveryMachine.Command.FAILED, now).value().state();
        if (!stores.deliveries().settle(next, due.lease())) {
            return DeliveryResult.SUPERSEDED;
        }
        EventId eventId = due.event().id();
        stores.webhooks().insertAttempt(new DeliveryAttempt(eventId, due.event().type(), due.webhook().id(),
                next.attemptsMade(), outcome.statusCode(), outcome.error(), outcome.latencyMs(), attemptedAt,
                next.nextAttemptAt()));
        if (next.status() == DeliveryStatus.EXHAUSTED) {
            // Read again: the webhook may have been changed while the attempt was under way.
            stores.webhooks().lock(due.webhook().orgId(), due.webhook().id()).ifPresent(webhook -> {
                Result<Transition<Webhook>> degraded = WebhookMachine.apply(webhook,
                        WebhookMachine.Command.EVENT_EXHAUSTED, now);
                if (degraded.isOk()) {
                    stores.webhooks().update(degraded.value().state());
                }
            });
        }
        return switch (next.status()) {
            case DELIVERED -> DeliveryResult.DELIVERED;
            case EXHAUSTED -> DeliveryResult.GAVE_UP;
            case SCHEDULED -> DeliveryResult.FAILED_ATTEMPT;
        };
    }

    /** The receiver is checked again now, after DNS resolution, since its address may have changed. */
    private DeliveryOutcome post(DueDelivery due) {
        URI receiver = URI.create(due.webhook().url());
        try {
            receivers.requirePermitted(receiver);
        } catch (ValidationException refused) {
            return DeliveryOutcome.failed(refused.getMessage(), 0);
        }
        return transport.post(receiver, due.webhook().signingSecret(), due.event().body(),
                RetrySchedule.ACKNOWLEDGE_TIMEOUT);
    }
}
