package com.agentwallet.core.ledger.solana;

import com.agentwallet.core.ledger.LedgerAddress;

/** The well-known Solana programs, sysvars and mints the wallet program's transactions name. */
public final class SolanaPrograms {
    public static final LedgerAddress SYSTEM_PROGRAM = new LedgerAddress("11111111111111111111111111111111");
    public static final LedgerAddress TOKEN_PROGRAM = new LedgerAddress("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
    public static final LedgerAddress ASSOCIATED_TOKEN_PROGRAM =
            new LedgerAddress("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
    public static final LedgerAddress RECENT_BLOCKHASHES_SYSVAR =
            new LedgerAddress("SysvarRecentB1ockHashes11111111111111111111");
    public static final LedgerAddress RENT_SYSVAR = new LedgerAddress("SysvarRent111111111111111111111111111111111");
    /** Devnet's USDC mint, which localnet reuses for its own mint. */
    public static final LedgerAddress DEVNET_USDC_MINT = new LedgerAddress("4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU");

    private SolanaPrograms() {
    }
}
