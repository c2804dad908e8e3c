package com.agentwallet.core.payment;

import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.ledger.ProgramError;

/**
 * An escrow payout the program refused because the vault is disputed on the chain while the books
 * never recorded a dispute: the ledger confirmed a dispute whose storage transaction was then cut
 * (the client was answered 503, and its retry came too late or never), so the escrow timed out or
 * was completed in the books. Their decision stands: the payout is sent again as the organisation's
 * resolution of that dispute, under an operation id of its own, so that the vault pays out as the
 * books say instead of the payout staying pending for good.
 */
final class OrphanedDispute {
    /** The suffix of the operation id of a payout sent again as a resolution. */
    static final String RESOLUTION = ":resolution";

    private OrphanedDispute() {
    }

    static boolean refused(LedgerOutcome.Rejected refusal) {
        return refusal.code().equals(ProgramError.ESCROW_DISPUTED.wireName());
    }
}
