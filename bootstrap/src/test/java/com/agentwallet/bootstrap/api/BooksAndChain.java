package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.persistence.EmbeddedDatabase;
import com.agentwallet.adapters.persistence.JdbiStorage;
import com.agentwallet.adapters.persistence.PersistenceSettings;
import com.agentwallet.adapters.persistence.Postgres;
import com.agentwallet.adapters.sim.SimLedgerFactory;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.reconcile.Reconciliation;
import com.agentwallet.core.reconcile.ReconciliationReport;
import com.zaxxer.hikari.HikariDataSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * The books and the chain of a running server on the simulator ledger, read from outside it: the
 * books over a pool of their own to the server's embedded PostgreSQL, the chain replayed from the
 * simulator's journal (every instruction that reached it, in order), as a restarted server rebuilds
 * it. Opened while nothing is in flight, {@link #reconcile()} is the reconciliation the operator's
 * {@code reconcile} command runs, and {@link #onChain} what an address holds on the chain.
 */
final class BooksAndChain implements AutoCloseable {
    private final HikariDataSource pool;
    private final LedgerPort chain;

    private BooksAndChain(HikariDataSource pool, LedgerPort chain) {
        this.pool = pool;
        this.chain = chain;
    }

    static BooksAndChain of(ApiServer server) {
        Map<String, String> settings = server.configuration().getLedger().settings();
        LedgerPort chain = new SimLedgerFactory().create(new LedgerContext(Clock.systemUTC(), server.dataDirectory(),
                settings));
        return new BooksAndChain(Postgres.pool(databaseUrl(server.dataDirectory()), EmbeddedDatabase.USER,
                databasePassword(server.dataDirectory()), 2), chain);
    }

    /** The password of the embedded PostgreSQL of the server whose data directory is {@code data}. */
    static String databasePassword(Path data) {
        return EmbeddedDatabase.password(data.resolve("postgres"));
    }

    /** The JDBC URL of the service's database on the embedded PostgreSQL of the server whose data directory is {@code data}. */
    static String databaseUrl(Path data) {
        try {
            // Line 4 of postmaster.pid is the port the server listens on.
            List<String> lines = Files.readAllLines(data.resolve("postgres").resolve("postmaster.pid"));
            return "jdbc:postgresql://localhost:" + Integer.parseInt(lines.get(3).strip()) + "/"
                    + PersistenceSettings.EMBEDDED_DATABASE;
        } catch (IOException e) {
            throw new UncheckedIOException("the server's PostgreSQL is not running under " + data, e);
        }
    }

    /** Every treasury, wallet and escrow vault of the books compared with the chain. */
    ReconciliationReport reconcile() {
        return new Reconciliation(new JdbiStorage(Postgres.jdbi(pool), Clock.systemUTC()), chain, Clock.systemUTC(),
                Reconciliation.DEFAULT_STUCK_AFTER).run();
    }

    /** What an address holds on the chain: a wallet's balance, or what an outside address was paid. */
    Usdc onChain(String address) {
        return chain.balance(new LedgerAccount.Wallet(new LedgerAddress(address)));
    }

    @Override
    public void close() {
        pool.close();
        if (chain instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the replayed chain failed", e);
            }
        }
    }
}
