package com.agentwallet.adapters.solana;

import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.solana.Bytes;
import org.p2p.solanaj.core.PublicKey;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Where the adapter reads the wallet program's accounts: programs/agent-wallet/layout.json, layout
 * version 2 (ProgramLayoutTest holds these offsets to it).
 */
final class ProgramAccounts {
    static final int KIND_TREASURY = 1;
    static final int TREASURY_AUTHORITY = 40;
    static final int TREASURY_MINT = 72;
    static final int TREASURY_SIZE = 136;
    static final int WALLET_ORG_HASH = 8;
    static final int WALLET_TREASURY = 72;
    static final int WALLET_POLICY = 104;
    static final int KIND_POLICY = 3;
    static final int POLICY_FLAGS = 80;
    static final int POLICY_CO_SIGNER = 128;
    static final int FLAG_CO_SIGN = 32;
    static final int KIND_ESCROW = 4;
    static final int ESCROW_RENT_PAYER = 232;
    static final int ESCROW_SIZE = 264;

    private ProgramAccounts() {
    }

    static boolean isPolicy(byte[] data) {
        return data.length > POLICY_CO_SIGNER + 32 && data[0] == KIND_POLICY;
    }

    /**
     * What makes a treasury account not one that {@code authority} holds for {@code mint}: another
     * kind or size of account, another authority, or another mint. Empty when it is theirs.
     */
    static Optional<String> foreignTreasury(byte[] data, PublicKey authority, PublicKey mint) {
        if (data.length != TREASURY_SIZE || data[0] != KIND_TREASURY) {
            return Optional.of("is not a treasury");
        }
        PublicKey holder = new PublicKey(Bytes.slice(data, TREASURY_AUTHORITY, 32));
        if (!holder.equals(authority)) {
            return Optional.of("answers to " + holder.toBase58() + ", not to this service's " + authority.toBase58());
        }
        PublicKey held = new PublicKey(Bytes.slice(data, TREASURY_MINT, 32));
        if (!held.equals(mint)) {
            return Optional.of("holds mint " + held.toBase58() + ", not the configured " + mint.toBase58());
        }
        return Optional.empty();
    }

    /** Who paid an escrow's rent at lock, and gets it back at settlement; empty when the data is no escrow. */
    static Optional<PublicKey> escrowRentPayer(byte[] data) {
        return data.length == ESCROW_SIZE && data[0] == KIND_ESCROW
                ? Optional.of(new PublicKey(Bytes.slice(data, ESCROW_RENT_PAYER, 32)))
                : Optional.empty();
    }

    /** The policy's co-signer, when it asks for one. */
    static Optional<PublicKey> coSigner(byte[] policy) {
        return (Bytes.u32At(policy, POLICY_FLAGS) & FLAG_CO_SIGN) != 0
                ? Optional.of(new PublicKey(Bytes.slice(policy, POLICY_CO_SIGNER, 32)))
                : Optional.empty();
    }

    /**
     * A recipient as the program stores it: the 32 bytes of a Solana address; any other text, which
     * no payment on Solana can be sent to, as its SHA-256, so that it is kept yet matches nothing payable.
     */
    static byte[] recipientKey(String recipient) {
        return LedgerAddress.isValid(recipient)
                ? new LedgerAddress(recipient).bytes()
                : Hashing.sha256(recipient.getBytes(StandardCharsets.UTF_8));
    }
}
