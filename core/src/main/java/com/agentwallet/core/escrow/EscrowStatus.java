package com.agentwallet.core.escrow;

import com.agentwallet.core.common.WireNamed;

/** {@code locked → released | refunded | disputed}; {@code disputed → released | refunded}. */
public enum EscrowStatus implements WireNamed {
    LOCKED, DISPUTED, RELEASED, REFUNDED;

    public boolean isTerminal() {
        return this == RELEASED || this == REFUNDED;
    }

    public static EscrowStatus fromWire(String name, String param) {
        return WireNamed.parse(EscrowStatus.class, name, param);
    }
}
