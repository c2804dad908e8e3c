package com.agentwallet.adapters.sim;

import com.agentwallet.core.id.EscrowId;
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
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.wallet.WalletStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code sim} plugin with its default settings keeps the chain in a journal under the data
 * folder: a simulator made again from the same folder is the same chain.
 */
class SimJournalPersistenceTest {
    private static final String PROOF = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    /** The session version the history's wallets pay under, and how long its key is valid on chain. */
    private static final long SESSION = 0;
    private static final Duration SESSION_LIFETIME = Duration.ofDays(30);

    @TempDir
    Path folder;

    private final MutableClock clock = MutableClock.atTestEpoch();
    private final IdGenerator ids = new RandomIdGenerator(new Random(5));
    private final TestCoSigner coSigner = new TestCoSigner(9);
    private final List<Submitted> submitted = new ArrayList<>();
    private final List<LedgerAccount> accounts = new ArrayList<>();
    private final String merchant = Addresses.external("merchant");
    private final String casino = Addresses.external("casino");

    private OrgId org;
    private PolicyId policy;
    private LedgerAddress first;
    private LedgerAddress second;
    private EscrowId released;
    private EscrowId open;
    private EscrowId disputed;

    private record Submitted(LedgerInstruction instruction, LedgerOutcome outcome) {
    }

    @Test
    void aSimulatorMadeAgainFromTheSameFolderHoldsTheSameBalances() throws Exception {
        Map<LedgerAccount, Usdc> before = journaledHistory();
        assertThat(before).containsEntry(new LedgerAccount.Wallet(first), Usdc.parse("150"))
                .containsEntry(new LedgerAccount.Wallet(second), Usdc.parse("90"))
                .containsEntry(new LedgerAccount.Treasury(org), Usdc.parse("450"))
                .containsEntry(new LedgerAccount.Wallet(new LedgerAddress(merchant)), Usdc.parse("270"))
                .containsEntry(new LedgerAccount.Vault(open, second), Usdc.parse("30"))
                .containsEntry(new LedgerAccount.Vault(disputed, first), Usdc.parse("10"));
        assertThat(Files.readAllLines(folder.resolve("ledger-sim").resolve("journal.jsonl")))
                .as("one journal line per submission").hasSize(submitted.size());

        clock.advance(Duration.ofMinutes(5));
        try (SimulatedLedger reopened = openLedger()) {
            assertThat(balances(reopened)).isEqualTo(before);
            assertThat(reopened.currentSlot()).isEqualTo(Duration.between(SimulatedLedger.DEFAULT_GENESIS,
                    clock.instant()).toMillis() / 400);
        }
    }

    @Test
    void aJournalWrittenBeforeAdminWritesCarriedASequenceReplaysInItsOrderAndTakesTheBooksNextWrites() throws Exception {
        Map<LedgerAccount, Usdc> before = journaledHistory();
        Path journal = folder.resolve("ledger-sim").resolve("journal.jsonl");
        List<String> legacy = Files.readAllLines(journal).stream()
                .map(line -> line.replaceAll(",?\"sequence\":\\d+", "")).toList();
        assertThat(String.join("\n", legacy)).doesNotContain("sequence");
        Files.write(journal, legacy);

        try (SimulatedLedger reopened = openLedger()) {
            assertThat(balances(reopened)).isEqualTo(before);
            long booksNext = 1_800_000_000_000_000L;
            confirmed(reopened, new LedgerInstruction.UpdateWallet(op(), second, WalletStatus.ACTIVE, policy, booksNext));
            assertThat(code(reopened.submit(new LedgerInstruction.UpdateWallet(op(), second, WalletStatus.FROZEN, policy,
                    legacy.size())))).isEqualTo("stale_write");
            confirmed(reopened, new LedgerInstruction.Pay(op(), second, merchant, Usdc.parse("1"), clock.instant(),
                    SESSION, Optional.empty()));
        }
    }

