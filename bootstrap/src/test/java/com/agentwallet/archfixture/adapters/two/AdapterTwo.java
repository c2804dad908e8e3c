package com.agentwallet.archfixture.adapters.two;

/** The adapter that {@code AdapterOne} wrongly depends on. */
public final class AdapterTwo {
    public String name() {
        return "two";
    }
}
