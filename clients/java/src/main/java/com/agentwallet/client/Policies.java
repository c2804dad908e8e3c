package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

import static com.agentwallet.client.Transport.encode;

/**
 * {@code /v1/policies}: fields {@code name}, {@code maxPerTx}, {@code maxPerDay}, {@code maxPerMonth},
 * {@code velocityCap}, {@code allowedRecipients}, {@code blockedCategories}, {@code expiry},
 * {@code requireCoSign}, {@code coSigner}; amounts as {@link java.math.BigDecimal}.
 */
public final class Policies {
    private final Transport transport;

    Policies(Transport transport) {
        this.transport = transport;
    }

    /** Creates a policy; an {@code idempotencyKey} entry is sent as the request's key (one is made when absent). */
    public JsonNode create(Map<String, ?> params) {
        return transport.json(Transport.Call.create("/policies", params));
    }

    public Pages list(Map<String, ?> filters) {
        return new Pages(transport, "/policies", filters);
    }

    public JsonNode retrieve(String policyId) {
        return transport.json(Transport.Call.get(path(policyId), Map.of()));
    }

    /** A field mapped to null is cleared; a field left out is kept. */
    public JsonNode update(String policyId, Map<String, ?> params) {
        return transport.json(Transport.Call.write("PATCH", path(policyId), params));
    }

    /**
     * A copy with these overrides, named "... (copy)" unless {@code name} is given; an
     * {@code idempotencyKey} entry is sent as the request's key.
     */
    public JsonNode clone(String policyId, Map<String, ?> overrides) {
        return transport.json(Transport.Call.create(path(policyId) + "/clone", overrides));
    }

    public JsonNode delete(String policyId) {
        return transport.json(Transport.Call.write("DELETE", path(policyId), null));
    }

    /** Every change of the policy: who, when, and the diff of its fields. */
    public Pages auditLog(String policyId) {
        return new Pages(transport, path(policyId) + "/audit-log", Map.of());
    }

    private static String path(String policyId) {
        return "/policies/" + encode(policyId);
    }
}
