package com.agentwallet.core.reconcile;

import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.common.Pages;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.port.EscrowStore;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.ScheduledRuns;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.port.WalletStore;
import com.agentwallet.core.wallet.Wallet;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Compares every treasury, wallet and escrow vault with its ledger account. What the ledger should
 * hold: a treasury, the organisation's balance; a wallet, its balance plus what it holds for
 * payments awaiting a co-signature (debited in the books, not yet on the ledger); an open escrow
 * whose lock is confirmed, its amount; a settled one, nothing. Accounts with a transaction still
 * {@code pending} are skipped, since the ledger may or may not have executed it yet; a transaction
 * pending for longer than {@code stuckAfter} is reported as stuck.
 */
public final class Reconciliation {
    public static final Duration DEFAULT_STUCK_AFTER = Duration.ofMinutes(10);
    private static final int MAX_STUCK_REPORTED = 100;
    /** Its name among the scheduled runs. */
    static final String JOB = "reconciliation";

    private final Storage storage;
    private final LedgerPort ledger;
    private final Clock clock;
    private final Duration stuckAfter;

    public Reconciliation(Storage storage, LedgerPort ledger, Clock clock, Duration stuckAfter) {
        this.storage = requireNonNull(storage, "storage is null");
        this.ledger = requireNonNull(ledger, "ledger is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.stuckAfter = requireNonNull(stuckAfter, "stuckAfter is null");
    }

    /**
     * This period's run, unless another server process took it: every process schedules the
     * reconciliation, and one of them runs it each {@code every}.
     */
    public Optional<ReconciliationReport> runIfDue(ScheduledRuns runs, Duration every) {
        return runs.claim(JOB, clock.instant(), every) ? Optional.of(run()) : Optional.empty();
    }

    public ReconciliationReport run() {
        Tally tally = new Tally();
        List<Organisation> organisations = storage.inTransaction(stores -> stores.organisations().list());
        for (Organisation org : organisations) {
            checkTreasury(org, tally);
            Map<WalletId, LedgerAddress> addresses = new HashMap<>();
            Pages.forEach(page -> storage.inTransaction(stores -> stores.wallets().list(org.id(), WalletStore.Query.ALL,
                    page)), wallet -> {
                addresses.put(wallet.id(), wallet.address());
                checkWallet(wallet, tally);
            });
            // each vault once, with its sender: the organisation's list also holds the escrows its wallets receive
            Pages.forEach(page -> storage.inTransaction(stores -> stores.escrows().list(
                    Requester.of(org.id()), EscrowStore.Query.ALL, page)), escrow -> {
                if (escrow.orgId().equals(org.id())) {
                    checkVault(escrow, addresses.get(escrow.fromWallet()), tally);
                }
            });
        }
        List<Transaction> stuck = storage.inTransaction(
                stores -> stores.transactions().pendingSince(clock.instant().minus(stuckAfter), MAX_STUCK_REPORTED));
        return new ReconciliationReport(tally.checked, tally.skipped, tally.drifts, stuck);
    }

    private void checkTreasury(Organisation org, Tally tally) {
        boolean inFlight = !transactions(org.id(), Optional.empty(), TransactionStatus.PENDING).stream()
                .filter(tx -> tx.type().touchesTreasury())
                .toList().isEmpty();
        tally.compare(new LedgerAccount.Treasury(org.id()), inFlight, org.balance());
    }

    private void checkWallet(Wallet wallet, Tally tally) {
        boolean inFlight = !transactions(wallet.orgId(), Optional.of(wallet.id()), TransactionStatus.PENDING).isEmpty();
        Usdc held = transactions(wallet.orgId(), Optional.of(wallet.id()), TransactionStatus.PENDING_CO_SIGN).stream()
                .map(Transaction::amount).reduce(Usdc.ZERO, Usdc::plus);
        tally.compare(new LedgerAccount.Wallet(wallet.address()), inFlight, wallet.balance().plus(held));
    }

    private void checkVault(Escrow escrow, LedgerAddress sender, Tally tally) {
        Optional<TransactionStatus> lock = status(escrow.orgId(), Optional.of(escrow.lockTx()));
        Optional<TransactionStatus> payout = status(escrow.orgId(), escrow.settleTx());
        boolean inFlight = lock.filter(TransactionStatus.PENDING::equals).isPresent()
                || payout.filter(TransactionStatus.PENDING::equals).isPresent();
        boolean holding = !escrow.status().isTerminal() && lock.filter(TransactionStatus.CONFIRMED::equals).isPresent();
        tally.compare(new LedgerAccount.Vault(escrow.id(), sender), inFlight, holding ? escrow.amount() : Usdc.ZERO);
    }

    private Optional<TransactionStatus> status(OrgId orgId, Optional<TxId> txId) {
        return txId.flatMap(id -> storage.inTransaction(stores -> stores.transactions().find(orgId, id)))
                .map(Transaction::status);
    }

    private List<Transaction> transactions(OrgId orgId, Optional<WalletId> walletId, TransactionStatus status) {
        TransactionStore.Query query = new TransactionStore.Query(walletId, Optional.of(status), Optional.empty(),
                Optional.empty(), Optional.empty());
        return Pages.all(page -> storage.inTransaction(stores -> stores.transactions().list(orgId, query, page)));
    }

    private final class Tally {
        int checked;
        int skipped;
        final List<Drift> drifts = new ArrayList<>();

        void compare(LedgerAccount account, boolean inFlight, Usdc expected) {
            if (inFlight) {
                skipped++;
                return;
            }
            checked++;
            Usdc onLedger = ledger.balance(account);
            if (!onLedger.equals(expected)) {
                drifts.add(new Drift(account, expected, onLedger));
            }
        }
    }
}
