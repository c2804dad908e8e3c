package com.agentwallet.adapters.persistence;

import com.agentwallet.core.port.Storage;
import com.agentwallet.core.testing.StorageContract;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The store contract of the core, on the real PostgreSQL adapter: one database, emptied before each test. */
class PostgresStorageContractTest extends StorageContract {
    private static HikariDataSource database;

    @BeforeAll
    static void createDatabase() {
        database = TestDatabase.fresh(4);
    }

    @AfterAll
    static void closeDatabase() {
        database.close();
    }

    @Override
    protected Storage newStorage() {
        TestDatabase.truncateAll(database);
        return new JdbiStorage(Postgres.jdbi(database));
    }
}
