package com.agentwallet.core.reconcile;

import java.util.List;

/**
 * The outcome of comparing the books with the ledger: how many accounts agreed or drifted, how
 * many were skipped because money was in flight to or from them, and the drifts themselves.
 */
public record ReconciliationReport(int checked, int skippedInFlight, List<Drift> drifts) {
    public ReconciliationReport {
        drifts = List.copyOf(drifts);
    }

    public boolean isClean() {
        return drifts.isEmpty();
    }
}
