package com.agentwallet.core.event;

import java.util.Arrays;
import java.util.Optional;

/**
 * The event catalogue: the spec's events, plus the outcomes the spec's statuses imply but its
 * catalogue leaves out ({@code transaction.co_sign_required}, {@code .failed}, {@code .rejected},
 * {@code .expired}, {@code wallet.withdrawn}, {@code wallet.archived}).
 */
public enum EventType {
    TRANSACTION_COMPLETED("transaction.completed"),
    TRANSACTION_BLOCKED("transaction.blocked"),
    TRANSACTION_PENDING("transaction.pending"),
    TRANSACTION_CO_SIGN_REQUIRED("transaction.co_sign_required"),
    TRANSACTION_FAILED("transaction.failed"),
    TRANSACTION_REJECTED("transaction.rejected"),
    TRANSACTION_EXPIRED("transaction.expired"),
    WALLET_CREATED("wallet.created"),
    WALLET_FUNDED("wallet.funded"),
    WALLET_WITHDRAWN("wallet.withdrawn"),
    WALLET_FROZEN("wallet.frozen"),
    WALLET_UNFROZEN("wallet.unfrozen"),
    WALLET_ARCHIVED("wallet.archived"),
    BALANCE_LOW("balance.low"),
    POLICY_UPDATED("policy.updated"),
    POLICY_EXPIRED("policy.expired"),
    ESCROW_CREATED("escrow.created"),
    ESCROW_RELEASED("escrow.released"),
    ESCROW_REFUNDED("escrow.refunded"),
    ESCROW_DISPUTED("escrow.disputed"),
    ORG_DEPOSIT_CONFIRMED("org.deposit_confirmed"),
    EXPORT_READY("export.ready"),
    PING("ping");

    private final String wireName;

    EventType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<EventType> fromWire(String name) {
        return Arrays.stream(values()).filter(t -> t.wireName.equals(name)).findFirst();
    }
}
