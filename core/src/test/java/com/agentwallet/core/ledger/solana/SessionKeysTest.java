package com.agentwallet.core.ledger.solana;

import com.agentwallet.core.ledger.LedgerAddress;
import org.junit.jupiter.api.Test;

import static com.agentwallet.core.ledger.solana.LegacyMessageTest.filled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Session keys as the Solana adapter derived them with TweetNaCl, so that keys already on chain stay valid. */
class SessionKeysTest {
    private static final LedgerAddress PROGRAM = new LedgerAddress("AgentWa11etProgram1111111111111111111111111");

    @Test
    void aSessionKeyIsTheEd25519KeyOfTheHmacOfItsProgramWalletAndVersion() {
        SessionKeys keys = new SessionKeys(root());

        assertThat(keys.publicKey(PROGRAM, filled(3), 3))
                .isEqualTo(new LedgerAddress("CnZTZDrWUSK8smRrCxMdeEwc1yx3yDqyGKseTCUa8LPs"));
        assertThat(keys.keyPair(PROGRAM, filled(3), 3).secretKey()).hasSize(64)
                .endsWith(keys.publicKey(PROGRAM, filled(3), 3).bytes());
    }

    @Test
    void anotherVersionWalletOrRootGivesAnotherKey() {
        SessionKeys keys = new SessionKeys(root());
        LedgerAddress key = keys.publicKey(PROGRAM, filled(3), 3);
        byte[] otherRoot = root();
        otherRoot[63] = 0;

        assertThat(keys.publicKey(PROGRAM, filled(3), 4)).isNotEqualTo(key);
        assertThat(keys.publicKey(PROGRAM, filled(4), 3)).isNotEqualTo(key);
        assertThat(new SessionKeys(otherRoot).publicKey(PROGRAM, filled(3), 3)).isNotEqualTo(key);
        assertThat(keys.toString()).doesNotContain("0102");
    }

    @Test
    void aRootHasAtLeastThirtyTwoBytes() {
        assertThatThrownBy(() -> new SessionKeys(new byte[31])).isInstanceOf(IllegalArgumentException.class);
        assertThat(new SessionKeys(new byte[32]).publicKey(PROGRAM, filled(3), 0)).isNotNull();
    }

    private static byte[] root() {
        byte[] root = new byte[64];
        for (int i = 0; i < root.length; i++) {
            root[i] = (byte) (i + 1);
        }
        return root;
    }
}
