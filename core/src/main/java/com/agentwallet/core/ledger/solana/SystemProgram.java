package com.agentwallet.core.ledger.solana;

import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.ledger.LedgerAddress;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static com.agentwallet.core.ledger.solana.AccountMeta.readonly;
import static com.agentwallet.core.ledger.solana.AccountMeta.signer;
import static com.agentwallet.core.ledger.solana.AccountMeta.writable;
import static com.agentwallet.core.ledger.solana.SolanaPrograms.RECENT_BLOCKHASHES_SYSVAR;
import static com.agentwallet.core.ledger.solana.SolanaPrograms.SYSTEM_PROGRAM;

/** What the System program's accounts with a seed and durable nonces need: addresses and instructions. */
public final class SystemProgram {
    public static final int MAX_SEED_LENGTH = 32;
    private static final int ADVANCE_NONCE_ACCOUNT = 4;

    private SystemProgram() {
    }

    /** Solana's {@code create_with_seed}: SHA-256 of the base, the seed and the owner program. */
    public static LedgerAddress createWithSeed(LedgerAddress base, String seed, LedgerAddress owner) {
        byte[] seedBytes = seed.getBytes(StandardCharsets.UTF_8);
        if (seedBytes.length > MAX_SEED_LENGTH) {
            throw new IllegalArgumentException("a seed has at most " + MAX_SEED_LENGTH + " bytes");
        }
        ByteArrayOutputStream input = new ByteArrayOutputStream();
        input.writeBytes(base.bytes());
        input.writeBytes(seedBytes);
        input.writeBytes(owner.bytes());
        return LedgerAddress.of(Hashing.sha256(input.toByteArray()));
    }

    /** The first instruction of a transaction whose "recent blockhash" is the nonce stored in {@code account}. */
    public static Instruction advanceNonceAccount(LedgerAddress account, LedgerAddress authority) {
        return new Instruction(SYSTEM_PROGRAM, List.of(writable(account), readonly(RECENT_BLOCKHASHES_SYSVAR),
                signer(authority)), new Bytes().u32(ADVANCE_NONCE_ACCOUNT).done());
    }
}
