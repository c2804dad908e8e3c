package com.agentwallet.adapters.solana;

import com.agentwallet.core.ledger.solana.Bytes;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.wallet.WalletStatus;
import org.p2p.solanaj.core.AccountMeta;
import org.p2p.solanaj.core.PublicKey;
import org.p2p.solanaj.core.TransactionInstruction;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static com.agentwallet.adapters.solana.SolanaAddresses.SYSTEM_PROGRAM;
import static com.agentwallet.adapters.solana.SolanaAddresses.TOKEN_PROGRAM;
import static com.agentwallet.adapters.solana.Instructions.readonly;
import static com.agentwallet.adapters.solana.Instructions.signer;
import static com.agentwallet.adapters.solana.Instructions.signerWritable;
import static com.agentwallet.adapters.solana.Instructions.writable;

/**
 * The wallet program's instructions, byte for byte as programs/agent-wallet/layout.json lays them out
 * (ProgramLayoutTest holds them to its sample corpus).
 */
final class ProgramInstructions {
    private static final int FLAG_MAX_PER_TX = 1;
    private static final int FLAG_MAX_PER_DAY = 2;
    private static final int FLAG_MAX_PER_MONTH = 4;
    private static final int FLAG_VELOCITY_CAP = 8;
    private static final int FLAG_EXPIRY = 16;
    private static final int FLAG_CO_SIGN = 32;
    static final int RESOLVE_RELEASE = 0;
    static final int RESOLVE_REFUND = 1;

    private final PublicKey program;
    private final PublicKey mint;

    ProgramInstructions(PublicKey program, PublicKey mint) {
        this.program = program;
        this.mint = mint;
    }

    /** Opens the organisation's treasury, answering to {@code authority}; the registrar signs, the payer pays. */
    TransactionInstruction initTreasury(PublicKey payer, PublicKey registrar, PublicKey config, PublicKey treasury,
                                        int bump, PublicKey token, int tokenBump, byte[] orgHash, PublicKey authority) {
        return ix(List.of(signerWritable(payer), signer(registrar), readonly(config), writable(treasury), readonly(token),
                        readonly(mint), readonly(SYSTEM_PROGRAM)),
                new Bytes().u8(Instructions.INIT_TREASURY).u8(bump).u8(tokenBump).raw(orgHash).raw(authority.toByteArray()));
    }

    TransactionInstruction createWallet(PublicKey payer, PublicKey authority, PublicKey treasury, PublicKey wallet,
                                        int bump, PublicKey token, int tokenBump, PublicKey policy, byte[] agentHash) {
        return ix(List.of(signerWritable(payer), signer(authority), readonly(treasury), writable(wallet), readonly(token),
                        readonly(policy), readonly(mint), readonly(SYSTEM_PROGRAM)),
                new Bytes().u8(Instructions.CREATE_WALLET).u8(bump).u8(tokenBump).raw(agentHash));
    }

    TransactionInstruction setSessionKey(PublicKey authority, PublicKey treasury, PublicKey wallet, PublicKey session,
                                         Instant expiresAt, long sequence) {
        return ix(List.of(signer(authority), readonly(treasury), writable(wallet)),
                new Bytes().u8(Instructions.SET_SESSION_KEY).raw(session.toByteArray()).u64(expiresAt.getEpochSecond())
                        .u64(sequence));
    }

    /** Writes the policy with its first {@code first} entries; the rest follow with {@link #writePolicyEntries}. */
    TransactionInstruction writePolicy(PublicKey payer, PublicKey authority, PublicKey treasury, PublicKey policy, int bump,
                                       byte[] policyHash, long sequence, PolicyRules rules, int allowedCount,
                                       int blockedCount, List<byte[]> first) {
        int flags = flag(rules.maxPerTx(), FLAG_MAX_PER_TX) | flag(rules.maxPerDay(), FLAG_MAX_PER_DAY)
                | flag(rules.maxPerMonth(), FLAG_MAX_PER_MONTH) | flag(rules.velocityCap(), FLAG_VELOCITY_CAP)
                | flag(rules.expiry(), FLAG_EXPIRY) | flag(rules.requireCoSign(), FLAG_CO_SIGN);
        Bytes data = new Bytes().u8(Instructions.WRITE_POLICY).u8(bump).raw(policyHash).u64(sequence).u32(flags)
                .u32(rules.velocityCap().orElse(0)).u64(micros(rules.maxPerTx())).u64(micros(rules.maxPerDay()))
                .u64(micros(rules.maxPerMonth()))
                .u64(rules.expiry().map(Instant::getEpochSecond).orElse(0L))
                .u64(micros(rules.requireCoSign()))
                .raw(rules.coSigner().map(key -> new PublicKey(key).toByteArray()).orElse(new byte[32]))
                .u8(allowedCount).u8(blockedCount).u8(first.size()).u8(0);
        first.forEach(data::raw);
        return ix(List.of(signerWritable(payer), signer(authority), readonly(treasury), writable(policy),
                readonly(SYSTEM_PROGRAM)), data);
    }

