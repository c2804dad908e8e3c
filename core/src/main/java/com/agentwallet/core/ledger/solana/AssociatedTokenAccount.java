package com.agentwallet.core.ledger.solana;

import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.ProgramAddress;

import java.util.List;

import static com.agentwallet.core.ledger.solana.AccountMeta.readonly;
import static com.agentwallet.core.ledger.solana.AccountMeta.signerWritable;
import static com.agentwallet.core.ledger.solana.AccountMeta.writable;
import static com.agentwallet.core.ledger.solana.SolanaPrograms.ASSOCIATED_TOKEN_PROGRAM;
import static com.agentwallet.core.ledger.solana.SolanaPrograms.SYSTEM_PROGRAM;
import static com.agentwallet.core.ledger.solana.SolanaPrograms.TOKEN_PROGRAM;

/** An owner's associated token account of a mint under SPL Token, as every wallet and SDK finds it. */
public final class AssociatedTokenAccount {
    private static final int CREATE_IDEMPOTENT = 1;

    private AssociatedTokenAccount() {
    }

    /** The program address of seeds {@code [owner, token program, mint]} under the Associated Token Account program. */
    public static ProgramAddress address(LedgerAddress owner, LedgerAddress mint) {
        return ProgramAddress.find(List.of(owner.bytes(), TOKEN_PROGRAM.bytes(), mint.bytes()), ASSOCIATED_TOKEN_PROGRAM);
    }

    /** Creates {@code owner}'s token account of {@code mint} unless it exists; {@code payer} pays rent. */
    public static Instruction createIdempotent(LedgerAddress payer, LedgerAddress tokenAccount, LedgerAddress owner,
                                               LedgerAddress mint) {
        return new Instruction(ASSOCIATED_TOKEN_PROGRAM, List.of(signerWritable(payer), writable(tokenAccount),
                readonly(owner), readonly(mint), readonly(SYSTEM_PROGRAM), readonly(TOKEN_PROGRAM)),
                new byte[]{CREATE_IDEMPOTENT});
    }
}
