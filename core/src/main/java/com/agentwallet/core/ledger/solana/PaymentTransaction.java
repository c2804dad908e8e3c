package com.agentwallet.core.ledger.solana;

import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A payment's Solana transaction, in one place so that the Solana adapter and the simulator build
 * the same bytes: the program's {@code pay} into the recipient's associated token account, which must
 * exist already (the fee payer never opens one: each would cost it the account's rent).
 * Co-signed, it runs on the operation's own durable nonce, so the message the operator signs stays
 * valid however long that takes, and it counts in the spend windows at {@code requestedAt} (to the
 * second), when the books held it, not when the approval lands: the program takes that instant only
 * with the co-signature.
 */
public record PaymentTransaction(LedgerAddress program, LedgerAddress mint, LedgerAddress feePayer,
                                 LedgerAddress session, LedgerAddress wallet, LedgerAddress policy,
                                 LedgerAddress recipient, Usdc amount, Instant requestedAt,
                                 Optional<LedgerAddress> coSigner) {
    /** A nonce account's seed is 32 hex characters: {@code createWithSeed} takes at most 32 bytes. */
    private static final int NONCE_SEED_LENGTH = 32;

    public PaymentTransaction {
        requireNonNull(program, "program is null");
        requireNonNull(mint, "mint is null");
        requireNonNull(feePayer, "feePayer is null");
        requireNonNull(session, "session is null");
        requireNonNull(wallet, "wallet is null");
        requireNonNull(policy, "policy is null");
        requireNonNull(recipient, "recipient is null");
        requireNonNull(amount, "amount is null");
        requireNonNull(requestedAt, "requestedAt is null");
        requireNonNull(coSigner, "coSigner is null");
    }

    /** The seed of the operation's nonce account under the fee payer. */
    public static String nonceSeed(String operationId) {
        return HexFormat.of().formatHex(Hashing.sha256(operationId.getBytes(StandardCharsets.UTF_8)))
                .substring(0, NONCE_SEED_LENGTH);
    }

    /** The operation's nonce account: {@code createWithSeed(fee payer, nonceSeed(operation), System)}. */
    public static LedgerAddress nonceAccount(LedgerAddress feePayer, String operationId) {
        return SystemProgram.createWithSeed(feePayer, nonceSeed(operationId), SolanaPrograms.SYSTEM_PROGRAM);
    }

    /** The payment, into the recipient's associated token account. */
    public List<Instruction> instructions() {
        LedgerAddress recipientToken = AssociatedTokenAccount.address(recipient, mint).address();
        LedgerAddress walletToken = AssociatedTokenAccount.address(wallet, mint).address();
        return List.of(PayInstruction.of(program, session, wallet, walletToken, policy, recipientToken, mint, amount,
                countedAtSeconds(), coSigner));
    }

    /** A plain payment counts when it lands (0); a co-signed one at the second it was requested. */
    private long countedAtSeconds() {
        return coSigner.isPresent() ? requestedAt.getEpochSecond() : 0;
    }

    /** {@link #instructions()} after the advance of {@code nonceAccount}, whose authority is the fee payer. */
    public List<Instruction> onNonce(LedgerAddress nonceAccount) {
        List<Instruction> instructions = new ArrayList<>();
        instructions.add(SystemProgram.advanceNonceAccount(nonceAccount, feePayer));
        instructions.addAll(instructions());
        return instructions;
    }

    /** The message the operator co-signs: the payment on the operation's nonce account, whose value is {@code nonce}. */
    public LegacyMessage coSignMessage(String operationId, byte[] nonce) {
        return LegacyMessage.compile(feePayer, onNonce(nonceAccount(feePayer, operationId)), nonce);
    }
}
