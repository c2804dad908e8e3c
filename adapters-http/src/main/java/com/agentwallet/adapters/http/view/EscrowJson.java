package com.agentwallet.adapters.http.view;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.escrow.Dispute;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.Proof;

/** An agent-to-agent escrow on the wire. */
public record EscrowJson(String object, String id, String fromWallet, String toWallet, String recipient,
                         String amount, String currency, String taskDescription, long timeoutSeconds,
                         String timeoutAt, String expectedProof, String status, String proofType, String proof,
                         DisputeJson dispute, String lockTxId, String settleTxId, String settleReason,
                         String createdAt, String updatedAt) {

    public record DisputeJson(String reason, String evidence, String raisedAt) {
        static DisputeJson of(Dispute dispute) {
            return new DisputeJson(dispute.reason(), dispute.evidence(), Timestamps.format(dispute.at()));
        }
    }

    public static EscrowJson of(Escrow escrow) {
        return new EscrowJson("escrow", escrow.id().value(), escrow.fromWallet().value(), escrow.toWallet(),
                escrow.receiver(), escrow.amount().toString(), "USDC", escrow.taskDescription(),
                escrow.timeoutSeconds(), Timestamps.format(escrow.timeoutAt()), escrow.expectedProof().orElse(null),
                escrow.status().wireName(), escrow.proof().map(proof -> Proof.OUTPUT_HASH).orElse(null),
                escrow.proof().orElse(null), escrow.dispute().map(DisputeJson::of).orElse(null),
                escrow.lockTx().value(), escrow.settleTx().map(tx -> tx.value()).orElse(null),
                escrow.settleReason().orElse(null), Timestamps.format(escrow.createdAt()),
                Timestamps.format(escrow.updatedAt()));
    }
}
