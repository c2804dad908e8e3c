package com.agentwallet.bootstrap;

import com.agentwallet.adapters.persistence.Persistence;
import com.agentwallet.core.port.LedgerPort;
import com.google.inject.Inject;
import com.google.inject.Provider;
import io.dropwizard.lifecycle.Managed;

import static java.util.Objects.requireNonNull;

/**
 * Closes what the wiring opened (the database pool and embedded server, a ledger that holds files):
 * when the server stops, or when an operator command ends.
 */
final class Resources implements Managed, AutoCloseable {
    private final Provider<LedgerPort> ledger;
    private final Provider<Persistence> persistence;

    /** Providers: the closer is asked for first, and opens nothing before the command or the server does. */
    @Inject
    Resources(Provider<LedgerPort> ledger, Provider<Persistence> persistence) {
        this.ledger = requireNonNull(ledger, "ledger is null");
        this.persistence = requireNonNull(persistence, "persistence is null");
    }

    @Override
    public void stop() {
        close();
    }

    @Override
    public void close() {
        if (ledger.get() instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the ledger failed", e);
            }
        }
        persistence.get().close();
    }
}