    TransactionInstruction writePolicyEntries(PublicKey authority, PublicKey treasury, PublicKey policy, long sequence,
                                              int start, List<byte[]> entries) {
        Bytes data = new Bytes().u8(Instructions.WRITE_POLICY_ENTRIES).u64(sequence).u8(start).u8(entries.size());
        entries.forEach(data::raw);
        return ix(List.of(signer(authority), readonly(treasury), writable(policy)), data);
    }

    TransactionInstruction updateWallet(PublicKey authority, PublicKey treasury, PublicKey wallet, PublicKey policy,
                                        WalletStatus status, long sequence) {
        return ix(List.of(signer(authority), readonly(treasury), writable(wallet), readonly(policy)),
                new Bytes().u8(Instructions.UPDATE_WALLET).u8(statusCode(status)).u64(sequence));
    }

    /** The wallet account's status byte: 0 active, 1 frozen, 2 archived. */
    static int statusCode(WalletStatus status) {
        switch (status) {
            case ACTIVE:
                return 0;
            case FROZEN:
                return 1;
            case ARCHIVED:
                return 2;
            default:
                throw new IllegalArgumentException("no status byte for " + status);
        }
    }

    /** Treasury to wallet ({@link Instructions#FUND}) or back ({@link Instructions#WITHDRAW}). */
    TransactionInstruction move(int tag, PublicKey authority, PublicKey treasury, PublicKey treasuryToken,
                                PublicKey wallet, PublicKey walletToken, Usdc amount) {
        return ix(List.of(signer(authority), readonly(treasury), writable(treasuryToken), readonly(wallet),
                writable(walletToken), readonly(mint), readonly(TOKEN_PROGRAM)), new Bytes().u8(tag).u64(amount.micros()));
    }

    TransactionInstruction escrowLock(PublicKey session, PublicKey payer, PublicKey wallet, PublicKey walletToken,
                                      PublicKey policy, PublicKey escrow, int bump, PublicKey vault, int vaultBump,
                                      byte[] escrowHash, PublicKey receiver, Usdc amount, long deadline,
                                      Optional<byte[]> expectedProof) {
        return ix(List.of(signer(session), signerWritable(payer), writable(wallet), writable(walletToken),
                        readonly(policy), writable(escrow), writable(vault), readonly(mint), readonly(TOKEN_PROGRAM),
                        readonly(SYSTEM_PROGRAM)),
                new Bytes().u8(Instructions.ESCROW_LOCK).u8(bump).u8(vaultBump).raw(escrowHash)
                        .raw(receiver.toByteArray()).u64(amount.micros()).u64(deadline)
                        .u8(expectedProof.isPresent() ? 1 : 0).raw(expectedProof.orElse(new byte[32])));
    }

    /** The settling instructions pay the escrow's and the vault's rent back to {@code rentPayer}, the lock's payer. */
    TransactionInstruction escrowRelease(PublicKey authority, PublicKey treasury, PublicKey escrow, PublicKey vault,
                                         PublicKey receiverToken, PublicKey rentPayer, byte[] proof) {
        return ix(List.of(signer(authority), readonly(treasury), writable(escrow), writable(vault),
                        writable(receiverToken), readonly(mint), readonly(TOKEN_PROGRAM), writable(rentPayer)),
                new Bytes().u8(Instructions.ESCROW_RELEASE).raw(proof));
    }

    TransactionInstruction escrowDispute(PublicKey authority, PublicKey treasury, PublicKey escrow) {
        return ix(List.of(signer(authority), readonly(treasury), writable(escrow)),
                new Bytes().u8(Instructions.ESCROW_DISPUTE));
    }

    TransactionInstruction escrowResolve(PublicKey authority, PublicKey treasury, PublicKey escrow, PublicKey vault,
                                         PublicKey destinationToken, PublicKey wallet, PublicKey rentPayer, int outcome) {
        return ix(List.of(signer(authority), readonly(treasury), writable(escrow), writable(vault),
                        writable(destinationToken), writable(wallet), readonly(mint), readonly(TOKEN_PROGRAM),
                        writable(rentPayer)),
                new Bytes().u8(Instructions.ESCROW_RESOLVE).u8(outcome));
    }

    TransactionInstruction escrowRefund(PublicKey escrow, PublicKey vault, PublicKey wallet, PublicKey walletToken,
                                        PublicKey rentPayer) {
        return ix(List.of(writable(escrow), writable(vault), writable(wallet), writable(walletToken), readonly(mint),
                readonly(TOKEN_PROGRAM), writable(rentPayer)), new Bytes().u8(Instructions.ESCROW_REFUND));
    }

    private TransactionInstruction ix(List<AccountMeta> accounts, Bytes data) {
        return Instructions.program(program, accounts, data.done());
    }

    private static int flag(Optional<?> value, int flag) {
        return value.isPresent() ? flag : 0;
    }

    private static long micros(Optional<Usdc> amount) {
        return amount.map(Usdc::micros).orElse(0L);
    }
}
