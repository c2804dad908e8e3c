package com.agentwallet.core.id;

/** Identifies a webhook endpoint. */
public record WebhookId(String value) implements TypedId {
    public static final String PREFIX = "wh_";

    public WebhookId {
        TypedId.requireWellFormed(value, PREFIX);
    }

    @Override
    public String toString() {
        return value;
    }
}
