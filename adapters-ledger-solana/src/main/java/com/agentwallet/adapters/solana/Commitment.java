package com.agentwallet.adapters.solana;

import com.agentwallet.core.common.ValidationException;

import java.util.Arrays;
import java.util.Locale;

/** How final a transaction must be before the adapter answers Confirmed; ordered from least to most. */
enum Commitment {
    PROCESSED, CONFIRMED, FINALIZED;

    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    boolean isAtLeast(Commitment other) {
        return compareTo(other) >= 0;
    }

    static Commitment parse(String text) {
        return Arrays.stream(values()).filter(c -> c.wireName().equals(text.trim())).findFirst()
                .orElseThrow(() -> new ValidationException("ledger.commitment",
                        "ledger setting 'commitment' must be processed, confirmed or finalized, not " + text));
    }

    /** A signature status's {@code confirmationStatus}; a missing one (old nodes) counts as processed. */
    static Commitment ofStatus(Object confirmationStatus) {
        return confirmationStatus == null ? PROCESSED : parse(String.valueOf(confirmationStatus));
    }
}
