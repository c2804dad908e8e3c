package com.agentwallet.core.testing;

import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.LedgerJournal;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A ledger journal in memory, shared by the ledgers a test gives it to as the database is by the
 * server's processes; a test may also write what a process that died left in it.
 */
public final class InMemoryLedgerJournal implements LedgerJournal {
    private final Map<String, Attempt> attempts = new HashMap<>();
    private final Map<String, LedgerOutcome> outcomes = new HashMap<>();

    @Override
    public synchronized Attempt attempted(String operationId, Attempt attempt) {
        return attempts.computeIfAbsent(operationId, op -> attempt);
    }

    @Override
    public synchronized Optional<Attempt> attempt(String operationId) {
        return Optional.ofNullable(attempts.get(operationId));
    }

    @Override
    public synchronized LedgerOutcome settled(String operationId, LedgerOutcome outcome) {
        if (outcome instanceof LedgerOutcome.Unknown) {
            throw new IllegalArgumentException("only a final outcome is recorded, not " + outcome);
        }
        return outcomes.computeIfAbsent(operationId, op -> outcome);
    }

    @Override
    public synchronized Optional<LedgerOutcome> outcome(String operationId) {
        return Optional.ofNullable(outcomes.get(operationId));
    }

    /** Forgets the operation's outcome, as if its process died after sending and before recording it. */
    public synchronized void forgetOutcome(String operationId) {
        outcomes.remove(operationId);
    }
}
