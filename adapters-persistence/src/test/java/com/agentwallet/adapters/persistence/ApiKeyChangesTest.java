package com.agentwallet.adapters.persistence;

import com.agentwallet.core.auth.ApiKeyCache;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.auth.IssuedKey;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.MutableClock;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * API keys kept in memory while their changes are followed on PostgreSQL's {@code api_key_changed}
 * channel: a revocation committed by another process is heard and the key forgotten, also after the
 * listening connection was cut; one never announced is refused once the key has been trusted for
 * {@link ApiKeyCache#TRUST_FOR}; and nothing is kept once following stops.
 */
class ApiKeyChangesTest {
    /** How long a change may take to be heard before the test gives up; it is heard within milliseconds. */
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final RandomIdGenerator IDS = new RandomIdGenerator(new Random(8));

    private static HikariDataSource pool;
    private static Jdbi jdbi;
    private static JdbiStorage storage;
    private static OrgId org;

    private final MutableClock clock = MutableClock.atTestEpoch();
    private final ApiKeyCache cache = new ApiKeyCache(clock, ApiKeyCache.TRUST_FOR);
    private final ApiKeyService keys = new ApiKeyService(storage, IDS, clock, cache);
    /** The same books seen by another process, which keeps nothing in memory. */
    private final ApiKeyService elsewhere = new ApiKeyService(storage, IDS, clock, new ApiKeyCache(clock, ApiKeyCache.TRUST_FOR));
    private ApiKeyChanges changes;

    @BeforeAll
    static void createDatabase() {
        pool = TestDatabase.fresh(3);
        jdbi = Postgres.jdbi(pool);
        MutableClock clock = MutableClock.atTestEpoch();
        storage = new JdbiStorage(jdbi, clock);
        org = PgBooks.organisation(PgBooks.services(storage, new FakeLedger(), clock, 7), "100");
    }

    @AfterAll
    static void closeDatabase() {
        pool.close();
    }

    @BeforeEach
    void follow() {
        changes = ApiKeyChanges.follow(pool, cache);
    }

    @AfterEach
    void stop() {
        changes.close();
    }

    @Test
    void aRevocationByAnotherProcessIsHeardAndTheKeyForgotten() {
        IssuedKey issued = keys.issue(org, Role.ADMIN).value();
        PgBooks.await("the key was kept", PATIENCE, () -> servedFromMemory(issued));

        elsewhere.revoke(org, issued.key().id()).value();

        PgBooks.await("the revocation was heard", PATIENCE, () -> keys.authenticate(issued.secret()).isEmpty());
    }

    @Test
    void aChangeWhileTheListeningConnectionIsCutIsNotMissedAndFollowingResumes() {
        IssuedKey issued = keys.issue(org, Role.ADMIN).value();
        PgBooks.await("the key was kept", PATIENCE, () -> servedFromMemory(issued));

        long cut = PgBooks.number(jdbi, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                + "WHERE application_name = ?", ApiKeyChanges.APPLICATION_NAME);
        elsewhere.revoke(org, issued.key().id()).value();

        assertThat(cut).isEqualTo(1);
        PgBooks.await("the revocation was heard", PATIENCE, () -> keys.authenticate(issued.secret()).isEmpty());
        IssuedKey next = keys.issue(org, Role.ADMIN).value();
        PgBooks.await("the key was kept", PATIENCE, () -> servedFromMemory(next));
    }

    @Test
    void aRevocationWhoseNotificationIsLostIsRefusedOneSecondAfterTheKeyWasLastRead() {
        IssuedKey issued = keys.issue(org, Role.ADMIN).value();
        PgBooks.await("the key was kept", PATIENCE, () -> servedFromMemory(issued));

        setRevokedSilently(issued, true);

        clock.advance(ApiKeyCache.TRUST_FOR.minusMillis(1));
        assertThat(keys.authenticate(issued.secret())).as("kept, the revocation unheard").isPresent();
        clock.advance(Duration.ofMillis(1));
        assertThat(keys.authenticate(issued.secret())).as("trusted no longer: read again, revoked").isEmpty();
    }

    @Test
    void onceFollowingStopsEveryLookupReadsTheBooks() {
        IssuedKey issued = keys.issue(org, Role.ADMIN).value();
        PgBooks.await("the key was kept", PATIENCE, () -> servedFromMemory(issued));

        changes.close();

        assertThat(servedFromMemory(issued)).isFalse();
    }

    /**
     * Whether the key authenticates although the books say it is revoked: it is revoked with triggers
     * off (so nothing is announced) for one lookup, then made live again the same way.
     */
    private boolean servedFromMemory(IssuedKey issued) {
        assertThat(keys.authenticate(issued.secret())).contains(issued.key());
        setRevokedSilently(issued, true);
        try {
            return keys.authenticate(issued.secret()).isPresent();
        } finally {
            setRevokedSilently(issued, false);
        }
    }

    private static void setRevokedSilently(IssuedKey issued, boolean revoked) {
        jdbi.useTransaction(handle -> {
            handle.execute("SET LOCAL session_replication_role = replica");
            handle.createUpdate("UPDATE api_keys SET revoked = :revoked, "
                            + "revoked_at = CASE WHEN :revoked THEN now() END WHERE id = :id")
                    .bind("revoked", revoked).bind("id", issued.key().id().value()).execute();
        });
    }

}
