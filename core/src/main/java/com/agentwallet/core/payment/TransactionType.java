package com.agentwallet.core.payment;

import com.agentwallet.core.common.ValidationException;

import java.util.Arrays;

/** Every movement of money is a transaction of one of these types. */
public enum TransactionType {
    PAYMENT("payment"),
    FUNDING("funding"),
    WITHDRAWAL("withdrawal"),
    ESCROW_LOCK("escrow_lock"),
    ESCROW_RELEASE("escrow_release"),
    ESCROW_REFUND("escrow_refund");

    private final String wireName;

    TransactionType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Whether the amount left the wallet when the transaction was created (and comes back if it fails). */
    public boolean debitsWalletUpFront() {
        return this == PAYMENT || this == WITHDRAWAL || this == ESCROW_LOCK;
    }

    /** Whether the transaction counts toward the wallet's rolling caps while it holds or moves money. */
    public boolean countsTowardCaps() {
        return this == PAYMENT || this == ESCROW_LOCK;
    }

    public static TransactionType fromWire(String name, String param) {
        return Arrays.stream(values()).filter(t -> t.wireName.equals(name)).findFirst()
                .orElseThrow(() -> new ValidationException(param, "'" + param
                        + "' must be one of payment, funding, withdrawal, escrow_lock, escrow_release, escrow_refund"));
    }
}
