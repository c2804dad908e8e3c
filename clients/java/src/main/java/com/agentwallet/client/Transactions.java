package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

import static com.agentwallet.client.Transport.encode;

/** {@code /v1/transactions}: the organisation's history, and exports of it as CSV or JSON files. */
public final class Transactions {
    private final Transport transport;

    Transactions(Transport transport) {
        this.transport = transport;
    }

    /** Filters {@code walletId}, {@code status}, {@code type}, {@code from}, {@code to}, {@code limit}. */
    public Pages list(Map<String, ?> filters) {
        return new Pages(transport, "/transactions", filters);
    }

    public JsonNode retrieve(String txId) {
        return transport.json(Transport.Call.get("/transactions/" + encode(txId), Map.of()));
    }

    /**
     * Requests an export job ({@code format} {@code csv}/{@code json}, {@code walletId}, {@code from},
     * {@code to}, and {@code idempotencyKey}, made when absent).
     */
    public JsonNode export(Map<String, ?> params) {
        return transport.json(Transport.Call.create("/transactions/export", params));
    }

    public JsonNode retrieveExport(String exportId) {
        return transport.json(Transport.Call.get(exportPath(exportId), Map.of()));
    }

    /** The export's file once {@code ready}; before that an {@code invalid_state} error. */
    public byte[] downloadExport(String exportId) {
        return transport.send(Transport.Call.get(exportPath(exportId) + "/download", Map.of())).body();
    }

    private static String exportPath(String exportId) {
        return "/transactions/exports/" + encode(exportId);
    }
}
