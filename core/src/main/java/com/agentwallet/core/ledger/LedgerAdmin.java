package com.agentwallet.core.ledger;

import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.LedgerUnavailableException;

/**
 * Administrative instructions (open a wallet, write a policy, set a wallet's status) are submitted
 * inside the database transaction of the change, before it commits: if the ledger does not
 * confirm, the change is not kept either. They are idempotent upserts, so a retry after a failed
 * commit converges. An unknown outcome is asked again (the same operation, so at most once on the
 * chain) a few times before giving up, since an instruction that lands after the change was
 * dropped leaves the chain ahead of the books until the request is retried.
 */
public final class LedgerAdmin {
    static final int ATTEMPTS = 3;

    private LedgerAdmin() {
    }

    public static void require(LedgerPort ledger, LedgerInstruction instruction) {
        LedgerOutcome outcome = ledger.submit(instruction);
        for (int attempt = 1; attempt < ATTEMPTS && outcome instanceof LedgerOutcome.Unknown; attempt++) {
            outcome = ledger.submit(instruction);
        }
        if (!(outcome instanceof LedgerOutcome.Confirmed)) {
            throw new LedgerUnavailableException("The ledger did not confirm " + instruction.getClass().getSimpleName()
                    + " " + instruction.operationId() + ": " + outcome);
        }
    }
}
