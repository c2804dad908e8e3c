package com.agentwallet.archfixture.adapters.one;

import com.agentwallet.archfixture.adapters.two.AdapterTwo;

/** Breaks the adapter rule: one adapter calling another. */
public final class AdapterOne {
    public String greet(AdapterTwo other) {
        return "one and " + other.name();
    }
}
