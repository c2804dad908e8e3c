package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static com.agentwallet.client.Transport.encode;

/** {@code /v1/wallets}: parameters are the API's fields in camelCase ({@code agentId}, {@code policyId}, ...). */
public final class Wallets {
    private final Transport transport;

    Wallets(Transport transport) {
        this.transport = transport;
    }

    /**
     * Creates a wallet; the answer carries the agent's {@code session_token}, shown only here (and again
     * to a retry under the same {@code idempotencyKey}, which this call makes when not given).
     */
    public JsonNode create(Map<String, ?> params) {
        return transport.json(Transport.Call.create("/wallets", params));
    }

    /** Filters {@code status}, {@code tags} (comma-separated), and {@code limit} as the page size. */
    public Pages list(Map<String, ?> filters) {
        return new Pages(transport, "/wallets", filters);
    }

    public JsonNode retrieve(String walletId) {
        return transport.json(Transport.Call.get(path(walletId), Map.of()));
    }

    /** Changes {@code label}, {@code policyId} or {@code status} ({@code active}/{@code frozen}). */
    public JsonNode update(String walletId, Map<String, ?> params) {
        return transport.json(Transport.Call.write("PATCH", path(walletId), params));
    }

    public JsonNode fund(String walletId, BigDecimal amount) {
        return fund(walletId, amount, null);
    }

    /** Funds under the caller's {@code idempotencyKey}: the same key with the same amount funds once. */
    public JsonNode fund(String walletId, BigDecimal amount, String idempotencyKey) {
        return transport.json(Transport.Call.create(path(walletId) + "/fund", Map.of("amount", amount), idempotencyKey));
    }

    /** Funds several wallets, all or nothing: each entry maps a wallet id to its amount. */
    public JsonNode fundBatch(Map<String, BigDecimal> amounts) {
        return fundBatch(amounts, null);
    }

    public JsonNode fundBatch(Map<String, BigDecimal> amounts, String idempotencyKey) {
        List<Map<String, Object>> entries = amounts.entrySet().stream()
                .map(e -> Map.<String, Object>of("walletId", e.getKey(), "amount", e.getValue())).toList();
        return transport.json(Transport.Call.create("/wallets/fund-batch", entries, idempotencyKey));
    }

    public JsonNode withdraw(String walletId, BigDecimal amount) {
        return withdraw(walletId, amount, null);
    }

    public JsonNode withdraw(String walletId, BigDecimal amount, String idempotencyKey) {
        return transport.json(Transport.Call.create(path(walletId) + "/withdraw", Map.of("amount", amount), idempotencyKey));
    }

    /** Withdraws the whole balance back to the organisation. */
    public JsonNode withdrawAll(String walletId) {
        return withdrawAll(walletId, null);
    }

    public JsonNode withdrawAll(String walletId, String idempotencyKey) {
        return transport.json(Transport.Call.create(path(walletId) + "/withdraw", Map.of("amount", "all"), idempotencyKey));
    }

    /** Sets the rule ({@code enabled}, {@code triggerBelow}, {@code topupAmount}); {@code enabled: false} removes it. */
    public JsonNode autoTopup(String walletId, Map<String, ?> params) {
        return transport.json(Transport.Call.write("PUT", path(walletId) + "/auto-topup", params));
    }

    /** A new session token; every older one stops working at once. {@code ttlSeconds} null means the default. */
    public JsonNode rotateToken(String walletId, Integer ttlSeconds) {
        Map<String, Object> body = new HashMap<>();
        if (ttlSeconds != null) {
            body.put("ttlSeconds", ttlSeconds);
        }
        return transport.json(Transport.Call.write("POST", path(walletId) + "/rotate-token", body));
    }

    /** Archives the wallet ({@code DELETE}); its balance goes back to the organisation. */
    public JsonNode archive(String walletId) {
        return transport.json(Transport.Call.write("DELETE", path(walletId), null));
    }

    /** The wallet's history; filters {@code status}, {@code type}, {@code from}, {@code to}, {@code limit}. */
    public Pages transactions(String walletId, Map<String, ?> filters) {
        return new Pages(transport, path(walletId) + "/transactions", filters);
    }

    private static String path(String walletId) {
        return "/wallets/" + encode(walletId);
    }
}
