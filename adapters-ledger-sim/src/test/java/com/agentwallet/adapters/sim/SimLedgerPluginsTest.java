package com.agentwallet.adapters.sim;

import com.agentwallet.core.port.LedgerAdapterFactory;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPlugins;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.testing.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The simulator is found as the {@code sim} ledger plugin through {@code META-INF/services}. */
class SimLedgerPluginsTest {
    @TempDir
    Path folder;

    @Test
    void theSimPluginIsFoundByName() {
        LedgerAdapterFactory factory = LedgerPlugins.find("sim", getClass().getClassLoader());

        assertThat(factory).isInstanceOf(SimLedgerFactory.class);
        assertThat(factory.name()).isEqualTo(SimLedgerFactory.NAME).isEqualTo("sim");
    }

    @Test
    void anUnknownNameFailsListingThePluginsThatAreThere() {
        assertThatThrownBy(() -> LedgerPlugins.find("solana-devnet", getClass().getClassLoader()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'solana-devnet'")
                .hasMessageContaining("[sim]");
    }

    @Test
    void theFoundPluginMakesAWorkingSimulator() throws Exception {
        LedgerPort ledger = LedgerPlugins.find("sim", getClass().getClassLoader())
                .create(new LedgerContext(MutableClock.atTestEpoch(), folder, Map.of("persist", "false")));

        assertThat(ledger).isInstanceOf(SimulatedLedger.class);
        assertThat(ledger.currentSlot()).isPositive();
        ((SimulatedLedger) ledger).close();
        assertThat(Files.exists(folder.resolve("ledger-sim"))).as("persist=false writes no journal").isFalse();
    }
}
