package com.agentwallet.adapters.persistence;

import com.agentwallet.core.port.LedgerJournal;
import com.agentwallet.core.testing.LedgerJournalContract;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/** The ledger journal on PostgreSQL; the other process is a journal over a pool of its own. */
class PostgresLedgerJournalTest extends LedgerJournalContract {
    private static HikariDataSource pool;
    private static HikariDataSource otherPool;

    @BeforeAll
    static void createDatabase() {
        pool = TestDatabase.fresh(4);
        otherPool = PgBooks.reopen(pool, 4);
    }

    @AfterAll
    static void closeDatabase() {
        otherPool.close();
        pool.close();
    }

    @BeforeEach
    void emptyJournal() {
        TestDatabase.truncateAll(pool);
    }

    @Override
    protected LedgerJournal journal() {
        return new JdbiLedgerJournal(Postgres.jdbi(pool));
    }

    @Override
    protected LedgerJournal otherProcess() {
        return new JdbiLedgerJournal(Postgres.jdbi(otherPool));
    }
}
