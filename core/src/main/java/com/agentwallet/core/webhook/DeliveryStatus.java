package com.agentwallet.core.webhook;

import com.agentwallet.core.common.WireNamed;

/** {@code scheduled → delivered}, or {@code scheduled → exhausted} after the last attempt failed. */
public enum DeliveryStatus implements WireNamed {
    SCHEDULED, DELIVERED, EXHAUSTED
}