    @Test
    void aSimulatorMadeAgainAnswersEarlierMoneyMovementsAsBeforeAndMovesNothing() throws Exception {
        try (SimulatedLedger ledger = openLedger()) {
            history(ledger);
        }
        try (SimulatedLedger reopened = openLedger()) {
            Map<LedgerAccount, Usdc> before = balances(reopened);
            for (Submitted earlier : submitted) {
                if (isMoneyMovement(earlier.instruction())) {
                    assertThat(reopened.submit(earlier.instruction())).as("%s", earlier.instruction())
                            .isEqualTo(earlier.outcome());
                }
            }
            assertThat(balances(reopened)).isEqualTo(before);
        }
    }

    @Test
    void aSimulatorMadeAgainAnswersEarlierAdministrativeInstructionsAsBefore() throws Exception {
        try (SimulatedLedger ledger = openLedger()) {
            history(ledger);
        }
        try (SimulatedLedger reopened = openLedger()) {
            for (Submitted earlier : submitted) {
                if (!isMoneyMovement(earlier.instruction())) {
                    assertThat(reopened.submit(earlier.instruction())).as("%s", earlier.instruction())
                            .isEqualTo(earlier.outcome());
                }
            }
        }
    }

    @Test
    void theChainCarriesOnWhereItStoppedAfterARestart() throws Exception {
        try (SimulatedLedger ledger = openLedger()) {
            history(ledger);
        }
        clock.advance(Duration.ofHours(2));
        try (SimulatedLedger reopened = openLedger()) {
            // The day's spending (300 of 300) is remembered.
            assertThat(code(reopened.submit(pay(first, merchant, "1")))).isEqualTo("max_per_day");
            // So are the frozen wallet, the disputed escrow and the settled (closed) one.
            assertThat(code(reopened.submit(pay(second, merchant, "1")))).isEqualTo("wallet_not_active");
            assertThat(code(reopened.submit(new LedgerInstruction.EscrowRefund(op(), disputed, first,
                    Usdc.parse("10"), false)))).isEqualTo("escrow_disputed");
            assertThat(code(reopened.submit(new LedgerInstruction.EscrowRelease(op(), released, first,
                    second.base58(), Usdc.parse("20"), Optional.of(PROOF))))).isEqualTo("account_not_found");
            // And the blocked recipients of the policy.
            assertThat(reopened.submit(new LedgerInstruction.UpdateWallet(op(), second, WalletStatus.ACTIVE, policy, Sequences.next())))
                    .isInstanceOf(LedgerOutcome.Confirmed.class);
            assertThat(code(reopened.submit(pay(second, casino, "1")))).isEqualTo("blocked_category");

            assertThat(reopened.submit(new LedgerInstruction.EscrowRefund(op(), open, second, Usdc.parse("30"), false)))
                    .isInstanceOf(LedgerOutcome.Confirmed.class);
            assertThat(reopened.submit(pay(second, merchant, "5"))).isInstanceOf(LedgerOutcome.Confirmed.class);
            assertThat(reopened.balance(new LedgerAccount.Wallet(second))).isEqualTo(Usdc.parse("115"));
        }
        try (SimulatedLedger again = openLedger()) {
            assertThat(again.balance(new LedgerAccount.Wallet(second))).as("the second run was journaled too")
                    .isEqualTo(Usdc.parse("115"));
        }
    }

