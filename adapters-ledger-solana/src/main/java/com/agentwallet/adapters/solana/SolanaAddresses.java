package com.agentwallet.adapters.solana;

import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.ProgramAddress;
import com.agentwallet.core.ledger.solana.AssociatedTokenAccount;
import com.agentwallet.core.ledger.solana.SolanaPrograms;
import org.p2p.solanaj.core.PublicKey;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The addresses of the wallet program's accounts (docs/PROGRAM.md) and of associated token
 * accounts, derived exactly as the program and every SDK derive them.
 */
final class SolanaAddresses {
    static final PublicKey SYSTEM_PROGRAM = key(SolanaPrograms.SYSTEM_PROGRAM);
    static final PublicKey TOKEN_PROGRAM = key(SolanaPrograms.TOKEN_PROGRAM);
    static final PublicKey RECENT_BLOCKHASHES_SYSVAR = key(SolanaPrograms.RECENT_BLOCKHASHES_SYSVAR);
    static final PublicKey RENT_SYSVAR = key(SolanaPrograms.RENT_SYSVAR);

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
        return ProgramAddress.policy(programId, orgHash, policyId);
    }

    ProgramAddress escrow(LedgerAddress wallet, String escrowId) {
        return ProgramAddress.find(List.of(utf8("escrow"), wallet.bytes(), hash(escrowId)), programId);
    }

    /** The owner's associated token account of the USDC mint. */
    ProgramAddress tokenAccount(LedgerAddress owner) {
        return AssociatedTokenAccount.address(owner, address(mint));
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
