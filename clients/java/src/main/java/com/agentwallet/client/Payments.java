package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static com.agentwallet.client.Transport.encode;

/** {@code /v1/payments}: pay, check a payment without making it, read one, and the operator's co-sign or reject. */
public final class Payments {
    private final Transport transport;

    Payments(Transport transport) {
        this.transport = transport;
    }

    /**
     * Pays ({@code to}, {@code amount}, and {@code walletId}, {@code memo}, {@code requireCoSign},
     * {@code idempotencyKey}). Without an {@code idempotencyKey} one is made here, once, and every retry
     * sends it again, so a payment whose answer was lost is booked once.
     */
    public JsonNode create(Map<String, ?> params) {
        return pay(params, null);
    }

    /** Pays from an agent's wallet with an API key, on the agent's behalf: its session token goes in {@code Session-Token}. */
    public JsonNode create(Map<String, ?> params, String sessionToken) {
        return pay(params, sessionToken);
    }

    /** What {@link #create} would decide ({@code allowed}, {@code needs_co_sign}, {@code blocked}); nothing happens. */
    public JsonNode dryRun(Map<String, ?> params) {
        return dryRun(params, null);
    }

    public JsonNode dryRun(Map<String, ?> params, String sessionToken) {
        Transport.Call call = Transport.Call.write("POST", "/payments", params).withHeader("Dry-Run", "true");
        return transport.json(onBehalf(call, sessionToken));
    }

    public JsonNode retrieve(String txId) {
        return transport.json(Transport.Call.get(path(txId), Map.of()));
    }

    /**
     * Sends the operator's co-signature (base58 Ed25519 over the decoded {@code co_sign_payload}, see
     * {@link CoSigner}); needs an operator key other than the credential that made the payment.
     */
    public JsonNode coSign(String txId, String signatureBase58) {
        return transport.json(Transport.Call.write("POST", path(txId) + "/co-sign", Map.of("signature", signatureBase58)));
    }

    /** Ends a payment waiting for its co-signature as {@code rejected}; {@code reason} may be null. */
    public JsonNode reject(String txId, String reason) {
        Map<String, Object> body = new HashMap<>();
        if (reason != null) {
            body.put("reason", reason);
        }
        return transport.json(Transport.Call.write("POST", path(txId) + "/reject", body));
    }

    private JsonNode pay(Map<String, ?> params, String sessionToken) {
        Map<String, Object> body = new HashMap<>(params);
        Object given = body.containsKey("idempotency_key") ? body.get("idempotency_key") : body.get("idempotencyKey");
        String key = given != null ? given.toString() : UUID.randomUUID().toString();
        if (given == null) {
            body.put("idempotencyKey", key);
        }
        // The header carries the body's key: the server refuses the two when they differ.
        return transport.json(onBehalf(Transport.Call.create("/payments", body, key), sessionToken));
    }

    static Transport.Call onBehalf(Transport.Call call, String sessionToken) {
        return sessionToken == null ? call : call.withHeader("Session-Token", sessionToken);
    }

    private static String path(String txId) {
        return "/payments/" + encode(txId);
    }
}
