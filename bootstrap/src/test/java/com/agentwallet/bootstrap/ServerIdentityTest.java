package com.agentwallet.bootstrap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A server's id is made once in its data directory and read again after a restart; another directory, another id. */
class ServerIdentityTest {
    @TempDir
    Path folder;

    @Test
    void theIdStaysWithItsDataDirectory() {
        String first = ServerIdentity.of(folder.resolve("data"));
        assertThat(first).isNotBlank();
        assertThat(ServerIdentity.of(folder.resolve("data"))).as("after a restart").isEqualTo(first);
        assertThat(folder.resolve("data").resolve(ServerIdentity.FILE)).hasContent(first);
        assertThat(ServerIdentity.of(folder.resolve("other-data"))).as("another server").isNotEqualTo(first);
    }
}
