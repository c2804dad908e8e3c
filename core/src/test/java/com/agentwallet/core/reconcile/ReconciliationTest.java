package com.agentwallet.core.reconcile;

import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.Scenario;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ReconciliationTest {
    private static final String PAYEE = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";

    private final CoreFixture core = new CoreFixture();
    private final Scenario given = new Scenario(core);
    private final Reconciliation reconciliation = new Reconciliation(core.storage, core.ledger, core.clock,
            Duration.ofMinutes(10));
    private OrgId org;
    private FundedWallet wallet;

    @BeforeEach
    void someActivity() {
        org = given.organisation("1000.00");
        Policy policy = given.policy(org, PolicyRules.NONE);
        wallet = given.wallet(org, policy, "agent-1", "300.00");
        FundedWallet receiver = given.wallet(org, policy, "agent-2", "0");
        given.pay(wallet, PAYEE, "10.00").value();
        given.pay(wallet, receiver.wallet().address().base58(), "5.00").value();
        core.escrows.lock(new LockEscrow(org, wallet.wallet().id(), receiver.wallet().id().value(), Usdc.parse("20.00"),
                "task", 3600, Optional.empty(), Optional.of(wallet.session())), RequestKey.none()).value();
    }

    @Test
    void booksThatMatchTheLedgerReportNoDrift() {
        ReconciliationReport report = reconciliation.run();

        assertThat(report.drifts()).isEmpty();
        assertThat(report.isClean()).isTrue();
        // One treasury, two wallets, one vault.
        assertThat(report.checked()).isEqualTo(4);
        assertThat(report.skippedInFlight()).isZero();
    }

    @Test
    void moneyThatMovedOnTheLedgerBehindTheBooksIsReportedAsDrift() {
        core.ledger.submit(new LedgerInstruction.Deposit("outside-the-books", org, Usdc.parse("1.50")));

        ReconciliationReport report = reconciliation.run();

        assertThat(report.drifts()).containsExactly(
                new Drift(new LedgerAccount.Treasury(org), Usdc.parse("700.00"), Usdc.parse("701.50")));
    }

    @Test
    void aPaymentAwaitingItsLedgerOutcomeIsSkippedNotReported() {
        core.ledger.leaveUnansweredWhen(instruction -> instruction instanceof LedgerInstruction.Pay);
        given.pay(wallet, PAYEE, "1.00").value();

        ReconciliationReport report = reconciliation.run();

        assertThat(report.drifts()).isEmpty();
        assertThat(report.skippedInFlight()).isEqualTo(1);
        assertThat(report.checked()).isEqualTo(3);
        assertThat(report.stuck()).isEmpty();
        assertThat(report.isClean()).isTrue();
    }

    @Test
    void aPaymentInFlightLongerThanItShouldBeIsReportedAsStuck() {
        core.ledger.leaveUnansweredWhen(instruction -> instruction instanceof LedgerInstruction.Pay);
        TxId unanswered = given.pay(wallet, PAYEE, "1.00").value().transaction().id();

        core.clock.advance(Duration.ofMinutes(10));
        ReconciliationReport report = reconciliation.run();

        assertThat(report.stuck()).extracting(Transaction::id).containsExactly(unanswered);
        assertThat(report.isClean()).isFalse();
    }

    @Test
    void aScheduledRunTakenByAnotherProcessIsSkippedAndOneTakenHereRunsWithTheJobsPeriod() {
        List<String> asked = new ArrayList<>();
        assertThat(reconciliation.runIfDue((job, now, every) -> {
            asked.add(job + " at " + now + " every " + every);
            return false;
        }, Duration.ofMinutes(5))).isEmpty();
        assertThat(reconciliation.runIfDue((job, now, every) -> true, Duration.ofMinutes(5)))
                .hasValueSatisfying(report -> assertThat(report.checked()).isEqualTo(reconciliation.run().checked()));
        assertThat(asked).containsExactly("reconciliation at " + core.clock.instant() + " every PT5M");
    }
}
