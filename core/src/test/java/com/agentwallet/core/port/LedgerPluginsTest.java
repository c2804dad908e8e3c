package com.agentwallet.core.port;

import com.agentwallet.core.testing.FakeLedger;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Choosing the configured ledger plugin among those on the class path. */
class LedgerPluginsTest {

    /** A plugin that is only a name. */
    private record Named(String name) implements LedgerAdapterFactory {
        @Override
        public LedgerPort create(LedgerContext context) {
            return new FakeLedger();
        }
    }

    /** A second class of plugin, so two plugins of one name can be told apart. */
    private static final class Impostor implements LedgerAdapterFactory {
        @Override
        public String name() {
            return "sim";
        }

        @Override
        public LedgerPort create(LedgerContext context) {
            return new FakeLedger();
        }
    }

    @Test
    void thePluginWithTheConfiguredNameIsChosen() {
        LedgerAdapterFactory sim = new Named("sim");
        LedgerAdapterFactory solana = new Named("solana");

        assertThat(LedgerPlugins.choose("sim", List.of(solana, sim))).isSameAs(sim);
        assertThat(LedgerPlugins.choose("solana", List.of(solana, sim))).isSameAs(solana);
    }

    @Test
    void anUnknownNameFailsListingTheAvailableNamesInOrder() {
        assertThatThrownBy(() -> LedgerPlugins.choose("ethereum", List.of(new Named("solana"), new Named("sim"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("No ledger plugin named 'ethereum'; available: [sim, solana]");
    }

    @Test
    void noPluginsAtAllFailsSayingSo() {
        assertThatThrownBy(() -> LedgerPlugins.choose("sim", List.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("No ledger plugin named 'sim'; available: []");
    }

    @Test
    void namesAreMatchedExactly() {
        assertThatThrownBy(() -> LedgerPlugins.choose("SIM", List.of(new Named("sim"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("[sim]");
    }

    @Test
    void twoPluginsWithTheSameNameFailNamingBothClasses() {
        assertThatThrownBy(() -> LedgerPlugins.choose("sim", List.of(new Named("sim"), new Impostor(),
                new Named("solana"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Several ledger plugins are named 'sim'")
                .hasMessageContaining(Named.class.getName())
                .hasMessageContaining(Impostor.class.getName())
                .hasMessageNotContaining("solana");
    }

    @Test
    void findOnAClassPathWithoutPluginsListsNone() {
        assertThatThrownBy(() -> LedgerPlugins.find("sim", LedgerPluginsTest.class.getClassLoader()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("No ledger plugin named 'sim'; available: []");
    }
}
