package com.agentwallet.adapters.sim;

import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.AtOnce;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Sequences;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Simulators given one journal file ({@code journal} setting), as server processes on one machine
 * are: they are one chain. Each submission first reads what the others appended, so an operation
 * one ran is known to all, the program's caps count every simulator's payments, and a simulator
 * made afresh from the file holds the same balances. Here the simulators share a JVM; the server
 * suite's several-process test shares the file between processes.
 */
class SimSharedJournalTest {
    private static final long SESSION = 0;

    @TempDir
    Path folder;

    private final MutableClock clock = MutableClock.atTestEpoch();
    private final IdGenerator ids = new RandomIdGenerator(new Random(11));
    private final String merchant = Addresses.external("merchant");
    private Path journal;
    private LedgerAddress wallet;

    @Test
    void twoSimulatorsOverOneJournalSeeEachOthersWritesAndCountEachOthersSpending() {
        try (SimulatedLedger one = open(); SimulatedLedger other = open()) {
            openFundedWallet(one, "500");
            assertThat(other.balance(new LedgerAccount.Wallet(wallet))).as("the other's funding").isEqualTo(Usdc.parse("500"));

            LedgerInstruction.Pay first = pay("120");
            LedgerOutcome paid = other.submit(first);
            assertThat(paid).isInstanceOf(LedgerOutcome.Confirmed.class);
            assertThat(one.submit(pay("150"))).isInstanceOf(LedgerOutcome.Confirmed.class);
            assertThat(code(other.submit(pay("40")))).as("120 + 150 + 40 over the day's 300").isEqualTo("max_per_day");

            assertThat(one.submit(first)).as("the other's payment, submitted again here").isEqualTo(paid);
            assertThat(one.balance(new LedgerAccount.Wallet(wallet))).isEqualTo(Usdc.parse("230"));
            assertThat(other.receivedBy(merchant)).isEqualTo(Usdc.parse("270"));
        }
        try (SimulatedLedger afresh = open()) {
            assertThat(afresh.balance(new LedgerAccount.Wallet(wallet))).isEqualTo(Usdc.parse("230"));
        }
    }

    @Test
    void paymentsAtOnceThroughTwoSimulatorsStopAtTheDayCap() throws Exception {
        List<LedgerOutcome> outcomes;
        try (SimulatedLedger one = open(); SimulatedLedger other = open()) {
            openFundedWallet(one, "500");
            List<Callable<LedgerOutcome>> payments = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                SimulatedLedger through = i % 2 == 0 ? one : other;
                LedgerInstruction.Pay payment = pay("10");
                payments.add(() -> through.submit(payment));
            }
            outcomes = AtOnce.call(8, payments);
        }
        assertThat(outcomes).filteredOn(LedgerOutcome.Confirmed.class::isInstance).as("300 of 400 asked").hasSize(30);
        assertThat(outcomes).filteredOn(outcome -> !(outcome instanceof LedgerOutcome.Confirmed))
                .extracting(SimSharedJournalTest::code).containsOnly("max_per_day");
        try (SimulatedLedger afresh = open()) {
            assertThat(afresh.balance(new LedgerAccount.Wallet(wallet))).isEqualTo(Usdc.parse("200"));
            assertThat(afresh.receivedBy(merchant)).isEqualTo(Usdc.parse("300"));
        }
    }

    @Test
    void aLineLeftHalfWrittenByAKilledProcessIsReadByNoOneAndOverwritten() throws Exception {
        try (SimulatedLedger killed = open()) {
            openFundedWallet(killed, "500");
        }
        long whole = Files.readAllLines(journal).size();
        Files.writeString(journal, "{\"at\":\"2026-01-01T00:00:0", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        try (SimulatedLedger next = open()) {
            assertThat(next.balance(new LedgerAccount.Wallet(wallet))).isEqualTo(Usdc.parse("500"));
            assertThat(next.submit(pay("25"))).isInstanceOf(LedgerOutcome.Confirmed.class);
        }
        assertThat(Files.readAllLines(journal)).as("the half line gone, the payment's line in its place")
                .hasSize(Math.toIntExact(whole + 1)).allMatch(line -> line.endsWith("}"));
        try (SimulatedLedger afresh = open()) {
            assertThat(afresh.balance(new LedgerAccount.Wallet(wallet))).isEqualTo(Usdc.parse("475"));
        }
    }

    private SimulatedLedger open() {
        journal = folder.resolve("shared").resolve("chain.jsonl");
        return (SimulatedLedger) new SimLedgerFactory().create(new LedgerContext(clock, folder.resolve("own-" + ids.tx()),
                Map.of("journal", journal.toString())));
    }

    /** A wallet of a new organisation, funded with {@code amount}, under a policy of 200 a payment and 300 a day. */
    private void openFundedWallet(SimulatedLedger ledger, String amount) {
        OrgId org = ids.org();
        PolicyId policy = ids.policy();
        wallet = ledger.walletAddress(org, "agent-1");
        confirmed(ledger, new LedgerInstruction.Deposit(op(), org, Usdc.parse("1000")));
        confirmed(ledger, new LedgerInstruction.WritePolicy(op(), org, policy, Sequences.next(),
                rules().maxPerTx("200").maxPerDay("300").build(), Set.of()));
        confirmed(ledger, new LedgerInstruction.OpenWallet("open:" + wallet, wallet, org, "agent-1", policy));
        confirmed(ledger, new LedgerInstruction.SetSessionKey("session:" + wallet + ":0", wallet, SESSION,
                clock.instant().plus(Duration.ofDays(30)), Sequences.next()));
        confirmed(ledger, new LedgerInstruction.Fund(op(), org, wallet, Usdc.parse(amount)));
    }

    private LedgerInstruction.Pay pay(String amount) {
        return new LedgerInstruction.Pay(op(), wallet, merchant, Usdc.parse(amount), clock.instant(), SESSION,
                Optional.empty());
    }

    private String op() {
        return ids.tx().value();
    }

    private static void confirmed(SimulatedLedger ledger, LedgerInstruction instruction) {
        assertThat(ledger.submit(instruction)).as("%s", instruction).isInstanceOf(LedgerOutcome.Confirmed.class);
    }

    private static String code(LedgerOutcome outcome) {
        return ((LedgerOutcome.Rejected) outcome).code();
    }
}
