package com.agentwallet.adapters.solana;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPlugins;
import com.agentwallet.core.testing.InMemoryLedgerJournal;
import com.agentwallet.core.testing.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.p2p.solanaj.core.Account;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The plugin's settings: each mistake is named at startup, and no key's secret is ever shown. */
class SolanaLedgerFactoryTest {
    private static final Account FEE_PAYER = new Account();
    private static final String SECRET_JSON = json(FEE_PAYER.getSecretKey());
    /** The adapter's four keys, each in its default environment variable. */
    private static final Map<String, Account> KEYS = Map.of("AGENT_WALLET_FEE_PAYER", FEE_PAYER,
            "AGENT_WALLET_REGISTRAR", new Account(), "AGENT_WALLET_AUTHORITY_ROOT", new Account(),
            "AGENT_WALLET_SESSION_ROOT", new Account());

    @TempDir
    Path data;

    @Test
    void theSolanaPluginIsFoundByName() {
        assertThat(LedgerPlugins.find("solana", getClass().getClassLoader())).isInstanceOf(SolanaLedgerFactory.class);
    }

    @Test
    void eachKeyIsReadFromAKeypairFileOrTheEnvironmentAsJsonOrBase58() throws Exception {
        assertThat(SolanaLedgerFactory.KEY_NAMES).containsExactly("fee_payer", "registrar", "authority_root",
                "session_root");
        Path file = Files.writeString(data.resolve("fee-payer.json"), SECRET_JSON);
        assertThat(create(Map.of("fee_payer_keypair", file.toString()), without("AGENT_WALLET_FEE_PAYER"))).isNotNull();
        assertThat(create(Map.of(), KEYS_AS_JSON)).isNotNull();
        assertThat(create(Map.of("registrar_env", "MY_KEY"), variable -> variable.equals("MY_KEY")
                ? KEYS.get("AGENT_WALLET_REGISTRAR").getPrivateKeyBase58()
                : without("AGENT_WALLET_REGISTRAR").apply(variable))).isNotNull();
    }

    @Test
    void eachWrongSettingIsRefusedNamingItAndNeverTheSecret() {
        assertRefused(Map.of("rpc_url", ""), "ledger.rpc_url", KEYS_AS_JSON);
        assertRefused(Map.of("commitment", "final"), "ledger.commitment", KEYS_AS_JSON);
        assertRefused(Map.of("cluster", "testnet"), "ledger.cluster", KEYS_AS_JSON);
        assertRefused(Map.of("program_id", "not-base58!"), "ledger.program_id", KEYS_AS_JSON);
        for (String name : SolanaLedgerFactory.KEY_NAMES) {
            String variable = "AGENT_WALLET_" + name.toUpperCase(Locale.ROOT);
            assertRefused(Map.of(), "ledger." + name + "_keypair", without(variable));
            assertRefused(Map.of(name + "_keypair", data.resolve("missing.json").toString()), "ledger." + name + "_keypair",
                    without(variable));
        }
        String tampered = SECRET_JSON.replaceFirst("\\[\\d+", "[" + ((FEE_PAYER.getSecretKey()[0] & 0xff) ^ 1));
        assertRefused(Map.of(), "ledger.fee_payer_keypair",
                variable -> variable.equals("AGENT_WALLET_FEE_PAYER") ? tampered : KEYS_AS_JSON.apply(variable));
    }

    @Test
    void withoutTheServicesJournalThereIsNoSolanaLedger() {
        assertThatThrownBy(() -> new SolanaLedgerFactory(KEYS_AS_JSON).create(new LedgerContext(
                MutableClock.atTestEpoch(), data, Map.of("rpc_url", "http://127.0.0.1:1"))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("journal");
    }

    @Test
    void oneKeyInTwoRolesIsRefused() {
        assertRefused(Map.of(), "ledger.keys", variable -> variable.equals("AGENT_WALLET_REGISTRAR") ? SECRET_JSON
                : KEYS_AS_JSON.apply(variable));
    }

    @Test
    void theKeysShowOnlyPublicKeys() {
        Keys keys = new Keys(FEE_PAYER, KEYS.get("AGENT_WALLET_REGISTRAR"), KEYS.get("AGENT_WALLET_AUTHORITY_ROOT"),
                KEYS.get("AGENT_WALLET_SESSION_ROOT"));
        String shown = keys.toString();
        assertThat(shown).contains(FEE_PAYER.getPublicKeyBase58());
        KEYS.values().forEach(key -> assertThat(shown).doesNotContain(key.getPrivateKeyBase58()));
    }

    private static final Function<String, String> KEYS_AS_JSON = variable -> Optional.ofNullable(KEYS.get(variable))
            .map(key -> json(key.getSecretKey())).orElse(null);

    private static Function<String, String> without(String missing) {
        return variable -> variable.equals(missing) ? null : KEYS_AS_JSON.apply(variable);
    }

    private void assertRefused(Map<String, String> settings, String field, Function<String, String> environment) {
        assertThatThrownBy(() -> create(settings, environment))
                .isInstanceOf(ValidationException.class)
                .satisfies(e -> KEYS.values().forEach(key -> assertThat(e.getMessage())
                        .doesNotContain(key.getPrivateKeyBase58()).doesNotContain(json(key.getSecretKey()))))
                .satisfies(e -> assertThat(((ValidationException) e).param()).isEqualTo(field));
    }

    private Object create(Map<String, String> settings, Function<String, String> environment) {
        Map<String, String> all = new HashMap<>(Map.of("rpc_url", "http://127.0.0.1:1"));
        all.putAll(settings);
        all.values().removeIf(String::isEmpty);
        return new SolanaLedgerFactory(environment).create(new LedgerContext(MutableClock.atTestEpoch(), data, all,
                new InMemoryLedgerJournal()));
    }

    private static String json(byte[] secret) {
        StringBuilder out = new StringBuilder("[");
        for (byte b : secret) {
            out.append(out.length() > 1 ? "," : "").append(b & 0xff);
        }
        return out.append(']').toString();
    }
}
