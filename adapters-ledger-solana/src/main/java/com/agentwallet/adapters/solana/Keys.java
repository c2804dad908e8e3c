package com.agentwallet.adapters.solana;

import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.ledger.LedgerAddress;
import org.p2p.solanaj.core.Account;
import org.p2p.solanaj.core.PublicKey;
import org.p2p.solanaj.utils.TweetNaclFast;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The adapter's Ed25519 keys, four separate secrets so that none alone is a master key
 * (docs/PROGRAM.md, "Keys and custody"):
 * <ul>
 *   <li>the fee payer pays fees and rent, and nothing on chain answers to it;</li>
 *   <li>the registrar signs only the opening of an organisation's treasury;</li>
 *   <li>the authority root derives each organisation's own authority, which signs that
 *       organisation's administrative instructions and nobody else's;</li>
 *   <li>the session root derives the wallets' session keys, so that the service holds them without
 *       storing them: the session of version {@code v} of wallet {@code w} has one key, and rotating
 *       to {@code v + 1} gives a new one.</li>
 * </ul>
 * Each is read from a solana-keygen JSON file or base58 text. {@link #toString()} never shows a secret.
 */
final class Keys {
    private static final Pattern JSON_ARRAY = Pattern.compile("^\\s*\\[([0-9,\\s]+)]\\s*$");
    private static final int SECRET_LENGTH = 64;

    private final Account feePayer;
    private final Account registrar;
    private final Account authorityRoot;
    private final Account sessionRoot;

    /** Refuses one key in two roles: the point of four keys is that none can do what another does. */
    Keys(Account feePayer, Account registrar, Account authorityRoot, Account sessionRoot) {
        List<Account> all = List.of(feePayer, registrar, authorityRoot, sessionRoot);
        if (all.stream().map(Account::getPublicKeyBase58).distinct().count() != all.size()) {
            throw new IllegalArgumentException("the fee payer, registrar, authority root and session root must be "
                    + "four different keys");
        }
        this.feePayer = feePayer;
        this.registrar = registrar;
        this.authorityRoot = authorityRoot;
        this.sessionRoot = sessionRoot;
    }

    /** A 64-byte secret key as solana-keygen writes it ({@code [n,n,...]}) or as base58 text. */
    static Optional<Account> parse(String text) {
        Matcher array = JSON_ARRAY.matcher(text);
        byte[] secret;
        if (array.matches()) {
            String[] numbers = array.group(1).split(",");
            secret = new byte[numbers.length];
            for (int i = 0; i < numbers.length; i++) {
                int value = Integer.parseInt(numbers[i].trim());
                if (value > 255) {
                    return Optional.empty();
                }
                secret[i] = (byte) value;
            }
        } else {
            secret = Base58.decode(text.trim()).orElse(new byte[0]);
        }
        if (secret.length != SECRET_LENGTH) {
            return Optional.empty();
        }
        Account account = new Account(secret);
        byte[] derivedPublic = TweetNaclFast.Signature.keyPair_fromSeed(Bytes.slice(secret, 0, 32)).getPublicKey();
        return Arrays.equals(derivedPublic, account.getPublicKey().toByteArray())
                ? Optional.of(account) : Optional.empty();
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
        return derive(sessionRoot, "agent-wallet/session-key/v1|" + programId + "|" + wallet + "|" + version);
    }

    /** The authority of the organisation whose {@code org_hash} is {@code orgHash}. */
    Account orgAuthority(LedgerAddress programId, byte[] orgHash) {
        return derive(authorityRoot, "agent-wallet/org-authority/v1|" + programId + "|" + HexFormat.of().formatHex(orgHash));
    }

    private static Account derive(Account root, String label) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(root.getSecretKey(), "HmacSHA256"));
            byte[] seed = mac.doFinal(label.getBytes(StandardCharsets.UTF_8));
            return new Account(TweetNaclFast.Signature.keyPair_fromSeed(seed).getSecretKey());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    static byte[] sign(Account signer, byte[] message) {
        return new TweetNaclFast.Signature(signer.getPublicKey().toByteArray(), signer.getSecretKey()).detached(message);
    }

    @Override
    public String toString() {
        return "Keys[fee payer " + feePayer.getPublicKeyBase58() + ", registrar " + registrar.getPublicKeyBase58() + "]";
    }
}
