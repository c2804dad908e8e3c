package com.agentwallet.adapters.sim;

import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.testing.LedgerContract;
import com.agentwallet.core.testing.MutableClock;

/** The simulator, in memory and without faults, against the contract every ledger adapter meets. */
class SimulatedLedgerContractTest extends LedgerContract {

    @Override
    protected LedgerPort newLedger(MutableClock clock) {
        return SimulatedLedger.inMemory(clock, 42L);
    }
}