    @Test
    void theWalletsSessionKeyAndItsExpiryOutliveARestart() throws Exception {
        LedgerAddress wallet;
        try (SimulatedLedger ledger = openLedger()) {
            org = ids.org();
            policy = ids.policy();
            wallet = ledger.walletAddress(org, "agent-1");
            confirmed(ledger, new LedgerInstruction.Deposit(op(), org, Usdc.parse("1000")));
            confirmed(ledger, new LedgerInstruction.WritePolicy(op(), org, policy, Sequences.next(), PolicyRules.NONE, Set.of()));
            confirmed(ledger, new LedgerInstruction.OpenWallet("open:" + wallet, wallet, org, "agent-1", policy));
            confirmed(ledger, new LedgerInstruction.Fund(op(), org, wallet, Usdc.parse("100")));
            confirmed(ledger, new LedgerInstruction.SetSessionKey("session:" + wallet + ":0", wallet, SESSION,
                    clock.instant().plus(SESSION_LIFETIME), Sequences.next()));
            confirmed(ledger, pay(wallet, merchant, "1"));
            // The session is rotated: the newer key, valid for an hour, replaces the first at once.
            confirmed(ledger, new LedgerInstruction.SetSessionKey("session:" + wallet + ":1", wallet, SESSION + 1,
                    clock.instant().plus(Duration.ofHours(1)), Sequences.next()));
        }
        clock.advance(Duration.ofMinutes(59));
        try (SimulatedLedger reopened = openLedger()) {
            assertThat(code(reopened.submit(pay(wallet, merchant, "1")))).as("the rotation was replayed")
                    .isEqualTo("session_token");
            confirmed(reopened, payUnder(wallet, merchant, "1", SESSION + 1));
        }
        clock.advance(Duration.ofMinutes(1));
        try (SimulatedLedger again = openLedger()) {
            assertThat(code(again.submit(payUnder(wallet, merchant, "1", SESSION + 1))))
                    .as("the key's expiry was replayed").isEqualTo("session_token");
            assertThat(again.balance(new LedgerAccount.Wallet(wallet))).isEqualTo(Usdc.parse("98"));
            assertThat(again.receivedBy(merchant)).isEqualTo(Usdc.parse("2"));
        }
    }

    // ------------------------------------------------------------------ the history

    /** Runs {@link #history} on a simulator journaling into the folder; answers the balances it left. */
    private Map<LedgerAccount, Usdc> journaledHistory() {
        try (SimulatedLedger ledger = openLedger()) {
            history(ledger);
            return balances(ledger);
        }
    }

    private SimulatedLedger openLedger() {
        return (SimulatedLedger) new SimLedgerFactory().create(new LedgerContext(clock, folder, Map.of()));
    }

