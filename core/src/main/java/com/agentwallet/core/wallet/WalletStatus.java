package com.agentwallet.core.wallet;

import com.agentwallet.core.common.ValidationException;

import java.util.Arrays;

/** A wallet's states. {@link #ARCHIVED} is terminal. */
public enum WalletStatus {
    ACTIVE("active"), FROZEN("frozen"), ARCHIVED("archived");

    private final String wireName;

    WalletStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static WalletStatus fromWire(String name, String param) {
        return Arrays.stream(values()).filter(s -> s.wireName.equals(name)).findFirst()
                .orElseThrow(() -> new ValidationException(param,
                        "'" + param + "' must be one of active, frozen, archived"));
    }
}
