package com.agentwallet.adapters.solana;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.port.LedgerPort;

import java.time.Clock;

/** A ledger on localnet whose chain time follows a test's clock: the clock is pushed before every call. */
public final class ClockedLedger implements LedgerPort, AutoCloseable {
    private final LedgerPort ledger;
    private final Clock clock;
    private final Localnet localnet;

    public ClockedLedger(LedgerPort ledger, Clock clock, Localnet localnet) {
        this.ledger = ledger;
        this.clock = clock;
        this.localnet = localnet;
    }

    @Override
    public LedgerAddress walletAddress(OrgId orgId, String agentId) {
        return ledger.walletAddress(orgId, agentId);
    }

    @Override
    public LedgerOutcome submit(LedgerInstruction instruction) {
        localnet.setTime(clock.instant());
        return ledger.submit(instruction);
    }

    @Override
    public byte[] coSignMessage(LedgerInstruction.Pay payment) {
        localnet.setTime(clock.instant());
        return ledger.coSignMessage(payment);
    }

    @Override
    public void coSignAbandoned(String operationId) {
        localnet.setTime(clock.instant());
        ledger.coSignAbandoned(operationId);
    }

    @Override
    public long currentSlot() {
        return ledger.currentSlot();
    }

    @Override
    public Usdc balance(LedgerAccount account) {
        return ledger.balance(account);
    }

    @Override
    public void close() throws Exception {
        if (ledger instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
