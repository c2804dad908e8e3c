package com.agentwallet.core.payment;

import com.agentwallet.core.common.Transition;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowCommand;
import com.agentwallet.core.escrow.EscrowMachine;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.wallet.Wallet;

import java.time.Instant;

/** An escrow's lock: from the sender's wallet into the escrow's vault, checked and debited like a payment. */
record EscrowLockMovement(Transaction tx) implements MoneyMovement {

    @Override
    public LedgerInstruction instruction(Stores stores, Wallet wallet) {
        Escrow escrow = Books.escrowOf(stores, tx);
        return new LedgerInstruction.EscrowLock(tx.id().value(), escrow.id(), wallet.address(), escrow.receiver(),
                tx.amount(), escrow.timeoutAt(), escrow.expectedProof(), wallet.sessionVersion());
    }

    @Override
    public boolean refusalIsFinal(LedgerOutcome.Rejected refusal) {
        return true;
    }

    /** Nothing: the funds now sit in the escrow's vault, and the escrow record already holds them. */
    @Override
    public void credit(Stores stores, EventPublisher events, Instant now) {
    }

    /** The amount goes back to the sender's wallet and caps, and the escrow ends refunded: it never held anything. */
    @Override
    public void giveBack(Stores stores, EventPublisher events, Instant now) {
        Escrow escrow = Books.lockEscrow(stores, tx);
        Holds.release(stores, tx, now);
        Transition<Escrow> refunded = EscrowMachine.apply(escrow,
                new EscrowCommand.LockFailed(tx.failureReason().orElseThrow()), now).value();
        stores.escrows().update(refunded.state());
        events.publish(stores, refunded.events());
    }
}
