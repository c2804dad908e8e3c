package com.agentwallet.adapters.solana;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPlugins;
import com.agentwallet.core.testing.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.p2p.solanaj.core.Account;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The plugin's settings: each mistake is named at startup, and the fee payer's secret is never shown. */
class SolanaLedgerFactoryTest {
    private static final Account FEE_PAYER = new Account();
    private static final String SECRET_JSON = json(FEE_PAYER.getSecretKey());

    @TempDir
    Path data;

    @Test
    void theSolanaPluginIsFoundByName() {
        assertThat(LedgerPlugins.find("solana", getClass().getClassLoader())).isInstanceOf(SolanaLedgerFactory.class);
    }

    @Test
    void theFeePayerIsReadFromAKeypairFileOrTheEnvironmentAsJsonOrBase58() throws Exception {
        Path file = Files.writeString(data.resolve("fee-payer.json"), SECRET_JSON);
        assertThat(create(Map.of("fee_payer_keypair", file.toString()), variable -> null)).isNotNull();
        assertThat(create(Map.of(), variable -> variable.equals("AGENT_WALLET_FEE_PAYER") ? SECRET_JSON : null))
                .isNotNull();
        assertThat(create(Map.of("fee_payer_env", "MY_KEY"),
                variable -> variable.equals("MY_KEY") ? FEE_PAYER.getPrivateKeyBase58() : null)).isNotNull();
    }

    @Test
    void eachWrongSettingIsRefusedNamingItAndNeverTheSecret() {
        assertRefused(Map.of("rpc_url", ""), "ledger.rpc_url", variable -> SECRET_JSON);
        assertRefused(Map.of("commitment", "final"), "ledger.commitment", variable -> SECRET_JSON);
        assertRefused(Map.of("cluster", "testnet"), "ledger.cluster", variable -> SECRET_JSON);
        assertRefused(Map.of("program_id", "not-base58!"), "ledger.program_id", variable -> SECRET_JSON);
        assertRefused(Map.of(), "ledger.fee_payer_keypair", variable -> null);
        assertRefused(Map.of("fee_payer_keypair", data.resolve("missing.json").toString()), "ledger.fee_payer_keypair",
                variable -> null);
        String tampered = SECRET_JSON.replaceFirst("\\[\\d+", "[" + ((FEE_PAYER.getSecretKey()[0] & 0xff) ^ 1));
        assertRefused(Map.of(), "ledger.fee_payer_keypair", variable -> tampered);
    }

    @Test
    void theKeysShowOnlyThePublicKey() {
        String shown = new Keys(FEE_PAYER).toString();
        assertThat(shown).contains(FEE_PAYER.getPublicKeyBase58()).doesNotContain(FEE_PAYER.getPrivateKeyBase58());
    }

    private void assertRefused(Map<String, String> settings, String field, Function<String, String> environment) {
        assertThatThrownBy(() -> create(settings, environment))
                .isInstanceOf(ValidationException.class)
                .hasMessageNotContaining(FEE_PAYER.getPrivateKeyBase58())
                .hasMessageNotContaining(SECRET_JSON)
                .satisfies(e -> assertThat(((ValidationException) e).param()).isEqualTo(field));
    }

    private Object create(Map<String, String> settings, Function<String, String> environment) {
        Map<String, String> all = new HashMap<>(Map.of("rpc_url", "http://127.0.0.1:1", "persist", "false"));
        all.putAll(settings);
        all.values().removeIf(String::isEmpty);
        return new SolanaLedgerFactory(environment).create(new LedgerContext(MutableClock.atTestEpoch(), data, all));
    }

    private static String json(byte[] secret) {
        StringBuilder out = new StringBuilder("[");
        for (byte b : secret) {
            out.append(out.length() > 1 ? "," : "").append(b & 0xff);
        }
        return out.append(']').toString();
    }
}
