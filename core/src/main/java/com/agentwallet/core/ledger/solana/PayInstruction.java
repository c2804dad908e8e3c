package com.agentwallet.core.ledger.solana;

import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static com.agentwallet.core.ledger.solana.AccountMeta.readonly;
import static com.agentwallet.core.ledger.solana.AccountMeta.signer;
import static com.agentwallet.core.ledger.solana.AccountMeta.writable;
import static com.agentwallet.core.ledger.solana.SolanaPrograms.TOKEN_PROGRAM;

/**
 * The wallet program's {@code pay} (programs/agent-wallet/layout.json): tag 8, the amount in
 * micro-USDC and the Unix second the payment counts at in the spend windows (0: when it lands); the
 * co-signer, when the policy has one, signs as the last account.
 */
public final class PayInstruction {
    public static final int TAG = 8;

    private PayInstruction() {
    }

    public static Instruction of(LedgerAddress program, LedgerAddress session, LedgerAddress wallet,
                                 LedgerAddress walletToken, LedgerAddress policy, LedgerAddress recipientToken,
                                 LedgerAddress mint, Usdc amount, long countedAtSeconds,
                                 Optional<LedgerAddress> coSigner) {
        List<AccountMeta> accounts = new ArrayList<>(List.of(signer(session), writable(wallet), writable(walletToken),
                readonly(policy), writable(recipientToken), readonly(mint), readonly(TOKEN_PROGRAM)));
        coSigner.ifPresent(key -> accounts.add(signer(key)));
        return new Instruction(program, accounts, new Bytes().u8(TAG).u64(amount.micros()).u64(countedAtSeconds).done());
    }
}
