package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

import static com.agentwallet.client.Transport.encode;

/** {@code /v1/webhooks}: endpoints that receive events; verify what they receive with {@link WebhookSignature}. */
public final class Webhooks {
    private final Transport transport;

    Webhooks(Transport transport) {
        this.transport = transport;
    }

    /**
     * Registers {@code url} for {@code events} (names, or {@code "*"}); the answer's {@code signing_secret}
     * is shown only here, and to a retry under the same {@code idempotencyKey} entry (made when absent).
     */
    public JsonNode create(Map<String, ?> params) {
        return transport.json(Transport.Call.create("/webhooks", params));
    }

    public Pages list(Map<String, ?> filters) {
        return new Pages(transport, "/webhooks", filters);
    }

    public JsonNode retrieve(String webhookId) {
        return transport.json(Transport.Call.get(path(webhookId), Map.of()));
    }

    /** Changes {@code url} or {@code events}, or re-enables a degraded webhook with {@code status: "active"}. */
    public JsonNode update(String webhookId, Map<String, ?> params) {
        return transport.json(Transport.Call.write("PATCH", path(webhookId), params));
    }

    public JsonNode delete(String webhookId) {
        return transport.json(Transport.Call.write("DELETE", path(webhookId), null));
    }

    /** Sends a {@code ping} event to the webhook. */
    public JsonNode test(String webhookId) {
        return transport.json(Transport.Call.write("POST", path(webhookId) + "/test", null));
    }

    /** Delivery attempts, newest first. */
    public Pages deliveries(String webhookId, Map<String, ?> filters) {
        return new Pages(transport, path(webhookId) + "/deliveries", filters);
    }

    private static String path(String webhookId) {
        return "/webhooks/" + encode(webhookId);
    }
}
