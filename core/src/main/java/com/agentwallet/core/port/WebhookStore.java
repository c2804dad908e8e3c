package com.agentwallet.core.port;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WebhookId;
import com.agentwallet.core.webhook.DeliveryAttempt;
import com.agentwallet.core.webhook.Webhook;

import java.time.Instant;
import java.util.Optional;

/** Webhooks of an organisation and the attempts made to deliver to them. A deleted webhook is found by nothing. */
public interface WebhookStore {
    void insert(Webhook webhook);

    Optional<Webhook> find(OrgId orgId, WebhookId id);

    /** Reads the webhook and locks it until the transaction ends. */
    Optional<Webhook> lock(OrgId orgId, WebhookId id);

    void update(Webhook webhook);

    /** Soft-deletes the webhook at {@code at}: its delivery history keeps referring to it. */
    void delete(OrgId orgId, WebhookId id, Instant at);

    /** Newest first. */
    Page<Webhook> list(OrgId orgId, PageRequest page);

    /** Records an attempt; its event must be in the outbox and its webhook stored. */
    void insertAttempt(DeliveryAttempt attempt);

    /**
     * The webhook's attempts, newest first by {@code (attemptedAt, sortKey)}; the event name is the
     * outbox event's type.
     */
    Page<DeliveryAttempt> attempts(OrgId orgId, WebhookId webhookId, PageRequest page);
}
