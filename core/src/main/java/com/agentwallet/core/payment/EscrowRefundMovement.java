package com.agentwallet.core.payment;

import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowMachine;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.wallet.Wallet;

import java.time.Instant;
import java.util.Optional;

/** An escrow's refund: from its vault back to the sender's wallet, at its timeout or as a dispute's resolution. */
record EscrowRefundMovement(Transaction tx) implements MoneyMovement {

    @Override
    public LedgerInstruction instruction(Stores stores, Wallet wallet) {
        Escrow escrow = Books.escrowOf(stores, tx);
        boolean resolution = escrow.settleReason().filter(EscrowMachine.REASON_DISPUTE::equals).isPresent();
        return new LedgerInstruction.EscrowRefund(tx.id().value(), escrow.id(), wallet.address(), tx.amount(),
                resolution);
    }

    /** A timeout refund is sent again as a resolution over an {@link OrphanedDispute}. */
    @Override
    public Optional<LedgerInstruction> resentAfter(LedgerInstruction refused, LedgerOutcome.Rejected refusal) {
        if (refused instanceof LedgerInstruction.EscrowRefund refund && !refund.resolution()
                && OrphanedDispute.refused(refusal)) {
            return Optional.of(new LedgerInstruction.EscrowRefund(refund.operationId() + OrphanedDispute.RESOLUTION,
                    refund.escrow(), refund.wallet(), refund.amount(), true));
        }
        return Optional.empty();
    }

    /**
     * Never: the vault can only pay out where its escrow says, so a refusal there is transient and
     * the refund stays pending.
     */
    @Override
    public boolean refusalIsFinal(LedgerOutcome.Rejected refusal) {
        return false;
    }

    /** The sender's wallet; the lock left its caps when the refund was booked. */
    @Override
    public void credit(Stores stores, EventPublisher events, Instant now) {
        Books.creditWallet(stores, tx, now);
    }

    @Override
    public void giveBack(Stores stores, EventPublisher events, Instant now) {
        throw new IllegalStateException("a refund never fails, yet " + tx.id() + " did");
    }
}
