package com.agentwallet.core.escrow;

import com.agentwallet.core.common.WireNamed;

import static java.util.Objects.requireNonNull;

/** What can happen to an escrow. */
public sealed interface EscrowCommand {

    /** The receiver (or sender) presents the completion proof. */
    record Complete(String proof) implements EscrowCommand {
        public Complete {
            Proof.requireHash(proof, "proof");
        }
    }

    /** The sender disputes the work. */
    record Raise(Dispute dispute) implements EscrowCommand {
        public Raise {
            requireNonNull(dispute, "dispute is null");
        }
    }

    /** The clock reached (or not yet) the escrow's timeout. */
    record Timeout() implements EscrowCommand {
    }

    /** An operator settles a dispute. */
    record Resolve(Outcome outcome) implements EscrowCommand {
        public Resolve {
            requireNonNull(outcome, "outcome is null");
        }
    }

    /** The ledger refused to lock the funds; they go back to the sender. */
    record LockFailed(String reason) implements EscrowCommand {
        public LockFailed {
            requireNonNull(reason, "reason is null");
        }
    }

    /**
     * The ledger refused a release because it reached the chain at or after the escrow's deadline:
     * on chain the funds are still locked, and past the deadline only a refund can move them.
     */
    record ReleaseExpired() implements EscrowCommand {
    }

    enum Outcome implements WireNamed {
        RELEASE, REFUND
    }
}
