package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

import static com.agentwallet.client.Transport.encode;

/** {@code /v1/payments/a2a}: agent-to-agent escrow, locked until a proof, a dispute's resolution or the timeout. */
public final class Escrows {
    private final Transport transport;

    Escrows(Transport transport) {
        this.transport = transport;
    }

    /**
     * Locks an escrow ({@code toWallet}, {@code amount}, {@code timeoutSeconds}, {@code taskDescription},
     * {@code fromWallet}, {@code expectedProof}, {@code idempotencyKey}). Without an {@code idempotencyKey}
     * one is made here, once, and every retry sends it again, so an escrow whose answer was lost is locked once.
     */
    public JsonNode create(Map<String, ?> params) {
        return create(params, null);
    }

    /** Locks on an agent's behalf with an API key: the agent's session token goes in {@code Session-Token}. */
    public JsonNode create(Map<String, ?> params, String sessionToken) {
        return transport.json(Payments.onBehalf(Transport.Call.create("/payments/a2a", params), sessionToken));
    }

    /** Filters {@code walletId} (either side) and {@code status}. */
    public Pages list(Map<String, ?> filters) {
        return new Pages(transport, "/payments/a2a", filters);
    }

    public JsonNode retrieve(String escrowId) {
        return transport.json(Transport.Call.get(path(escrowId), Map.of()));
    }

    /** Releases it with the proof: 64 lowercase hex characters of a SHA-256 ({@code output_hash}). */
    public JsonNode complete(String escrowId, String proofSha256Hex) {
        return transport.json(Transport.Call.write("POST", path(escrowId) + "/complete",
                Map.of("proofType", "output_hash", "proof", proofSha256Hex)));
    }

    /** Disputes a locked escrow; {@code evidenceSha256Hex} is the SHA-256 (64 lowercase hex) of the evidence. */
    public JsonNode dispute(String escrowId, String reason, String evidenceSha256Hex) {
        return transport.json(Transport.Call.write("POST", path(escrowId) + "/dispute",
                Map.of("reason", reason, "evidence", evidenceSha256Hex)));
    }

    /** Settles a disputed escrow: {@code outcome} is {@code release} or {@code refund}. */
    public JsonNode resolve(String escrowId, String outcome) {
        return transport.json(Transport.Call.write("POST", path(escrowId) + "/resolve", Map.of("outcome", outcome)));
    }

    private static String path(String escrowId) {
        return "/payments/a2a/" + encode(escrowId);
    }
}
