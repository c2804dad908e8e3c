package com.agentwallet.core.webhook;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.EventId;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.port.ReceiverGuard;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Use cases of webhooks: register, read, change, re-enable, delete, send a test event, and read the
 * delivery history. Delivering is the dispatcher's work, from the outbox.
 */
public final class WebhookService {
    private final Storage storage;
    private final ReceiverGuard receivers;
    private final EventPublisher events;
    private final IdGenerator ids;
    private final WebhookLimits limits;
    private final Clock clock;

    public WebhookService(Storage storage, ReceiverGuard receivers, EventPublisher events, IdGenerator ids,
                          WebhookLimits limits, Clock clock) {
        this.storage = requireNonNull(storage, "storage is null");
        this.receivers = requireNonNull(receivers, "receivers is null");
        this.events = requireNonNull(events, "events is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Registers an active webhook with a new signing secret; the receiver is checked before anything is
     * written. A replay of {@code key} answers the webhook it made, as it is now. An organisation that
     * has its limit of webhooks gets none more (invalid state); the organisation is locked while its
     * webhooks are counted, so two creations at once cannot both take the last place.
     */
    public Result<Webhook> create(OrgId orgId, String url, Collection<String> eventNames, RequestKey key) {
        Subscription subscription = Subscription.parse(eventNames);
        requirePermitted(url);
        Instant now = clock.instant();
        Webhook webhook = new Webhook(ids.webhook(), orgId, url, subscription,
                Webhook.SECRET_PREFIX + ids.randomPart() + ids.randomPart(), WebhookStatus.ACTIVE, now, now);
        return storage.inTransaction(stores -> key.once(stores, now, () -> {
            stores.organisations().lock(orgId);
            if (stores.deliveries().liveWebhooks(orgId).size() >= limits.perOrganisation()) {
                return Result.<Webhook>refused(new Rejection.InvalidState("The organisation already has "
                        + limits.perOrganisation() + " webhooks, its limit; delete one before creating another"));
            }
            stores.webhooks().insert(webhook);
            return Result.ok(webhook);
        }, made -> made.id().value(), subject -> Result.found(stores.webhooks().find(orgId, new WebhookId(subject)),
                "webhook", new WebhookId(subject))));
    }

    public Result<Webhook> get(OrgId orgId, WebhookId webhookId) {
        return storage.inTransaction(stores -> Result.found(stores.webhooks().find(orgId, webhookId), "webhook", webhookId));
    }

    public Page<Webhook> list(OrgId orgId, PageRequest page) {
        return storage.inTransaction(stores -> stores.webhooks().list(orgId, page));
    }

    /**
     * Applies a PATCH. The only status a user may set is {@code active}: on a degraded webhook it
     * re-enables it and requeues what exhausted its attempts, on an active one it changes nothing
     * (clients repeat it to make sure). A patch that changes nothing writes nothing.
     */
    public Result<Webhook> update(OrgId orgId, WebhookId webhookId, Optional<String> url,
                                  Optional<Collection<String>> eventNames, Optional<WebhookStatus> status) {
        if (status.isPresent() && status.get() != WebhookStatus.ACTIVE) {
            return Result.refused(new Rejection.InvalidInput("status",
                    "'status' can only be set to active; a webhook is degraded by failed deliveries"));
        }
        Optional<Subscription> subscription = eventNames.map(Subscription::parse);
        url.ifPresent(this::requirePermitted);
        return storage.inTransaction(stores -> Result.found(stores.webhooks().lock(orgId, webhookId), "webhook", webhookId)
                .map(current -> {
                    Instant now = clock.instant();
                    Webhook changed = current.withTarget(url.orElse(current.url()),
                            subscription.orElse(current.subscription()), now);
                    if (status.isPresent() && current.status() == WebhookStatus.DEGRADED) {
                        changed = WebhookMachine.apply(changed, WebhookMachine.Command.REENABLE, now).value().state();
                        requeueExhausted(stores, webhookId, now);
                    }
                    if (changed.url().equals(current.url()) && changed.subscription().equals(current.subscription())
                            && changed.status() == current.status()) {
                        return current;
                    }
                    stores.webhooks().update(changed);
                    return changed;
                }));
    }

    /** Re-enabling delivers what waited: exhausted deliveries start a fresh schedule, due at once. */
    private static void requeueExhausted(Stores stores, WebhookId webhookId, Instant now) {
        for (Delivery exhausted : stores.deliveries().exhausted(webhookId)) {
            stores.deliveries().update(DeliveryMachine.apply(exhausted, DeliveryMachine.Command.REQUEUE, now)
                    .value().state());
        }
    }

    /** Soft-deletes the webhook: it is found no more and receives nothing, its history stays. */
    public Result<Webhook> delete(OrgId orgId, WebhookId webhookId) {
        return storage.inTransaction(stores -> Result.found(stores.webhooks().lock(orgId, webhookId), "webhook", webhookId)
                .map(webhook -> {
                    stores.webhooks().delete(orgId, webhookId, clock.instant());
                    return webhook;
                }));
    }

    /** Writes a {@code ping} for this webhook to the outbox, whatever it subscribes to; answers the event's id. */
    public Result<EventId> test(OrgId orgId, WebhookId webhookId) {
        return storage.inTransaction(stores -> Result.found(stores.webhooks().find(orgId, webhookId), "webhook", webhookId)
                .map(webhook -> events.publish(stores, new DomainEvent.Ping(orgId, webhookId, clock.instant()))));
    }

    public Result<Page<DeliveryAttempt>> deliveries(OrgId orgId, WebhookId webhookId, PageRequest page) {
        return storage.inTransaction(stores -> Result.found(stores.webhooks().find(orgId, webhookId), "webhook", webhookId)
                .map(webhook -> stores.webhooks().attempts(orgId, webhookId, page)));
    }

    private void requirePermitted(String url) {
        receivers.requirePermitted(Webhook.requireUrl(url));
    }
}
