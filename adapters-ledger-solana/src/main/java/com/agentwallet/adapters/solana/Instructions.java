package com.agentwallet.adapters.solana;

import com.agentwallet.core.ledger.solana.AssociatedTokenAccount;
import com.agentwallet.core.ledger.solana.Bytes;
import com.agentwallet.core.ledger.solana.Instruction;
import com.agentwallet.core.ledger.solana.LegacyMessage;
import org.p2p.solanaj.core.AccountMeta;
import org.p2p.solanaj.core.PublicKey;
import org.p2p.solanaj.core.TransactionInstruction;

import java.util.List;

import static com.agentwallet.adapters.solana.SolanaAddresses.RECENT_BLOCKHASHES_SYSVAR;
import static com.agentwallet.adapters.solana.SolanaAddresses.RENT_SYSVAR;
import static com.agentwallet.adapters.solana.SolanaAddresses.SYSTEM_PROGRAM;
import static com.agentwallet.adapters.solana.SolanaAddresses.TOKEN_PROGRAM;
import static com.agentwallet.adapters.solana.SolanaAddresses.address;
import static com.agentwallet.adapters.solana.SolanaAddresses.key;

/**
 * The instructions the adapter sends: the System program's (accounts with a seed, durable nonces),
 * SPL Token's {@code TransferChecked}, the Associated Token Account program's
 * {@code CreateIdempotent}, and the byte layouts of the wallet program (docs/PROGRAM.md). Those a
 * payment's transaction needs are core's ({@code com.agentwallet.core.ledger.solana}), which the
 * simulator builds too; they are converted to and from solanaj's types here.
 */
final class Instructions {
    static final int USDC_DECIMALS = 6;
    static final int NONCE_ACCOUNT_SIZE = 80;

    /** The wallet program's instruction tags. */
    static final int INIT_TREASURY = 0;
    static final int CREATE_WALLET = 1;
    static final int SET_SESSION_KEY = 2;
    static final int WRITE_POLICY = 3;
    static final int WRITE_POLICY_ENTRIES = 4;
    static final int UPDATE_WALLET = 5;
    static final int FUND = 6;
    static final int WITHDRAW = 7;
    static final int ESCROW_LOCK = 9;
    static final int ESCROW_RELEASE = 10;
    static final int ESCROW_DISPUTE = 11;
    static final int ESCROW_RESOLVE = 12;
    static final int ESCROW_REFUND = 13;

    private Instructions() {
    }

    static AccountMeta signerWritable(PublicKey key) {
        return new AccountMeta(key, true, true);
    }

    static AccountMeta signer(PublicKey key) {
        return new AccountMeta(key, true, false);
    }

    static AccountMeta writable(PublicKey key) {
        return new AccountMeta(key, false, true);
    }

    static AccountMeta readonly(PublicKey key) {
        return new AccountMeta(key, false, false);
    }

    static TransactionInstruction program(PublicKey programId, List<AccountMeta> accounts, byte[] data) {
        return new TransactionInstruction(programId, accounts, data);
    }

    /** Core's instruction as solanaj's. */
    static TransactionInstruction solanaj(Instruction instruction) {
        return program(key(instruction.program()), instruction.accounts().stream()
                .map(meta -> new AccountMeta(key(meta.key()), meta.signer(), meta.writable())).toList(), instruction.data());
    }

    /** Solanaj's instruction as core's. */
    static Instruction core(TransactionInstruction instruction) {
        return new Instruction(address(instruction.getProgramId()), instruction.getKeys().stream()
                .map(meta -> new com.agentwallet.core.ledger.solana.AccountMeta(address(meta.getPublicKey()),
                        meta.isSigner(), meta.isWritable())).toList(), instruction.getData());
    }

    /** The legacy message of solanaj's instructions. */
    static LegacyMessage compile(PublicKey feePayer, List<TransactionInstruction> instructions, byte[] recentBlockhash) {
        return LegacyMessage.compile(address(feePayer), instructions.stream().map(Instructions::core).toList(),
                recentBlockhash);
    }

    /** Creates {@code owner}'s associated token account of {@code mint} unless it exists; {@code payer} pays rent. */
    static TransactionInstruction createTokenAccountIdempotent(PublicKey payer, PublicKey tokenAccount, PublicKey owner,
                                                               PublicKey mint) {
        return solanaj(AssociatedTokenAccount.createIdempotent(address(payer), address(tokenAccount), address(owner),
                address(mint)));
    }

    static TransactionInstruction transferChecked(PublicKey source, PublicKey mint, PublicKey destination,
                                                  PublicKey owner, long amount) {
        return program(TOKEN_PROGRAM, List.of(writable(source), readonly(mint), writable(destination), signer(owner)),
                new Bytes().u8(12).u64(amount).u8(USDC_DECIMALS).done());
    }

    /** A System-owned account at {@code createWithSeed(base, seed, System)}, funded and signed by {@code base}. */
    static TransactionInstruction createNonceAccountWithSeed(PublicKey base, PublicKey account, String seed,
                                                             long lamports) {
        byte[] data = new Bytes().u32(3).raw(base.toByteArray()).string(seed).u64(lamports).u64(NONCE_ACCOUNT_SIZE)
                .raw(SYSTEM_PROGRAM.toByteArray()).done();
        return program(SYSTEM_PROGRAM, List.of(signerWritable(base), writable(account), signer(base)), data);
    }

    /** System {@code WithdrawNonceAccount}: all of {@code lamports}, the whole balance, closes the account. */
    static TransactionInstruction withdrawNonceAccount(PublicKey account, PublicKey recipient, PublicKey authority,
                                                       long lamports) {
        return program(SYSTEM_PROGRAM, List.of(writable(account), writable(recipient), readonly(RECENT_BLOCKHASHES_SYSVAR),
                readonly(RENT_SYSVAR), signer(authority)), new Bytes().u32(5).u64(lamports).done());
    }

    static TransactionInstruction initializeNonce(PublicKey account, PublicKey authority) {
        return program(SYSTEM_PROGRAM, List.of(writable(account), readonly(RECENT_BLOCKHASHES_SYSVAR),
                readonly(RENT_SYSVAR)), new Bytes().u32(6).raw(authority.toByteArray()).done());
    }
}
