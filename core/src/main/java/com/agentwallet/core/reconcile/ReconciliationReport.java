package com.agentwallet.core.reconcile;

import com.agentwallet.core.payment.Transaction;

import java.util.List;

/**
 * The outcome of comparing the books with the ledger: how many accounts agreed or drifted, how
 * many were skipped because money was in flight to or from them, the drifts, and the transactions
 * stuck in flight longer than they should be (a ledger that keeps refusing or never answers).
 */
public record ReconciliationReport(int checked, int skippedInFlight, List<Drift> drifts, List<Transaction> stuck) {
    public ReconciliationReport {
        drifts = List.copyOf(drifts);
        stuck = List.copyOf(stuck);
    }

    public boolean isClean() {
        return drifts.isEmpty() && stuck.isEmpty();
    }
}
