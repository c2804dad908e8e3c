package com.agentwallet.core.webhook;

import com.agentwallet.core.common.ValidationException;

import java.util.Arrays;

/** {@code active ⇄ degraded}: degraded after one event's 5th failed attempt; deliveries pause. */
public enum WebhookStatus {
    ACTIVE("active"), DEGRADED("degraded");

    private final String wireName;

    WebhookStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static WebhookStatus fromWire(String name, String param) {
        return Arrays.stream(values()).filter(s -> s.wireName.equals(name)).findFirst()
                .orElseThrow(() -> new ValidationException(param, "'" + param + "' must be active or degraded"));
    }
}
