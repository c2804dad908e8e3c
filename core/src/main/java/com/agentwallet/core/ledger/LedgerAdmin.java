package com.agentwallet.core.ledger;

import com.agentwallet.core.port.AdminSequence;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.LedgerUnavailableException;

import java.util.function.LongFunction;

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
        LedgerOutcome outcome = submit(ledger, instruction);
        if (!(outcome instanceof LedgerOutcome.Confirmed)) {
            throw notConfirmed(instruction, outcome);
        }
    }

    /**
     * A write the chain orders by sequence ({@link AdminSequence}): {@code write} makes it for a
     * number. Refused as stale, a newer write of the same account landed first; the state this write
     * carries is the books' state now (the change holds its rows), so it is sent again under the
     * next number, at most {@value #ATTEMPTS} times.
     */
    public static void requireSequenced(LedgerPort ledger, AdminSequence sequence, LongFunction<LedgerInstruction> write) {
        for (int attempt = 1; ; attempt++) {
            LedgerInstruction instruction = write.apply(sequence.next());
            LedgerOutcome outcome = submit(ledger, instruction);
            if (outcome instanceof LedgerOutcome.Confirmed) {
                return;
            }
            boolean stale = outcome instanceof LedgerOutcome.Rejected rejected
                    && rejected.code().equals(ProgramError.STALE_WRITE.wireName());
            if (!stale || attempt == ATTEMPTS) {
                throw notConfirmed(instruction, outcome);
            }
        }
    }

    private static LedgerOutcome submit(LedgerPort ledger, LedgerInstruction instruction) {
        LedgerOutcome outcome = ledger.submit(instruction);
        for (int attempt = 1; attempt < ATTEMPTS && outcome instanceof LedgerOutcome.Unknown; attempt++) {
            outcome = ledger.submit(instruction);
        }
        return outcome;
    }

    private static LedgerUnavailableException notConfirmed(LedgerInstruction instruction, LedgerOutcome outcome) {
        return new LedgerUnavailableException("The ledger did not confirm " + instruction.getClass().getSimpleName()
                + " " + instruction.operationId() + ": " + outcome);
    }
}
