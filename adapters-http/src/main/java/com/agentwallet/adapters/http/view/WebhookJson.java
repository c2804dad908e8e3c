package com.agentwallet.adapters.http.view;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.webhook.DeliveryAttempt;
import com.agentwallet.core.webhook.Webhook;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/** A webhook on the wire; the signing secret is shown once, in the response that created it. */
public record WebhookJson(String object, String webhookId, String url, List<String> events, String status,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String signingSecret, String createdAt,
                          String updatedAt) {

    public static WebhookJson of(Webhook webhook) {
        return new WebhookJson("webhook", webhook.id().value(), webhook.url(), webhook.subscription().wireNames(),
                webhook.status().wireName(), null, Timestamps.format(webhook.createdAt()),
                Timestamps.format(webhook.updatedAt()));
    }

    public static WebhookJson created(Webhook webhook) {
        WebhookJson shown = of(webhook);
        return new WebhookJson(shown.object, shown.webhookId, shown.url, shown.events, shown.status,
                webhook.signingSecret(), shown.createdAt, shown.updatedAt);
    }

    /** One delivery attempt, as the delivery log lists it. */
    public record DeliveryJson(String object, String eventId, String event, int attempt, Integer statusCode,
                               String error, long latencyMs, String attemptedAt, String nextAttemptAt) {
        public static DeliveryJson of(DeliveryAttempt attempt) {
            return new DeliveryJson("webhook_delivery", attempt.eventId().value(), attempt.event().wireName(),
                    attempt.attempt(), attempt.statusCode().orElse(null), attempt.error().orElse(null),
                    attempt.latencyMs(), Timestamps.format(attempt.attemptedAt()),
                    attempt.nextAttemptAt().map(Timestamps::format).orElse(null));
        }
    }

    /** The answer of {@code POST /webhooks/{id}/test}: the ping event now on its way. */
    public record TestJson(String object, String webhookId, String eventId, String event) {
    }
}
