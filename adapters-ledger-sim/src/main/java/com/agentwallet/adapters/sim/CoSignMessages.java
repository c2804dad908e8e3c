package com.agentwallet.adapters.sim;

import com.agentwallet.adapters.sim.ChainState.WalletAccount;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.ProgramAddress;
import com.agentwallet.core.ledger.solana.PaymentTransaction;
import com.agentwallet.core.ledger.solana.SessionKeys;
import com.agentwallet.core.policy.PolicyRules;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The message an operator co-signs, byte for byte the Solana transaction message the Solana adapter
 * builds ({@link PaymentTransaction}), so that signing tools behave the same on the simulator: the
 * same fee payer, mint, session key, policy address and co-signer. The simulator has no nonce
 * accounts, so the nonce value is a digest of the operation id: the same message however often it
 * is asked for, and after the journal is replayed.
 */
final class CoSignMessages {
    private final LedgerAddress programId;
    private final LedgerAddress mint;
    private final LedgerAddress feePayer;
    private final SessionKeys sessions;

    CoSignMessages(LedgerAddress programId, LedgerAddress mint, LedgerAddress feePayer, SessionKeys sessions) {
        this.programId = requireNonNull(programId, "programId is null");
        this.mint = requireNonNull(mint, "mint is null");
        this.feePayer = requireNonNull(feePayer, "feePayer is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
    }

    /**
     * The message of {@code pay} by {@code wallet}; empty when the recipient is not a Solana address,
     * which no transaction can pay.
     */
    Optional<byte[]> of(ChainState chain, WalletAccount wallet, LedgerInstruction.Pay pay) {
        if (!LedgerAddress.isValid(pay.recipient())) {
            return Optional.empty();
        }
        PolicyRules rules = chain.policyOf(wallet).rules();
        // The policy account holds a co-signer only with a threshold, as the adapter writes it.
        Optional<LedgerAddress> coSigner = rules.requireCoSign().flatMap(threshold -> rules.coSigner())
                .map(LedgerAddress::new);
        LedgerAddress policy = ProgramAddress.policy(programId,
                Hashing.sha256(wallet.orgId.value().getBytes(StandardCharsets.UTF_8)), wallet.policy.value()).address();
        PaymentTransaction transaction = new PaymentTransaction(programId, mint, feePayer,
                sessions.publicKey(programId, pay.wallet(), pay.sessionVersion()), pay.wallet(), policy,
                new LedgerAddress(pay.recipient()), pay.amount(), pay.requestedAt(), coSigner);
        return Optional.of(transaction.coSignMessage(pay.operationId(), nonce(pay.operationId())).bytes());
    }

    /** The stand-in for the value of the operation's nonce account. */
    static byte[] nonce(String operationId) {
        return Hashing.sha256(("agent-wallet-sim/nonce|" + operationId).getBytes(StandardCharsets.UTF_8));
    }
}
