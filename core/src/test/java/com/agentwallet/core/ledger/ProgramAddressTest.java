package com.agentwallet.core.ledger;

import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.crypto.Ed25519Curve;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Vectors computed with @solana/web3.js 1.x: {@code PublicKey.findProgramAddressSync([Buffer.from('agent-wallet'),
 * sha256(org), sha256(agent)], new PublicKey(program))}.
 */
class ProgramAddressTest {
    private static final String AGENT_WALLET = "AgentWa11etProgram1111111111111111111111111";
    private static final String TOKEN = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";

    @ParameterizedTest(name = "{0} / {1} / {2} -> {3} bump {4}")
    @CsvSource({
            AGENT_WALLET + ", org_000000000000000000000001, agent-1, GXU8tqYKakNj5MBmUHpXWiYR9f9nKmGHdfn7RkaqbWwq, 255",
            AGENT_WALLET + ", org_AbCdEfGhIjKlMnOpQrStUvWx, support-bot@acme, FKN4Pkaaf23zgSFmysCn3BzizWH6t79R9muwgUovuw7z, 254",
            AGENT_WALLET + ", org_zzzzzzzzzzzzzzzzzzzzzzzz, x, JmavjePNkaXF7rGabdrBhHLzS6zUSTUSctMdWZDTsJH, 254",
            AGENT_WALLET + ", org_0123456789ABCDEFGHIJKLMN, agent:42, 3f4iDYpxYeTGLT9y8gof3CTbri2FD7fVPNTGtjMUAtBJ, 253",
            AGENT_WALLET + ", org_000000000000000000000001, agent-11, GLwqN3jxjtvYKo1hpqTKSTMGWARtTfa11NR6GfsjFm6N, 249",
            AGENT_WALLET + ", org_000000000000000000000001, agent-28, 9pmZbc9nS6LeUZxgAHr3gjgUfXWEY83dJ1gCTfvggY6h, 250",
            AGENT_WALLET + ", org_000000000000000000000001, agent-7, 6ah6fvqS4KoCb31RQAjiJyFdacS4xebKb6pu2DbmctZh, 252",
            TOKEN + ", org_000000000000000000000001, agent-1, B6Gtxj4Q64tgQGTGfytM8XGXGmur2FaS8Laivzastq7Z, 252",
            TOKEN + ", org_AbCdEfGhIjKlMnOpQrStUvWx, support-bot@acme, D7Au5G6oE8LKEhwnLv1kdmajBky8D1xQFdDTwLSgrQBN, 255",
            TOKEN + ", org_0123456789ABCDEFGHIJKLMN, agent:42, EqGtbZzjWaEDSHczg48BdcUYGgG8v6miKcQWJf6iLBiJ, 255",
    })
    void walletAddressesMatchTheSolanaSdk(String program, String org, String agent, String address, int bump) {
        ProgramAddress derived = ProgramAddress.wallet(new LedgerAddress(program), org, agent);

        assertThat(derived.address().base58()).isEqualTo(address);
        assertThat(derived.bump()).isEqualTo(bump);
    }

    @Test
    void theFoundAddressIsOffTheCurveAndEveryHigherBumpWasOnIt() {
        LedgerAddress program = new LedgerAddress(AGENT_WALLET);
        List<byte[]> seeds = List.of("agent-wallet".getBytes(StandardCharsets.UTF_8), new byte[]{1, 2, 3});
        ProgramAddress found = ProgramAddress.find(seeds, program);

        assertThat(Ed25519Curve.isOnCurve(found.address().bytes())).isFalse();
        for (int bump = 255; bump > found.bump(); bump--) {
            List<byte[]> withBump = List.of(seeds.get(0), seeds.get(1), new byte[]{(byte) bump});
            assertThat(ProgramAddress.create(withBump, program)).isEmpty();
        }
    }

    @Test
    void realPublicKeysAreOnTheCurve() {
        // The system program id (32 zero bytes) and a real ed25519 public key both decompress.
        assertThat(Ed25519Curve.isOnCurve(new byte[32])).isTrue();
        assertThat(Ed25519Curve.isOnCurve(Base58.decode(TOKEN, 32).orElseThrow())).isTrue();
    }
}
