package com.agentwallet.adapters.solana;

import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.ProgramAddress;
import org.p2p.solanaj.core.PublicKey;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The addresses of the wallet program's accounts (docs/PROGRAM.md) and of associated token
 * accounts, derived exactly as the program and every SDK derive them.
 */
final class SolanaAddresses {
    static final PublicKey SYSTEM_PROGRAM = new PublicKey("11111111111111111111111111111111");
    static final PublicKey TOKEN_PROGRAM = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
    static final PublicKey ASSOCIATED_TOKEN_PROGRAM = new PublicKey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
    static final PublicKey RECENT_BLOCKHASHES_SYSVAR = new PublicKey("SysvarRecentB1ockHashes11111111111111111111");
    static final PublicKey RENT_SYSVAR = new PublicKey("SysvarRent111111111111111111111111111111111");

    private final LedgerAddress programId;
    private final PublicKey mint;

    SolanaAddresses(LedgerAddress programId, PublicKey mint) {
        this.programId = programId;
        this.mint = mint;
    }

    PublicKey program() {
        return key(programId);
    }

    PublicKey mint() {
        return mint;
    }

    /** The program's configuration account: its registrar and mint. */
    ProgramAddress config() {
        return ProgramAddress.find(List.of(utf8("config")), programId);
    }

    ProgramAddress treasury(byte[] orgHash) {
        return ProgramAddress.find(List.of(utf8("treasury"), orgHash), programId);
    }

    ProgramAddress wallet(String orgId, String agentId) {
        return ProgramAddress.wallet(programId, orgId, agentId);
    }

    ProgramAddress policy(byte[] orgHash, String policyId) {
        return ProgramAddress.find(List.of(utf8("policy"), orgHash, hash(policyId)), programId);
    }

    ProgramAddress escrow(LedgerAddress wallet, String escrowId) {
        return ProgramAddress.find(List.of(utf8("escrow"), wallet.bytes(), hash(escrowId)), programId);
    }

    /** The owner's associated token account of the USDC mint. */
    ProgramAddress tokenAccount(LedgerAddress owner) {
        return ProgramAddress.find(List.of(owner.bytes(), TOKEN_PROGRAM.toByteArray(), mint.toByteArray()),
                new LedgerAddress(ASSOCIATED_TOKEN_PROGRAM.toBase58()));
    }

    static byte[] hash(String id) {
        return Hashing.sha256(utf8(id));
    }

    static PublicKey key(LedgerAddress address) {
        return new PublicKey(address.bytes());
    }

    static LedgerAddress address(PublicKey key) {
        return LedgerAddress.of(key.toByteArray());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
