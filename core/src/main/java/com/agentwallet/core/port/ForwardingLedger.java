package com.agentwallet.core.port;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;

import static java.util.Objects.requireNonNull;

/**
 * A ledger that answers as another does, for a ledger that adds to some of its calls (a measure, a
 * test's fault or clock) and forwards the rest; closing it closes the other, if that holds something.
 */
public abstract class ForwardingLedger implements LedgerPort, AutoCloseable {
    private final LedgerPort forwardedTo;

    protected ForwardingLedger(LedgerPort forwardedTo) {
        this.forwardedTo = requireNonNull(forwardedTo, "forwardedTo is null");
    }

    @Override
    public LedgerAddress walletAddress(OrgId orgId, String agentId) {
        return forwardedTo.walletAddress(orgId, agentId);
    }

    @Override
    public LedgerOutcome submit(LedgerInstruction instruction) {
        return forwardedTo.submit(instruction);
    }

    @Override
    public byte[] coSignMessage(LedgerInstruction.Pay payment) {
        return forwardedTo.coSignMessage(payment);
    }

    @Override
    public void coSignAbandoned(String operationId) {
        forwardedTo.coSignAbandoned(operationId);
    }

    @Override
    public long currentSlot() {
        return forwardedTo.currentSlot();
    }

    @Override
    public Usdc balance(LedgerAccount account) {
        return forwardedTo.balance(account);
    }

    @Override
    public void close() throws Exception {
        if (forwardedTo instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
