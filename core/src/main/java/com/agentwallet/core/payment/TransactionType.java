package com.agentwallet.core.payment;

import com.agentwallet.core.common.WireNamed;

/** Every movement of money is a transaction of one of these types. */
public enum TransactionType implements WireNamed {
    PAYMENT,
    FUNDING,
    WITHDRAWAL,
    ESCROW_LOCK,
    ESCROW_RELEASE,
    ESCROW_REFUND;

    /** Whether the amount left the wallet when the transaction was created (and comes back if it fails). */
    public boolean debitsWalletUpFront() {
        return this == PAYMENT || this == WITHDRAWAL || this == ESCROW_LOCK;
    }

    /** Whether the transaction counts toward the wallet's rolling caps while it holds or moves money. */
    public boolean countsTowardCaps() {
        return this == PAYMENT || this == ESCROW_LOCK;
    }

    public static TransactionType fromWire(String name, String param) {
        return WireNamed.parse(TransactionType.class, name, param);
    }
}
