package com.agentwallet.adapters.sim;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.port.LedgerPort;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * A ledger the test can swap under running services, as a restart of the chain's process would:
 * the simulator's faults are fixed per instance, so a test sets up on a fault-free simulator and
 * then switches to a faulty one opened over the same journal.
 */
final class SwitchableLedger implements LedgerPort, AutoCloseable {
    private volatile SimulatedLedger current;
    private final Map<String, LedgerOutcome> lastAnswers = new ConcurrentHashMap<>();

    /** Closes the simulator in use (flushing its journal) and carries on with {@code next}. */
    synchronized void use(SimulatedLedger next) {
        close();
        current = requireNonNull(next, "next is null");
    }

    SimulatedLedger current() {
        return requireNonNull(current, "no simulator in use");
    }

    @Override
    public LedgerAddress walletAddress(OrgId orgId, String agentId) {
        return current().walletAddress(orgId, agentId);
    }

    @Override
    public LedgerOutcome submit(LedgerInstruction instruction) {
        LedgerOutcome outcome = current().submit(instruction);
        lastAnswers.put(instruction.operationId(), outcome);
        return outcome;
    }

    /** What the ledger last answered to an operation, for a test's diagnostics. */
    Optional<LedgerOutcome> lastAnswer(String operationId) {
        return Optional.ofNullable(lastAnswers.get(operationId));
    }

    @Override
    public byte[] coSignMessage(LedgerInstruction.Pay payment) {
        return current().coSignMessage(payment);
    }

    @Override
    public void coSignAbandoned(String operationId) {
        current().coSignAbandoned(operationId);
    }

    @Override
    public long currentSlot() {
        return current().currentSlot();
    }

    @Override
    public Usdc balance(LedgerAccount account) {
        return current().balance(account);
    }

    @Override
    public synchronized void close() {
        if (current != null) {
            current.close();
        }
    }
}