    /** Money and administrative instructions of every kind, some of them refused. */
    private void history(LedgerPort ledger) {
        org = ids.org();
        policy = ids.policy();
        first = ledger.walletAddress(org, "agent-1");
        second = ledger.walletAddress(org, "agent-2");
        released = ids.escrow();
        open = ids.escrow();
        disputed = ids.escrow();
        accounts.addAll(List.of(new LedgerAccount.Treasury(org), new LedgerAccount.Wallet(first),
                new LedgerAccount.Wallet(second), new LedgerAccount.Wallet(new LedgerAddress(merchant)),
                new LedgerAccount.Wallet(new LedgerAddress(casino)), new LedgerAccount.Vault(released, first),
                new LedgerAccount.Vault(open, second), new LedgerAccount.Vault(disputed, first)));
        PolicyRules policyRules = rules().maxPerTx("200").maxPerDay("300").maxPerMonth("5000").velocityCap(10)
                .blockedCategories("gambling").expiry(clock.instant().plus(Duration.ofDays(30)))
                .coSignAtOrAbove("150", coSigner).build();
        // One blocked recipient and one category: with several, the signature of the policy write
        // depends on the order its sets iterate in, which the journal does not keep (see
        // SimulatedLedgerTest#equalInstructionsGetTheSameSignatureWhateverOrderTheirSetsWereBuiltIn).
        Set<String> blocked = new TreeSet<>(List.of(casino));

        submit(ledger, new LedgerInstruction.Deposit(op(), org, Usdc.parse("1000")));
        submit(ledger, new LedgerInstruction.WritePolicy("policy:" + policy + ":v1", org, policy, Sequences.next(), policyRules,
                blocked));
        submit(ledger, new LedgerInstruction.OpenWallet("open:" + first, first, org, "agent-1", policy));
        submit(ledger, new LedgerInstruction.OpenWallet("open:" + second, second, org, "agent-2", policy));
        submit(ledger, new LedgerInstruction.SetSessionKey("session:" + first + ":0", first, SESSION,
                clock.instant().plus(SESSION_LIFETIME), Sequences.next()));
        submit(ledger, new LedgerInstruction.SetSessionKey("session:" + second + ":0", second, SESSION,
                clock.instant().plus(SESSION_LIFETIME), Sequences.next()));
        submit(ledger, new LedgerInstruction.Fund(op(), org, first, Usdc.parse("500")));
        submit(ledger, new LedgerInstruction.Fund(op(), org, second, Usdc.parse("100")));
        clock.advance(Duration.ofMinutes(1));
        submit(ledger, pay(first, merchant, "120"));
        LedgerInstruction.Pay large = pay(first, merchant, "150");
        submit(ledger, large.withCoSignature(coSigner.sign(
                Base64.getEncoder().encodeToString(ledger.coSignMessage(large)))));
        submit(ledger, pay(first, casino, "1"));
        submit(ledger, pay(first, merchant, "201"));
        clock.advance(Duration.ofSeconds(7));
        submit(ledger, new LedgerInstruction.EscrowLock(op(), released, first, second.base58(), Usdc.parse("20"),
                clock.instant().plus(Duration.ofHours(1)), Optional.of(PROOF), SESSION));
        submit(ledger, new LedgerInstruction.EscrowRelease(op(), released, first, second.base58(), Usdc.parse("20"),
                Optional.of(PROOF)));
        submit(ledger, new LedgerInstruction.EscrowLock(op(), open, second, merchant, Usdc.parse("30"),
                clock.instant().plus(Duration.ofHours(1)), Optional.empty(), SESSION));
        submit(ledger, new LedgerInstruction.EscrowLock(op(), disputed, first, merchant, Usdc.parse("10"),
                clock.instant().plus(Duration.ofHours(1)), Optional.empty(), SESSION));
        submit(ledger, new LedgerInstruction.EscrowDispute("dispute:" + disputed, disputed, first));
        submit(ledger, new LedgerInstruction.UpdateWallet(op(), second, WalletStatus.FROZEN, policy, Sequences.next()));
        clock.advance(Duration.ofMillis(1234));
        submit(ledger, new LedgerInstruction.Withdraw(op(), org, first, Usdc.parse("50")));
        submit(ledger, new LedgerInstruction.Withdraw(op(), org, first, Usdc.parse("5000")));

        assertThat(submitted).filteredOn(s -> s.outcome() instanceof LedgerOutcome.Rejected).hasSize(3);
    }

    private void submit(LedgerPort ledger, LedgerInstruction instruction) {
        submitted.add(new Submitted(instruction, ledger.submit(instruction)));
    }

    private LedgerInstruction.Pay pay(LedgerAddress wallet, String to, String amount) {
        return payUnder(wallet, to, amount, SESSION);
    }

    private LedgerInstruction.Pay payUnder(LedgerAddress wallet, String to, String amount, long sessionVersion) {
        return new LedgerInstruction.Pay(op(), wallet, to, Usdc.parse(amount), clock.instant(), sessionVersion,
                Optional.empty());
    }

    private String op() {
        return ids.tx().value();
    }

    private Map<LedgerAccount, Usdc> balances(LedgerPort ledger) {
        Map<LedgerAccount, Usdc> balances = new LinkedHashMap<>();
        accounts.forEach(account -> balances.put(account, ledger.balance(account)));
        return balances;
    }

    private static boolean isMoneyMovement(LedgerInstruction instruction) {
        return !(instruction instanceof LedgerInstruction.OpenWallet || instruction instanceof LedgerInstruction.WritePolicy
                || instruction instanceof LedgerInstruction.SetSessionKey
                || instruction instanceof LedgerInstruction.UpdateWallet
                || instruction instanceof LedgerInstruction.EscrowDispute);
    }

    private static void confirmed(LedgerPort ledger, LedgerInstruction instruction) {
        assertThat(ledger.submit(instruction)).as("%s", instruction).isInstanceOf(LedgerOutcome.Confirmed.class);
    }

    private static String code(LedgerOutcome outcome) {
        assertThat(outcome).isInstanceOf(LedgerOutcome.Rejected.class);
        return ((LedgerOutcome.Rejected) outcome).code();
    }
}
