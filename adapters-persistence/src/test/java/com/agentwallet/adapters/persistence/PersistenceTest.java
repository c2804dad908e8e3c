package com.agentwallet.adapters.persistence;

import java.time.Clock;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class PersistenceTest {
    @Test
    void theEmbeddedDefaultKeepsTheBooksInItsDataFolderAcrossRestarts(@TempDir Path data) {
        Organisation org = new Organisation(new RandomIdGenerator(new Random(1)).org(), "Acme", Usdc.parse("12.50"),
                Instant.parse("2026-04-01T12:00:00Z"));
        try (Persistence first = Persistence.open(PersistenceSettings.embedded(data, 2))) {
            first.storage(Clock.systemUTC()).inTransaction(stores -> {
                stores.organisations().insert(org);
                return org;
            });
        }

        try (Persistence second = Persistence.open(PersistenceSettings.embedded(data, 2))) {
            Optional<Organisation> found = second.storage(Clock.systemUTC()).inTransaction(stores -> stores.organisations().find(org.id()));
            assertThat(found).contains(org);
        }
        assertThat(data.resolve("postgres")).isDirectoryContaining("glob:**PG_VERSION");
    }
}
