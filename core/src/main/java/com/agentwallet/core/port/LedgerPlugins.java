package com.agentwallet.core.port;

import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/** Finds the configured ledger plugin; fails fast, naming what is there, when none or several match. */
public final class LedgerPlugins {

    private LedgerPlugins() {
    }

    public static LedgerAdapterFactory find(String name, ClassLoader classLoader) {
        List<LedgerAdapterFactory> available = ServiceLoader.load(LedgerAdapterFactory.class, classLoader).stream()
                .map(ServiceLoader.Provider::get)
                .toList();
        return choose(name, available);
    }

    static LedgerAdapterFactory choose(String name, List<LedgerAdapterFactory> available) {
        List<LedgerAdapterFactory> matching = available.stream().filter(f -> f.name().equals(name)).toList();
        if (matching.isEmpty()) {
            throw new IllegalStateException("No ledger plugin named '" + name + "'; available: "
                    + available.stream().map(LedgerAdapterFactory::name).sorted().collect(Collectors.joining(", ", "[", "]")));
        }
        if (matching.size() > 1) {
            throw new IllegalStateException("Several ledger plugins are named '" + name + "': "
                    + matching.stream().map(f -> f.getClass().getName()).sorted().collect(Collectors.joining(", ")));
        }
        return matching.get(0);
    }
}
