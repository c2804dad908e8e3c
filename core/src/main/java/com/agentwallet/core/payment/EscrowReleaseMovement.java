package com.agentwallet.core.payment;

import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowCommand;
import com.agentwallet.core.escrow.EscrowMachine;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.ledger.ProgramError;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.wallet.Wallet;

import java.time.Instant;
import java.util.Optional;

/**
 * An escrow's release: from its vault to the receiver, with the proof that completed the escrow, or
 * as a dispute's resolution.
 */
record EscrowReleaseMovement(Transaction tx) implements MoneyMovement {

    @Override
    public LedgerInstruction instruction(Stores stores, Wallet wallet) {
        Escrow escrow = Books.escrowOf(stores, tx);
        LedgerAddress sender = stores.wallets().find(escrow.orgId(), escrow.fromWallet()).orElseThrow().address();
        return new LedgerInstruction.EscrowRelease(tx.id().value(), escrow.id(), sender, tx.recipient(), tx.amount(),
                escrow.proof());
    }

    /**
     * A release by proof is sent again without it, as a resolution, over an {@link OrphanedDispute};
     * one without a proof is a resolution already.
     */
    @Override
    public Optional<LedgerInstruction> resentAfter(LedgerInstruction refused, LedgerOutcome.Rejected refusal) {
        if (refused instanceof LedgerInstruction.EscrowRelease release && release.proof().isPresent()
                && OrphanedDispute.refused(refusal)) {
            return Optional.of(new LedgerInstruction.EscrowRelease(release.operationId() + OrphanedDispute.RESOLUTION,
                    release.escrow(), release.wallet(), release.receiver(), release.amount(), Optional.empty()));
        }
        return Optional.empty();
    }

    /**
     * Only a release that reached the chain at or after its escrow's deadline fails: the vault can
     * only pay out where its escrow says, so its other refusals are transient and the release stays pending.
     */
    @Override
    public boolean refusalIsFinal(LedgerOutcome.Rejected refusal) {
        return refusal.code().equals(ProgramError.ESCROW_EXPIRED.wireName());
    }

    @Override
    public void credit(Stores stores, EventPublisher events, Instant now) {
        stores.wallets().creditByAddress(tx.recipient(), tx.amount(), now);
    }

    /**
     * A release that failed moved nothing: its funds are still in the vault, and its escrow is locked
     * again for the clockwork to refund.
     */
    @Override
    public void giveBack(Stores stores, EventPublisher events, Instant now) {
        Escrow escrow = Books.lockEscrow(stores, tx);
        stores.escrows().update(EscrowMachine.apply(escrow, new EscrowCommand.ReleaseExpired(), now).value().state());
    }
}
