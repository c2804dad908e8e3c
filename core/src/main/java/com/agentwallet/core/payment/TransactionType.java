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

    /** Whether the transaction counts toward the wallet's rolling caps while it holds or moves money. */
    public boolean countsTowardCaps() {
        return switch (this) {
            case PAYMENT, ESCROW_LOCK -> true;
            case FUNDING, WITHDRAWAL, ESCROW_RELEASE, ESCROW_REFUND -> false;
        };
    }

    /** Whether the organisation's treasury is one end, so that it differs from the ledger's while pending. */
    public boolean touchesTreasury() {
        return switch (this) {
            case FUNDING, WITHDRAWAL -> true;
            case PAYMENT, ESCROW_LOCK, ESCROW_RELEASE, ESCROW_REFUND -> false;
        };
    }

    public static TransactionType fromWire(String name, String param) {
        return WireNamed.parse(TransactionType.class, name, param);
    }
}
