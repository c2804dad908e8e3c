package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.webhook.WebhookDispatcher;
import com.agentwallet.core.webhook.WebhookLimits;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fan-out's horizon on PostgreSQL, with transactions held open on connections of their own:
 * an event committed after a later-numbered one is still fanned out, events of one wallet are
 * fanned out in the order they were numbered even when their transactions' ids are the other way
 * round, and an event read again because it is still above the horizon is not scheduled twice.
 */
class FanOutHorizonTest {
    private static final AtomicInteger SEEDS = new AtomicInteger(1000);
    private static final RandomIdGenerator IDS = new RandomIdGenerator(new Random(7));

    private static HikariDataSource pool;
    private static Jdbi jdbi;

    private OrgId org;
    private MutableClock clock;
    private WebhookDispatcher dispatcher;

    @BeforeAll
    static void createDatabase() {
        pool = TestDatabase.fresh(8);
        jdbi = Postgres.jdbi(pool);
    }

    @AfterAll
    static void closeDatabase() {
        pool.close();
    }

    @BeforeEach
    void organisationWithAWebhook() {
        clock = MutableClock.atTestEpoch();
        JdbiStorage storage = new JdbiStorage(jdbi, clock);
        CoreServices core = PgBooks.services(storage, new FakeLedger(), clock, SEEDS.getAndIncrement());
        org = PgBooks.organisation(core, "100");
        core.webhooks.create(org, "https://hooks.example.com/in", List.of("*"), RequestKey.none());
        clock.advance(Duration.ofSeconds(1));
        dispatcher = new WebhookDispatcher(storage, new PostgresDeliveryTest.Receiver(), core.receivers,
                WebhookLimits.DEFAULTS, clock);
        while (dispatcher.fanOut(100) > 0) {
            assertThat(scheduled()).isEmpty();
        }
    }

    @Test
    void anEventCommittedAfterALaterNumberedOneIsFannedOut() throws SQLException {
        try (Connection first = begin()) {
            String early = append(first);
            String late = committedEvent();

            assertThat(dispatcher.fanOut(100)).as("the later event waits while an earlier one is in flight").isZero();

            first.commit();
            assertThat(dispatcher.fanOut(100)).isEqualTo(2);
            assertThat(scheduled()).containsExactly(early, late);
            assertThat(dispatcher.fanOut(100)).as("nothing is left above the horizon").isZero();
        }
    }

    @Test
    void eventsAreFannedOutInTheirOrderWhenTheirTransactionIdsAreTheOtherWayRound() throws SQLException {
        try (Connection older = begin(); Connection running = begin()) {
            takeTransactionId(older);
            takeTransactionId(running);
            String first = committedEvent();
            String second = append(older);
            older.commit();

            assertThat(dispatcher.fanOut(100))
                    .as("the second event's transaction is below every running one, the first's is not yet")
                    .isZero();

            running.commit();
            assertThat(dispatcher.fanOut(100)).isEqualTo(2);
            assertThat(scheduled()).containsExactly(first, second);
        }
    }

    @Test
    void anEventReadAgainBelowALowerHorizonIsScheduledOnce() throws SQLException {
        try (Connection oldest = begin(); Connection older = begin(); Connection running = begin()) {
            takeTransactionId(oldest);
            takeTransactionId(older);
            takeTransactionId(running);
            String done = append(older);
            older.commit();
            String waiting = committedEvent();
            String behind = append(oldest);
            oldest.commit();

            assertThat(dispatcher.fanOut(100)).as("only the event before the one still waiting").isEqualTo(1);
            assertThat(scheduled()).containsExactly(done);
            assertThat(dispatcher.fanOut(100))
                    .as("read again: the event left behind has an older transaction than it").isEqualTo(1);
            assertThat(scheduled()).containsExactly(done);

            running.commit();
            assertThat(dispatcher.fanOut(100)).isEqualTo(3);
            assertThat(scheduled()).containsExactly(done, waiting, behind);
            assertThat(dispatcher.fanOut(100)).isZero();
        }
    }

    private static Connection begin() throws SQLException {
        Connection connection = pool.getConnection();
        connection.setAutoCommit(false);
        return connection;
    }

    /** An event written by a transaction of its own, committed (its id the newest yet). */
    private String committedEvent() throws SQLException {
        try (Connection newer = begin()) {
            String id = append(newer);
            newer.commit();
            return id;
        }
    }

    /** Gives the transaction its id now, before it writes anything. */
    private static void takeTransactionId(Connection connection) throws SQLException {
        connection.createStatement().execute("SELECT pg_current_xact_id()");
    }

    private String append(Connection connection) throws SQLException {
        String id = IDS.event().value();
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO outbox_events "
                + "(id, org_id, type, wallet_id, body, created_at) VALUES (?, ?, 'policy.updated', NULL, '{}', ?)")) {
            insert.setString(1, id);
            insert.setString(2, org.value());
            insert.setTimestamp(3, Timestamp.from(clock.instant()));
            insert.executeUpdate();
        }
        return id;
    }

    /** The events scheduled for the organisation's webhook, in their events' order. */
    private List<String> scheduled() {
        return PgBooks.texts(jdbi, "SELECT d.event_id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id "
                + "JOIN outbox_events e ON e.id = d.event_id WHERE w.org_id = ? AND e.type = 'policy.updated' ORDER BY d.seq",
                org.value());
    }
}
