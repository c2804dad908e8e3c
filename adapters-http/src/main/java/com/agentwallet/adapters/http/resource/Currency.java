package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.error.ApiException;

/** The one currency: {@code currency} may be left out, and otherwise must say {@code USDC}. */
final class Currency {
    static final String USDC = "USDC";

    private Currency() {
    }

    static void require(String currency) {
        if (currency != null && !currency.equals(USDC)) {
            throw ApiException.validation("currency", "'currency' must be USDC");
        }
    }
}
