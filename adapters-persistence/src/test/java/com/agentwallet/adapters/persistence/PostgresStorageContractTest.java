package com.agentwallet.adapters.persistence;

import java.time.Clock;
import com.agentwallet.core.common.Cursor;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.testing.StorageContract;
import com.agentwallet.core.webhook.Webhook;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        return new JdbiStorage(Postgres.jdbi(database), Clock.systemUTC());
    }

    /** The deliveries list takes its cursor's key apart into event id and attempt number to bind them. */
    @Test
    void aDeliveriesCursorWhoseKeyIsNotAnAttemptsIsAValidationError() {
        OrgId org = givenOrg().id();
        Webhook webhook = givenWebhook(org, T0);

        for (String key : new String[] {"no-attempt-number", "evt_x/first"}) {
            PageRequest page = new PageRequest(2, Optional.of(new Cursor(T0, key).encode()));
            assertThatThrownBy(() -> read(s -> s.webhooks().attempts(org, webhook.id(), page)))
                    .isInstanceOf(ValidationException.class);
        }
    }
}
