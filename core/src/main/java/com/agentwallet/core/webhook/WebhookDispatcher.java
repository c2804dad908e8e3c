package com.agentwallet.core.webhook;

import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Transition;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.port.ReceiverGuard;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.port.WebhookTransport;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Delivers the outbox to webhooks. {@link #fanOut} turns each new event into one scheduled delivery
 * per webhook it is for; {@link #deliverNext} claims one due delivery, posts it, and records the
 * attempt and the delivery's next state in the same transaction that holds the claim. A crash
 * mid-attempt leaves the delivery scheduled, so it is tried again: delivery is at least once, and
 * receivers drop duplicates by the event's {@code id}.
 */
public final class WebhookDispatcher {
    private final Storage storage;
    private final WebhookTransport transport;
    private final ReceiverGuard receivers;
    private final Clock clock;

    public WebhookDispatcher(Storage storage, WebhookTransport transport, ReceiverGuard receivers, Clock clock) {
        this.storage = requireNonNull(storage, "storage is null");
        this.transport = requireNonNull(transport, "transport is null");
        this.receivers = requireNonNull(receivers, "receivers is null");
        this.clock = requireNonNull(clock, "clock is null");
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

    /** Attempts the earliest due delivery, if any; answers whether there was one. */
    public boolean deliverNext() {
        return storage.inTransaction(stores -> {
            List<DueDelivery> due = stores.deliveries().claimDue(clock.instant(), 1);
            due.forEach(delivery -> attempt(stores, delivery));
            return !due.isEmpty();
        });
    }

    private void attempt(Stores stores, DueDelivery due) {
        Instant attemptedAt = clock.instant();
        DeliveryOutcome outcome = post(due);
        Instant now = clock.instant();
        Delivery next = DeliveryMachine.apply(due.delivery(), outcome.acknowledged()
                ? DeliveryMachine.Command.SUCCEEDED : DeliveryMachine.Command.FAILED, now).value().state();
        stores.deliveries().update(next);
        EventId eventId = due.event().id();
        stores.webhooks().insertAttempt(new DeliveryAttempt(eventId, due.event().type(), due.webhook().id(),
                next.attemptsMade(), outcome.statusCode(), outcome.error(), outcome.latencyMs(), attemptedAt,
                next.nextAttemptAt()));
        if (next.status() == DeliveryStatus.EXHAUSTED) {
            Result<Transition<Webhook>> degraded = WebhookMachine.apply(due.webhook(),
                    WebhookMachine.Command.EVENT_EXHAUSTED, now);
            if (degraded.isOk()) {
                stores.webhooks().update(degraded.value().state());
            }
        }
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
