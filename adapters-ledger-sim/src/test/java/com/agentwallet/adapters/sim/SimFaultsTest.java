package com.agentwallet.adapters.sim;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Sequences;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The faults the simulator injects. Faults are fixed per instance, so each test sets the chain up
 * on a fault-free simulator, closes it, and opens a faulty one over the same journal.
 */
class SimFaultsTest {
    private static final long SESSION = 0;

    @TempDir
    Path folder;

    private final MutableClock clock = MutableClock.atTestEpoch();
    private final IdGenerator ids = new RandomIdGenerator(new Random(3));
    private final String merchant = Addresses.external("merchant");
    private final Map<LedgerInstruction, LedgerOutcome> setup = new LinkedHashMap<>();
    private OrgId org;
    private LedgerAddress wallet;

    @BeforeEach
    void setUpTheChainWithoutFaults() throws Exception {
        try (SimulatedLedger ledger = simulator(Map.of())) {
            org = ids.org();
            PolicyId policy = ids.policy();
            wallet = ledger.walletAddress(org, "agent-1");
            for (LedgerInstruction instruction : List.of(
                    new LedgerInstruction.Deposit(op(), org, Usdc.parse("1000")),
                    new LedgerInstruction.WritePolicy(op(), org, policy, Sequences.next(), PolicyRules.NONE, Set.of()),
                    new LedgerInstruction.OpenWallet(op(), wallet, org, "agent-1", policy),
                    new LedgerInstruction.SetSessionKey(op(), wallet, SESSION,
                            clock.instant().plus(Duration.ofDays(365)), Sequences.next()),
                    new LedgerInstruction.Fund(op(), org, wallet, Usdc.parse("100")),
                    pay("10"))) {
                LedgerOutcome outcome = ledger.submit(instruction);
                assertThat(outcome).isInstanceOf(LedgerOutcome.Confirmed.class);
                setup.put(instruction, outcome);
            }
        }
    }

    @Test
    void withFailureRateOneEveryNewSubmissionIsRefusedAsLedgerUnavailable() throws Exception {
        try (SimulatedLedger ledger = simulator(Map.of("failure_rate", "1"))) {
            Map<LedgerAccount, Usdc> before = balances(ledger);
            for (LedgerInstruction instruction : List.of(pay("5"), new LedgerInstruction.Fund(op(), org, wallet,
                    Usdc.parse("1")), new LedgerInstruction.Deposit(op(), org, Usdc.parse("1")), pay("5000"))) {
                LedgerOutcome outcome = ledger.submit(instruction);
                assertThat(outcome).as("%s", instruction).isInstanceOfSatisfying(LedgerOutcome.Rejected.class,
                        rejected -> assertThat(rejected.code()).isEqualTo("ledger_unavailable"));
            }
            assertThat(balances(ledger)).isEqualTo(before);

            // What the chain had already answered is answered as before: faults hit new submissions only.
            setup.forEach((instruction, outcome) -> assertThat(ledger.submit(instruction)).isEqualTo(outcome));
        }
    }

    @Test
    void withLateRateOneAPaymentExecutesButItsOutcomeIsUnknownUntilResubmitted() throws Exception {
        LedgerInstruction.Pay late = pay("30");
        LedgerOutcome confirmed;
        try (SimulatedLedger ledger = simulator(Map.of("late_rate", "1"))) {
            assertThat(ledger.submit(late)).isInstanceOf(LedgerOutcome.Unknown.class);
            assertThat(ledger.balance(new LedgerAccount.Wallet(wallet))).as("it did land").isEqualTo(Usdc.parse("60"));
            assertThat(received(ledger)).isEqualTo(Usdc.parse("40"));

            confirmed = ledger.submit(late);
            assertThat(confirmed).isInstanceOf(LedgerOutcome.Confirmed.class);
            assertThat(ledger.submit(late)).isEqualTo(confirmed);
            assertThat(ledger.balance(new LedgerAccount.Wallet(wallet))).isEqualTo(Usdc.parse("60"));
        }
        try (SimulatedLedger healthy = simulator(Map.of())) {
            assertThat(healthy.submit(late)).as("after a restart without faults").isEqualTo(confirmed);
            assertThat(healthy.balance(new LedgerAccount.Wallet(wallet))).isEqualTo(Usdc.parse("60"));
        }
    }

    @Test
    void aLatePaymentIsFoundConfirmedByAHealthySimulatorOverTheSameJournal() throws Exception {
        LedgerInstruction.Pay late = pay("30");
        try (SimulatedLedger ledger = simulator(Map.of("late_rate", "1"))) {
            assertThat(ledger.submit(late)).isInstanceOf(LedgerOutcome.Unknown.class);
        }
        try (SimulatedLedger healthy = simulator(Map.of())) {
            assertThat(healthy.submit(late)).isInstanceOf(LedgerOutcome.Confirmed.class);
            assertThat(healthy.balance(new LedgerAccount.Wallet(wallet))).isEqualTo(Usdc.parse("60"));
            assertThat(received(healthy)).isEqualTo(Usdc.parse("40"));
        }
    }

