package com.agentwallet.bootstrap;

import com.agentwallet.adapters.persistence.Persistence;
import com.agentwallet.core.port.LedgerPort;
import com.google.inject.Injector;

/** Closes what the wiring opened (the database pool and embedded server, a ledger that holds files). */
final class Resources implements AutoCloseable {
    private final Injector injector;

    Resources(Injector injector) {
        this.injector = injector;
    }

    @Override
    public void close() {
        if (injector.getInstance(LedgerPort.class) instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the ledger failed", e);
            }
        }
        injector.getInstance(Persistence.class).close();
    }
}
