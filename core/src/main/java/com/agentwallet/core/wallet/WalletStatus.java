package com.agentwallet.core.wallet;

import com.agentwallet.core.common.WireNamed;

/** A wallet's states. {@link #ARCHIVED} is terminal. */
public enum WalletStatus implements WireNamed {
    ACTIVE, FROZEN, ARCHIVED;

    public static WalletStatus fromWire(String name, String param) {
        return WireNamed.parse(WalletStatus.class, name, param);
    }
}
