package com.agentwallet.core.payment;

import com.agentwallet.core.common.WireNamed;

/**
 * A transaction's states: {@code pending_co_sign → (pending →) confirmed | failed}, or
 * {@code rejected} / {@code expired} from {@code pending_co_sign}; {@code blocked} is recorded for
 * history and never submitted.
 */
public enum TransactionStatus implements WireNamed {
    PENDING_CO_SIGN,
    PENDING,
    CONFIRMED,
    FAILED,
    REJECTED,
    EXPIRED,
    BLOCKED;

    public boolean isTerminal() {
        return this != PENDING_CO_SIGN && this != PENDING;
    }

    /** Whether a transaction in this state holds or has moved its amount (so it counts toward caps). */
    public boolean holdsFunds() {
        return this == PENDING_CO_SIGN || this == PENDING || this == CONFIRMED;
    }

    public static TransactionStatus fromWire(String name, String param) {
        return WireNamed.parse(TransactionStatus.class, name, param);
    }
}
