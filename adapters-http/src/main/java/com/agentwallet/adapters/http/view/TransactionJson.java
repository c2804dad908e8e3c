package com.agentwallet.adapters.http.view;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.payment.CoSign;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.edge.error.ErrorJson;

/**
 * A transaction on the wire. {@code co_sign_payload} is there while the payment waits for its
 * co-signature: the base64 ledger message the operator signs.
 */
public record TransactionJson(String object, String txId, String type, String status, String walletId, String amount,
                              String currency, String recipient, String memo, boolean policyTriggered,
                              ErrorJson.ViolationJson violation, String txSignature, Long onChainSlot,
                              String coSignPayload, String coSignExpiresAt, String escrowId, String failureReason,
                              String timestamp, String updatedAt) {

    public static TransactionJson of(Transaction tx) {
        boolean waiting = tx.status() == TransactionStatus.PENDING_CO_SIGN;
        return new TransactionJson("transaction", tx.id().value(), tx.type().wireName(), tx.status().wireName(),
                tx.walletId().value(), tx.amount().toString(), "USDC", tx.recipient(), tx.memo().orElse(null),
                tx.policyTriggered(), tx.violation().map(ErrorJson.ViolationJson::of).orElse(null),
                tx.signature().orElse(null), tx.slot().orElse(null),
                waiting ? tx.coSign().map(CoSign::payload).orElse(null) : null,
                waiting ? tx.coSign().map(coSign -> Timestamps.format(coSign.expiresAt())).orElse(null) : null,
                tx.escrowId().map(id -> id.value()).orElse(null), tx.failureReason().orElse(null),
                Timestamps.format(tx.createdAt()), Timestamps.format(tx.updatedAt()));
    }
}
