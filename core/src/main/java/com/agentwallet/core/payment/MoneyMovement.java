package com.agentwallet.core.payment;

import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.wallet.Wallet;

import java.time.Instant;
import java.util.Optional;

/**
 * What settling a transaction means for its type: the instruction the ledger is sent, where the
 * money arrives once the ledger confirms it, where it goes back when a refusal is final, and
 * which refusals are. One class a type, so that a new type of transaction does not compile until
 * it answers all of these; {@link Settlement} only sends and applies.
 */
public sealed interface MoneyMovement permits PaymentMovement, FundingMovement, WithdrawalMovement,
        EscrowLockMovement, EscrowReleaseMovement, EscrowRefundMovement {

    static MoneyMovement of(Transaction tx) {
        return switch (tx.type()) {
            case PAYMENT -> new PaymentMovement(tx);
            case FUNDING -> new FundingMovement(tx);
            case WITHDRAWAL -> new WithdrawalMovement(tx);
            case ESCROW_LOCK -> new EscrowLockMovement(tx);
            case ESCROW_RELEASE -> new EscrowReleaseMovement(tx);
            case ESCROW_REFUND -> new EscrowRefundMovement(tx);
        };
    }

    /** The ledger instruction that settles the transaction; {@code wallet} is the transaction's own. */
    LedgerInstruction instruction(Stores stores, Wallet wallet);

    /**
     * What to send in place of this movement's instruction {@code refused}, when the ledger's
     * refusal says the books and the chain disagree in a way the books decide.
     */
    default Optional<LedgerInstruction> resentAfter(LedgerInstruction refused, LedgerOutcome.Rejected refusal) {
        return Optional.empty();
    }

    /** Whether the ledger's refusal ends the transaction as failed; otherwise it stays pending. */
    boolean refusalIsFinal(LedgerOutcome.Rejected refusal);

    /** Where the money of the confirmed transaction arrives in the books. */
    void credit(Stores stores, EventPublisher events, Instant now);

    /** Where the money the failed transaction held goes back to in the books. */
    void giveBack(Stores stores, EventPublisher events, Instant now);
}
