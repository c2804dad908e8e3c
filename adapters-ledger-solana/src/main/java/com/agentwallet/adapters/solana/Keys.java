package com.agentwallet.adapters.solana;

import com.agentwallet.core.crypto.Ed25519KeyPair;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.solana.SessionKeys;
import com.agentwallet.core.ledger.solana.SolanaKeypair;
import org.p2p.solanaj.core.Account;
import org.p2p.solanaj.core.PublicKey;
import org.p2p.solanaj.utils.TweetNaclFast;

import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The adapter's Ed25519 keys, four separate secrets so that none alone is a master key
 * (docs/PROGRAM.md, "Keys and custody"):
 * <ul>
 *   <li>the fee payer pays fees and rent, and nothing on chain answers to it;</li>
 *   <li>the registrar signs only the opening of an organisation's treasury;</li>
 *   <li>the authority root derives each organisation's own authority, which signs that
 *       organisation's administrative instructions and nobody else's;</li>
 *   <li>the session root derives the wallets' session keys ({@link SessionKeys}), so that the
 *       service holds them without storing them.</li>
 * </ul>
 * Each is read from a solana-keygen JSON file or base58 text. {@link #toString()} never shows a secret.
 */
final class Keys {
    private final Account feePayer;
    private final Account registrar;
    private final byte[] authorityRoot;
    private final SessionKeys sessions;

    /** Refuses one key in two roles: the point of four keys is that none can do what another does. */
    Keys(Account feePayer, Account registrar, Account authorityRoot, Account sessionRoot) {
        List<Account> all = List.of(feePayer, registrar, authorityRoot, sessionRoot);
        if (all.stream().map(Account::getPublicKeyBase58).distinct().count() != all.size()) {
            throw new IllegalArgumentException("the fee payer, registrar, authority root and session root must be "
                    + "four different keys");
        }
        this.feePayer = feePayer;
        this.registrar = registrar;
        this.authorityRoot = authorityRoot.getSecretKey();
        this.sessions = new SessionKeys(sessionRoot.getSecretKey());
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

    Account registrar() {
        return registrar;
    }

    /** The key of session {@code version} of {@code wallet}. */
    Account session(LedgerAddress programId, LedgerAddress wallet, long version) {
        return new Account(sessions.keyPair(programId, wallet, version).secretKey());
    }

    /** The authority of the organisation whose {@code org_hash} is {@code orgHash}. */
    Account orgAuthority(LedgerAddress programId, byte[] orgHash) {
        return new Account(Ed25519KeyPair.derived(authorityRoot,
                "agent-wallet/org-authority/v1|" + programId + "|" + HexFormat.of().formatHex(orgHash)).secretKey());
    }

    static byte[] sign(Account signer, byte[] message) {
        return new TweetNaclFast.Signature(signer.getPublicKey().toByteArray(), signer.getSecretKey()).detached(message);
    }

    @Override
    public String toString() {
        return "Keys[fee payer " + feePayer.getPublicKeyBase58() + ", registrar " + registrar.getPublicKeyBase58() + "]";
    }
}
