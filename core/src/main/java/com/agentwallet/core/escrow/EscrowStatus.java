package com.agentwallet.core.escrow;

import com.agentwallet.core.common.ValidationException;

import java.util.Arrays;

/** {@code locked → released | refunded | disputed}; {@code disputed → released | refunded}. */
public enum EscrowStatus {
    LOCKED("locked"), DISPUTED("disputed"), RELEASED("released"), REFUNDED("refunded");

    private final String wireName;

    EscrowStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean isTerminal() {
        return this == RELEASED || this == REFUNDED;
    }

    public static EscrowStatus fromWire(String name, String param) {
        return Arrays.stream(values()).filter(s -> s.wireName.equals(name)).findFirst()
                .orElseThrow(() -> new ValidationException(param,
                        "'" + param + "' must be one of locked, disputed, released, refunded"));
    }
}
