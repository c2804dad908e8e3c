package com.agentwallet.core.webhook;

/** {@code scheduled → delivered}, or {@code scheduled → exhausted} after the last attempt failed. */
public enum DeliveryStatus {
    SCHEDULED("scheduled"), DELIVERED("delivered"), EXHAUSTED("exhausted");

    private final String wireName;

    DeliveryStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
