package com.agentwallet.bootstrap;

import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.reconcile.Drift;
import com.agentwallet.core.reconcile.Reconciliation;
import com.agentwallet.core.reconcile.ReconciliationReport;
import net.sourceforge.argparse4j.inf.Namespace;

/**
 * {@code reconcile config.yml}: compares every treasury, wallet and escrow vault of the books with
 * the ledger, prints each drift and each transaction stuck in flight, and exits non-zero when there
 * is any.
 */
public final class ReconcileCommand extends OperatorCommand<Reconciliation> {

    public ReconcileCommand() {
        super("reconcile", "Compare the books with the ledger and report any drift", Reconciliation.class);
    }

    @Override
    void execute(Reconciliation reconciliation, Namespace namespace, ServiceConfiguration configuration) {
        reconcile(reconciliation);
    }

    /** Runs the reconciliation and prints it; a drift is a {@link OperatorCommand.CommandFailed}: exit code 1. */
    void reconcile(Reconciliation reconciliation) {
        ReconciliationReport report = reconciliation.run();
        for (Drift drift : report.drifts()) {
            System.out.printf("DRIFT %s: books say %s, ledger holds %s%n", drift.account(), drift.expected(),
                    drift.onLedger());
        }
        for (Transaction tx : report.stuck()) {
            System.out.printf("STUCK %s %s of %s pending since %s%n", tx.type().wireName(), tx.id(), tx.amount(),
                    tx.updatedAt());
        }
        System.out.printf("%d accounts checked, %d skipped while money was in flight, %d drifted, %d stuck%n",
                report.checked(), report.skippedInFlight(), report.drifts().size(), report.stuck().size());
        if (!report.isClean()) {
            throw new CommandFailed(report.drifts().size() + " account(s) drifted from the ledger, "
                    + report.stuck().size() + " transaction(s) stuck in flight");
        }
    }
}
