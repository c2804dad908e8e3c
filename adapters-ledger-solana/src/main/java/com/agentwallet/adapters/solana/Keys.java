package com.agentwallet.adapters.solana;

import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.solana.SessionKeys;
import com.agentwallet.core.ledger.solana.SolanaKeypair;
import org.p2p.solanaj.core.Account;
import org.p2p.solanaj.core.PublicKey;
import org.p2p.solanaj.utils.TweetNaclFast;

import java.util.Optional;

/**
 * The adapter's Ed25519 keys: the fee payer (which is also every treasury's authority), read from
 * a solana-keygen JSON file or base58 text, and the wallets' session keys ({@link SessionKeys}),
 * derived from the fee payer's secret so that the service holds them without storing them.
 * {@link #toString()} never shows a secret.
 */
final class Keys {
    private final Account feePayer;
    private final SessionKeys sessions;

    Keys(Account feePayer) {
        this.feePayer = feePayer;
        this.sessions = new SessionKeys(feePayer.getSecretKey());
    }

    /** A 64-byte secret key as solana-keygen writes it ({@code [n,n,...]}) or as base58 text. */
    static Optional<Account> parse(String text) {
        return SolanaKeypair.parse(text).map(keyPair -> new Account(keyPair.secretKey()));
    }

    PublicKey feePayer() {
        return feePayer.getPublicKey();
    }

    Account feePayerAccount() {
        return feePayer;
    }

    /** The key of session {@code version} of {@code wallet}. */
    Account session(LedgerAddress programId, LedgerAddress wallet, long version) {
        return new Account(sessions.keyPair(programId, wallet, version).secretKey());
    }

    static byte[] sign(Account signer, byte[] message) {
        return new TweetNaclFast.Signature(signer.getPublicKey().toByteArray(), signer.getSecretKey()).detached(message);
    }

    @Override
    public String toString() {
        return "Keys[fee payer " + feePayer.getPublicKeyBase58() + "]";
    }
}
