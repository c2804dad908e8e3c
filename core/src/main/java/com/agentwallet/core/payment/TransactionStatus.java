package com.agentwallet.core.payment;

import com.agentwallet.core.common.ValidationException;

import java.util.Arrays;

/**
 * A transaction's states: {@code pending_co_sign → (pending →) confirmed | failed}, or
 * {@code rejected} / {@code expired} from {@code pending_co_sign}; {@code blocked} is recorded for
 * history and never submitted.
 */
public enum TransactionStatus {
    PENDING_CO_SIGN("pending_co_sign"),
    PENDING("pending"),
    CONFIRMED("confirmed"),
    FAILED("failed"),
    REJECTED("rejected"),
    EXPIRED("expired"),
    BLOCKED("blocked");

    private final String wireName;

    TransactionStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean isTerminal() {
        return this != PENDING_CO_SIGN && this != PENDING;
    }

    /** Whether a transaction in this state holds or has moved its amount (so it counts toward caps). */
    public boolean holdsFunds() {
        return this == PENDING_CO_SIGN || this == PENDING || this == CONFIRMED;
    }

    public static TransactionStatus fromWire(String name, String param) {
        return Arrays.stream(values()).filter(s -> s.wireName.equals(name)).findFirst()
                .orElseThrow(() -> new ValidationException(param, "'" + param + "' must be one of pending_co_sign, "
                        + "pending, confirmed, failed, rejected, expired, blocked"));
    }
}
