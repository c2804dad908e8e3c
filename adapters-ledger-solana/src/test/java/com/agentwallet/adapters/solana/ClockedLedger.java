package com.agentwallet.adapters.solana;

import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.ForwardingLedger;
import com.agentwallet.core.port.LedgerPort;

import java.time.Clock;

/** A ledger on localnet whose chain time follows a test's clock: the clock is pushed before every call that signs. */
public final class ClockedLedger extends ForwardingLedger {
    private final Clock clock;
    private final Localnet localnet;

    public ClockedLedger(LedgerPort ledger, Clock clock, Localnet localnet) {
        super(ledger);
        this.clock = clock;
        this.localnet = localnet;
    }

    @Override
    public LedgerOutcome submit(LedgerInstruction instruction) {
        localnet.setTime(clock.instant());
        return super.submit(instruction);
    }

    @Override
    public byte[] coSignMessage(LedgerInstruction.Pay payment) {
        localnet.setTime(clock.instant());
        return super.coSignMessage(payment);
    }

    @Override
    public void coSignAbandoned(String operationId) {
        localnet.setTime(clock.instant());
        super.coSignAbandoned(operationId);
    }
}
