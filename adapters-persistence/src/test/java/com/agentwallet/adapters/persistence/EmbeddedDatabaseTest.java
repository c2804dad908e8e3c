package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.port.StorageUnavailableException;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The embedded PostgreSQL asks every connection for the password it made, kept beside the cluster
 * for its owner only; a cluster made when the library trusted every local user is given one; and a
 * database that is down fails a unit of work as unavailable after the configured wait, not the
 * pool's default 30 s.
 */
class EmbeddedDatabaseTest {
    @TempDir
    Path root;

    @Test
    void aNewClusterAsksEveryConnectionForThePasswordItMadeAndKeepsAcrossRestarts() throws Exception {
        Path cluster = root.resolve("postgres");
        String password;
        try (EmbeddedDatabase db = EmbeddedDatabase.start(cluster, root.resolve("bin"), 0)) {
            password = db.password();
            Path file = EmbeddedDatabase.passwordFile(cluster);
            assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
            assertThat(EmbeddedDatabase.password(cluster)).isEqualTo(password).hasSizeGreaterThanOrEqualTo(40);
            assertThat(Files.getPosixFilePermissions(cluster)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
            assertRefused(db.jdbcUrl("postgres"), "");
            assertRefused(db.jdbcUrl("postgres"), password + "x");
            assertConnects(db.jdbcUrl("postgres"), password);
        }

        try (EmbeddedDatabase again = EmbeddedDatabase.start(cluster, root.resolve("bin"), 0)) {
            assertThat(again.password()).isEqualTo(password);
            assertRefused(again.jdbcUrl("postgres"), "");
            assertConnects(again.jdbcUrl("postgres"), password);
        }
    }

    @Test
    void aClusterMadeWithoutAPasswordIsGivenOneOnItsNextStart() throws Exception {
        Path cluster = root.resolve("postgres");
        Path binaries = root.resolve("bin");
        Files.createDirectories(binaries);
        // As older versions made it: the library's defaults, every local connection trusted.
        try (EmbeddedPostgres trusting = EmbeddedPostgres.builder().setDataDirectory(cluster)
                .setCleanDataDirectory(false).setOverrideWorkingDirectory(binaries.toFile())
                .setRegisterShutdownHook(false).start()) {
            assertConnects(trusting.getJdbcUrl("postgres", "postgres"), "");
        }
        assertThat(EmbeddedDatabase.passwordFile(cluster)).doesNotExist();

        try (EmbeddedDatabase db = EmbeddedDatabase.start(cluster, binaries, 0)) {
            assertThat(Files.getPosixFilePermissions(EmbeddedDatabase.passwordFile(cluster)))
                    .isEqualTo(PosixFilePermissions.fromString("rw-------"));
            assertThat(EmbeddedDatabase.password(cluster)).isEqualTo(db.password());
            assertRefused(db.jdbcUrl("postgres"), "");
            assertConnects(db.jdbcUrl("postgres"), db.password());
        }
        try (EmbeddedDatabase again = EmbeddedDatabase.start(cluster, binaries, 0)) {
            assertRefused(again.jdbcUrl("postgres"), "");
            assertConnects(again.jdbcUrl("postgres"), again.password());
        }
    }

    @Test
    void aDatabaseThatIsDownFailsAUnitOfWorkAsUnavailableAfterTheConfiguredWait() {
        Duration wait = Duration.ofMillis(1500);
        try (Persistence persistence = Persistence.open(new PersistenceSettings(Optional.empty(), EmbeddedDatabase.USER,
                "", root, 0, 2, wait))) {
            assertThat(persistence.dataSource().getConnectionTimeout()).isEqualTo(wait.toMillis());
            persistence.embedded().orElseThrow().close();

            long started = System.nanoTime();
            assertThatThrownBy(() -> persistence.storage(Clock.systemUTC())
                    .readOne(stores -> stores.organisations().find(new RandomIdGenerator(new Random(1)).org())))
                    .isInstanceOf(StorageUnavailableException.class);
            System.out.printf("a unit of work on a stopped database failed as unavailable after %d ms (wait %d ms)%n",
                    Duration.ofNanos(System.nanoTime() - started).toMillis(), wait.toMillis());
        }
    }

    private static void assertRefused(String url, String password) {
        assertThatThrownBy(() -> DriverManager.getConnection(url, EmbeddedDatabase.USER, password).close())
                .isInstanceOf(SQLException.class);
    }

    private static void assertConnects(String url, String password) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, EmbeddedDatabase.USER, password)) {
            assertThat(connection.isValid(5)).isTrue();
        }
    }
}
