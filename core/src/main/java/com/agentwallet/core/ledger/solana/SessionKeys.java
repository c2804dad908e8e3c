package com.agentwallet.core.ledger.solana;

import com.agentwallet.core.crypto.Ed25519KeyPair;
import com.agentwallet.core.ledger.LedgerAddress;


/**
 * The wallets' session keys, derived from a root secret so that they are held without being
 * stored: the session of version {@code v} of wallet {@code w} has one key, and rotating to
 * {@code v + 1} gives a new one. The key's seed is HMAC-SHA256(root,
 * {@code "agent-wallet/session-key/v1|" + program + "|" + wallet + "|" + version}); keys already on
 * chain depend on exactly that.
 */
public final class SessionKeys {
    public static final int MIN_ROOT_LENGTH = 32;

    private final byte[] root;

    public SessionKeys(byte[] rootSecret) {
        if (rootSecret.length < MIN_ROOT_LENGTH) {
            throw new IllegalArgumentException("a session-key root has at least " + MIN_ROOT_LENGTH + " bytes");
        }
        this.root = rootSecret.clone();
    }

    /** The key of session {@code version} of {@code wallet}. */
    public Ed25519KeyPair keyPair(LedgerAddress programId, LedgerAddress wallet, long version) {
        return Ed25519KeyPair.derived(root, "agent-wallet/session-key/v1|" + programId + "|" + wallet + "|" + version);
    }

    /** The public key of session {@code version} of {@code wallet}. */
    public LedgerAddress publicKey(LedgerAddress programId, LedgerAddress wallet, long version) {
        return LedgerAddress.of(keyPair(programId, wallet, version).publicKey());
    }

    @Override
    public String toString() {
        return "SessionKeys[root hidden]";
    }
}
