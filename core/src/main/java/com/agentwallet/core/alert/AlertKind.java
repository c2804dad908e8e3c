package com.agentwallet.core.alert;

import java.util.Arrays;
import java.util.Optional;

/**
 * What an alert reports, and so what its subject is: the event of that name (a wallet's balance
 * fell below its trigger, a wallet's policy expired, a payment was blocked, an escrow was
 * disputed), a webhook whose deliveries failed until it was degraded, or a payment waiting for its
 * co-signature.
 */
public enum AlertKind {
    /** The subject is the wallet. */
    BALANCE_LOW("balance.low"),
    /** The subject is the policy that expired. */
    POLICY_EXPIRED("policy.expired"),
    /** The subject is the blocked transaction. */
    TRANSACTION_BLOCKED("transaction.blocked"),
    /** The subject is the escrow. */
    ESCROW_DISPUTED("escrow.disputed"),
    /** The subject is the webhook. */
    WEBHOOK_DEGRADED("webhook.degraded"),
    /** The subject is the payment (transaction) waiting. */
    CO_SIGN_AWAITED("transaction.pending_co_sign");

    private final String wireName;

    AlertKind(String wireName) {
        this.wireName = wireName;
    }

    /** The event's name for the four events; the webhook's and the transaction's status for the others. */
    public String wireName() {
        return wireName;
    }

    public static Optional<AlertKind> fromWire(String name) {
        return Arrays.stream(values()).filter(kind -> kind.wireName.equals(name)).findFirst();
    }
}
