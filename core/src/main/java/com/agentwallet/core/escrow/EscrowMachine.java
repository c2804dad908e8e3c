package com.agentwallet.core.escrow;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.common.Transition;
import com.agentwallet.core.event.DomainEvent;

import java.time.Instant;
import java.util.Optional;

/**
 * The escrow state machine. A locked escrow past its timeout can only be refunded: completion and
 * dispute are refused from the instant of the timeout on, even before the clockwork refunds it.
 * A disputed escrow does not time out; an operator resolves it.
 */
public final class EscrowMachine {
    public static final String REASON_PROOF = "proof_verified";
    public static final String REASON_TIMEOUT = "timeout";
    public static final String REASON_DISPUTE = "dispute_resolved";
    public static final String REASON_LOCK_FAILED = "lock_failed";

    private EscrowMachine() {
    }

    public static Result<Transition<Escrow>> apply(Escrow escrow, EscrowCommand command, Instant now) {
        return switch (escrow.status()) {
            case LOCKED -> locked(escrow, command, now);
            case DISPUTED -> disputed(escrow, command, now);
            case RELEASED -> released(escrow, command, now);
            case REFUNDED -> terminal(escrow);
        };
    }

    /**
     * A release the ledger refused for the deadline is undone: the escrow is locked again, as it is
     * on chain, and past its timeout, so the clockwork refunds it. Nothing else changes a released escrow.
     */
    private static Result<Transition<Escrow>> released(Escrow escrow, EscrowCommand command, Instant now) {
        if (command instanceof EscrowCommand.ReleaseExpired) {
            return Transition.to(escrow.reopened(now));
        }
        return terminal(escrow);
    }

    private static Result<Transition<Escrow>> terminal(Escrow escrow) {
        return Transition.refuse("Escrow " + escrow.id() + " is " + escrow.status().wireName() + " and cannot change");
    }

    private static Result<Transition<Escrow>> locked(Escrow escrow, EscrowCommand command, Instant now) {
        boolean timedOut = !now.isBefore(escrow.timeoutAt());
        if (command instanceof EscrowCommand.LockFailed) {
            return settle(escrow, EscrowStatus.REFUNDED, Optional.empty(), REASON_LOCK_FAILED, now);
        }
        if (command instanceof EscrowCommand.Timeout) {
            return timedOut
                    ? settle(escrow, EscrowStatus.REFUNDED, Optional.empty(), REASON_TIMEOUT, now)
                    : Transition.refuse("Escrow " + escrow.id() + " times out at " + Timestamps.format(escrow.timeoutAt()));
        }
        if (command instanceof EscrowCommand.Resolve) {
            return Transition.refuse("Escrow " + escrow.id() + " is not disputed");
        }
        if (command instanceof EscrowCommand.ReleaseExpired) {
            return Transition.refuse("Escrow " + escrow.id() + " is not released");
        }
        if (timedOut) {
            return Transition.refuse("Escrow " + escrow.id() + " timed out at " + Timestamps.format(escrow.timeoutAt())
                    + " and is being refunded");
        }
        if (command instanceof EscrowCommand.Complete complete) {
            if (escrow.expectedProof().isPresent() && !escrow.expectedProof().get().equals(complete.proof())) {
                return Result.refused(new Rejection.ProofMismatch());
            }
            return settle(escrow, EscrowStatus.RELEASED, Optional.of(complete.proof()), REASON_PROOF, now);
        }
        Escrow disputed = escrow.disputed(((EscrowCommand.Raise) command).dispute(), now);
        return Transition.to(disputed, new DomainEvent.EscrowDisputed(disputed, now));
    }

    private static Result<Transition<Escrow>> disputed(Escrow escrow, EscrowCommand command, Instant now) {
        if (command instanceof EscrowCommand.Resolve resolve) {
            return resolve.outcome() == EscrowCommand.Outcome.RELEASE
                    ? settle(escrow, EscrowStatus.RELEASED, escrow.proof(), REASON_DISPUTE, now)
                    : settle(escrow, EscrowStatus.REFUNDED, escrow.proof(), REASON_DISPUTE, now);
        }
        return Transition.refuse("Escrow " + escrow.id() + " is disputed; an operator must resolve it");
    }

    private static Result<Transition<Escrow>> settle(Escrow escrow, EscrowStatus next, Optional<String> proof,
                                                     String reason, Instant now) {
        Escrow settled = escrow.settled(next, proof, reason, now);
        return Transition.to(settled, new DomainEvent.EscrowSettled(settled, now));
    }
}
