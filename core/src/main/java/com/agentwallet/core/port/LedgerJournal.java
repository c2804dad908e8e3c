package com.agentwallet.core.port;

import com.agentwallet.core.ledger.LedgerOutcome;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What a ledger plugin sent for each operation, kept where every server process of the deployment
 * sees it (the service's database). An attempt is recorded before it is sent, so that submitting
 * the operation again, from any process, first asks the ledger what became of it instead of sending
 * another. An operation has at most one attempt and one final outcome: the first recorded of each
 * is the one every process gets.
 */
public interface LedgerJournal {

    /**
     * One signed submission of an operation: the signature the ledger knows it by, and the plugin's
     * own text of whatever else it needs to follow it up (to send it again, to tell whether it can
     * still land).
     */
    record Attempt(String signature, String detail) {
        public Attempt {
            requireNonNull(signature, "signature is null");
            requireNonNull(detail, "detail is null");
        }
    }

    /**
     * Records {@code attempt} as the operation's, unless it has one; answers the operation's attempt:
     * {@code attempt}, or the one recorded first (by another process), which is then the one to follow.
     */
    Attempt attempted(String operationId, Attempt attempt);

    Optional<Attempt> attempt(String operationId);

    /**
     * Records the operation's final outcome, confirmed or rejected, unless it has one; answers the
     * outcome recorded.
     */
    LedgerOutcome settled(String operationId, LedgerOutcome outcome);

    Optional<LedgerOutcome> outcome(String operationId);
}