    @Test
    void withDropRateOneAPaymentNeverLandsAndItsResubmissionLearnsItExpired() throws Exception {
        LedgerInstruction.Pay dropped = pay("30");
        try (SimulatedLedger ledger = simulator(Map.of("drop_rate", "1"))) {
            Map<LedgerAccount, Usdc> before = balances(ledger);
            assertThat(ledger.submit(dropped)).isInstanceOf(LedgerOutcome.Unknown.class);
            assertThat(balances(ledger)).as("nothing landed").isEqualTo(before);

            LedgerOutcome expired = ledger.submit(dropped);
            assertThat(expired).isInstanceOfSatisfying(LedgerOutcome.Rejected.class,
                    rejected -> assertThat(rejected.code()).isEqualTo("transaction_expired"));
            assertThat(balances(ledger)).isEqualTo(before);
        }
    }

    @Test
    void theFaultsDrawnFollowTheirRatesInOrder() {
        SimFaults faults = new SimFaults(0.2, 0.3, 0.1, Duration.ZERO);
        assertThat(faults.draw(0.0)).isEqualTo(SimFaults.Fault.FAIL);
        assertThat(faults.draw(0.1999)).isEqualTo(SimFaults.Fault.FAIL);
        assertThat(faults.draw(0.2)).isEqualTo(SimFaults.Fault.LATE);
        assertThat(faults.draw(0.4999)).isEqualTo(SimFaults.Fault.LATE);
        assertThat(faults.draw(0.5)).isEqualTo(SimFaults.Fault.DROP);
        assertThat(faults.draw(0.5999)).isEqualTo(SimFaults.Fault.DROP);
        assertThat(faults.draw(0.6)).isEqualTo(SimFaults.Fault.NONE);
        assertThat(SimFaults.NONE.draw(0.0)).isEqualTo(SimFaults.Fault.NONE);

        assertThatThrownBy(() -> new SimFaults(0.5, 0.5, 0.1, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SimFaults(-0.1, 0, 0, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SimFaults(0, 0, 0, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theSeededFaultsHitTheSameSubmissionsEveryRun() {
        assertThat(outcomeKinds(7)).isEqualTo(outcomeKinds(7)).contains("Confirmed", "Rejected", "Unknown");
    }

    @Test
    void aSettingThatIsNotANumberIsAValidationError() {
        assertThatThrownBy(() -> new SimLedgerFactory().create(new LedgerContext(clock, folder,
                Map.of("persist", "false", "failure_rate", "often"))))
                .isInstanceOf(ValidationException.class).hasMessageContaining("failure_rate");
    }

    private List<String> outcomeKinds(long seed) {
        LedgerPort ledger = new SimLedgerFactory().create(new LedgerContext(clock, folder, Map.of("persist", "false",
                "seed", Long.toString(seed), "failure_rate", "0.3", "late_rate", "0.3", "drop_rate", "0.2")));
        OrgId someOrg = new RandomIdGenerator(new Random(seed)).org();
        List<String> kinds = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            kinds.add(ledger.submit(new LedgerInstruction.Deposit("deposit-" + i, someOrg, Usdc.parse("1")))
                    .getClass().getSimpleName());
        }
        return kinds;
    }

    private SimulatedLedger simulator(Map<String, String> faults) {
        Map<String, String> settings = new LinkedHashMap<>(faults);
        settings.put("seed", "7");
        return (SimulatedLedger) new SimLedgerFactory().create(new LedgerContext(clock, folder, settings));
    }

    private LedgerInstruction.Pay pay(String amount) {
        return new LedgerInstruction.Pay(op(), wallet, merchant, Usdc.parse(amount), clock.instant(), SESSION,
                Optional.empty());
    }

    private String op() {
        return ids.tx().value();
    }

    private Usdc received(LedgerPort ledger) {
        return ledger.balance(new LedgerAccount.Wallet(new LedgerAddress(merchant)));
    }

    private Map<LedgerAccount, Usdc> balances(LedgerPort ledger) {
        Map<LedgerAccount, Usdc> balances = new LinkedHashMap<>();
        for (LedgerAccount account : List.of(new LedgerAccount.Treasury(org), new LedgerAccount.Wallet(wallet),
                new LedgerAccount.Wallet(new LedgerAddress(merchant)))) {
            balances.put(account, ledger.balance(account));
        }
        return balances;
    }
}
