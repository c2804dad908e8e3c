package com.agentwallet.core.webhook;

import com.agentwallet.core.common.WireNamed;

/** {@code active ⇄ degraded}: degraded after one event's 5th failed attempt; deliveries pause. */
public enum WebhookStatus implements WireNamed {
    ACTIVE, DEGRADED;

    public static WebhookStatus fromWire(String name, String param) {
        return WireNamed.parse(WebhookStatus.class, name, param);
    }
}
