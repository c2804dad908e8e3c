package com.agentwallet.adapters.sim;

import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowCommand;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.escrow.Proof;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.CreatePolicy;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.SpendEntry;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.LedgerUnavailableException;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.testing.Soak;
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.testing.TestSeed;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.CreatedWallet;
import com.agentwallet.core.wallet.Wallet;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core's use cases on the simulator while it refuses, loses and delays a fifth of the
 * submissions each. After a random run, recovery resubmits until nothing is pending; then every
 * transaction ended confirmed or failed, and the books (wallet and organisation balances, escrow
 * vaults) equal what the chain holds. A failed transaction moved nothing on the chain, so a wallet
 * whose books match the chain got its money back. The seed is fixed and printed ({@link TestSeed}).
 */
class SimServiceFaultTest {
    private static final int STEPS = Math.toIntExact(Soak.length("sim.service.steps", 400, 4000));
    private static final Duration LONG_SESSION = Duration.ofDays(30);

    @TempDir
    Path folder;

    private World world;

    @AfterEach
    void closeTheChain() {
        if (world != null) {
            world.ledger.close();
        }
    }

    @Test
    void paymentsFundingsAndWithdrawalsUnderLedgerFaultsEndConfirmedOrFailedWithTheBooksMatchingTheChain() {
        world = new World(TestSeed.of("SimServiceFaultTest (payments, " + STEPS + " steps)", 20_260_401L), false);
        world.run(STEPS);
        world.settleEverything();
        world.assertEverythingEndedAndTheBooksMatchTheChain();
    }

    @Test
    void escrowsUnderLedgerFaultsEndSettledWithTheBooksMatchingTheChain() {
        world = new World(TestSeed.of("SimServiceFaultTest (escrows, " + STEPS + " steps)", 20_260_401L), true);
        world.run(STEPS);
        world.settleEverything();
        world.assertEverythingEndedAndTheBooksMatchTheChain();
    }

    /** The services on a switchable simulator, the run's participants, and what the run did. */
    private final class World {
        final long seed;
        final boolean escrows;
        final Random random;
        final SwitchableLedger ledger = new SwitchableLedger();
        final CoreFixture core;
        final List<OrgRef> orgs = new ArrayList<>();
        final List<WalletRef> wallets = new ArrayList<>();
        final List<String> externals = new ArrayList<>();
        final Map<String, Integer> operations = new TreeMap<>();
        final List<String> ledgerRefusedAdmin = new ArrayList<>();
        long depositedMicros;

        World(long seed, boolean escrows) {
            this.seed = seed;
            this.escrows = escrows;
            this.random = new Random(seed);
            this.core = CoreFixture.on(clock -> {
                ledger.use(simulator(clock, Map.of()));
                return ledger;
            }, seed);
            for (int i = 0; i < 4; i++) {
                externals.add(Addresses.external("merchant-" + i));
            }
            for (int i = 0; i < 2; i++) {
                setUpOrganisation(i);
            }
            // The chain restarts with faults: the services carry on against the same journal.
            ledger.use(simulator(core.clock, Map.of("failure_rate", "0.2", "late_rate", "0.2", "drop_rate", "0.2")));
        }

        private SimulatedLedger simulator(MutableClock clock, Map<String, String> faults) {
            Map<String, String> settings = new HashMap<>(faults);
            settings.put("persist", "true");
            settings.put("seed", Long.toString(seed));
            return (SimulatedLedger) new SimLedgerFactory().create(new LedgerContext(clock, folder, settings));
        }

        private void setUpOrganisation(int index) {
            Organisation org = core.organisations.create("Org " + index);
            TestCoSigner signer = new TestCoSigner(seed + index);
            OrgRef ref = new OrgRef(org.id(), signer);
            orgs.add(ref);
            Usdc deposit = Usdc.ofWhole(50_000);
            core.organisations.deposit(org.id(), deposit).value();
            depositedMicros += deposit.micros();
            core.policies.categorise(org.id(), externals.get(3), "gambling");
            List<PolicyRules> policies = List.of(
                    rules().maxPerTx("300").maxPerDay("3000").velocityCap(40).build(),
                    rules().maxPerTx("1000").coSignAtOrAbove("200", signer).build(),
                    rules().maxPerMonth("50000").blockedCategories("gambling").build());
            for (int w = 0; w < policies.size(); w++) {
                Policy policy = core.policies.create(new CreatePolicy(org.id(), "Policy " + w, policies.get(w),
                        Scenario.ADMIN), RequestKey.none()).value();
                CreatedWallet created = core.wallets.create(new CreateWallet(org.id(), "agent-" + index + "-" + w,
                        "label", policy.id(), List.of(), Optional.of(LONG_SESSION)), RequestKey.none()).value();
                core.wallets.fund(org.id(), created.wallet().id(), Usdc.ofWhole(3_000), RequestKey.none()).value();
                wallets.add(new WalletRef(ref, created));
            }
        }

        // ------------------------------------------------------------ the run

        void run(int steps) {
            for (int step = 0; step < steps; step++) {
                core.clock.advance(Duration.ofSeconds(random.nextInt(120)));
                int roll = random.nextInt(100);
                if (roll < 40) {
                    count("pay", pay());
                } else if (roll < 55) {
                    count("fund", fund());
                } else if (roll < 62) {
                    count("withdraw", withdraw());
                } else if (roll < 70) {
                    core.settlement.recover(Duration.ZERO, 1000);
                    count("recover", "ok");
                } else if (roll < 75) {
                    core.clock.advance(Duration.ofMinutes(random.nextInt(180)));
                    count("advance clock", "ok");
                } else if (!escrows) {
                    count("pay", pay());
                } else if (roll < 85) {
                    count("lock escrow", lockEscrow());
                } else if (roll < 91) {
                    count("complete escrow", completeEscrow());
                } else if (roll < 94) {
                    count("dispute escrow", disputeEscrow());
                } else if (roll < 97) {
                    count("resolve escrow", resolveEscrow());
                } else {
                    core.escrows.refundTimedOut(1000);
                    count("refund timed-out escrows", "ok");
                }
            }
        }

        private String pay() {
            WalletRef from = pick(wallets);
            String to = random.nextInt(10) < 6 ? pick(externals) : other(from).address().base58();
            Usdc amount = random.nextInt(10) == 0
                    ? Usdc.ofMicros(250_000_000L + random.nextInt(1_000_000_000))
                    : Usdc.ofMicros(10_000 + random.nextInt(250_000_000));
            Result<PaymentResult> result = core.payments.pay(new PayCommand(from.org().id(), from.id(), to, amount,
                    Optional.empty(), Optional.empty(), false, Optional.of(from.created().session()), Optional.empty()));
            if (!result.isOk()) {
                return result.rejection().getClass().getSimpleName();
            }
            Transaction tx = result.value().transaction();
            if (tx.status() != TransactionStatus.PENDING_CO_SIGN) {
                return tx.status().wireName();
            }
            if (random.nextInt(5) == 0) {
                core.payments.reject(tx.orgId(), tx.id(), "not today", TestCoSigner.APPROVER).value();
                return "co-sign rejected";
            }
            String signature = from.org().signer().sign(tx.coSign().orElseThrow().payload());
            return "co-signed, " + core.payments.coSign(tx.orgId(), tx.id(), signature, TestCoSigner.APPROVER).value().status().wireName();
        }

        private String fund() {
            WalletRef to = pick(wallets);
            Usdc amount = Usdc.ofMicros(1_000_000 + random.nextInt(400_000_000));
            Result<Wallet> result = core.wallets.fund(to.org().id(), to.id(), amount, RequestKey.none());
            return result.isOk() ? "ok" : result.rejection().getClass().getSimpleName();
        }

        private String withdraw() {
            WalletRef from = pick(wallets);
            Usdc amount = Usdc.ofMicros(1_000_000 + random.nextInt(100_000_000));
            Result<Wallet> result = core.wallets.withdraw(from.org().id(), from.id(), Optional.of(amount), RequestKey.none());
            return result.isOk() ? "ok" : result.rejection().getClass().getSimpleName();
        }

        private String lockEscrow() {
            WalletRef from = pick(wallets);
            String to = random.nextBoolean() ? other(from).id().value() : pick(externals.subList(0, 3));
            Optional<String> expected = random.nextBoolean()
                    ? Optional.of(Hashing.sha256Hex("output-" + random.nextInt(1_000_000))) : Optional.empty();
            Result<Escrow> result = core.escrows.lock(new LockEscrow(from.org().id(), from.id(), to,
                    Usdc.ofMicros(1_000_000 + random.nextInt(150_000_000)), "task", 60 + random.nextInt(7200), expected,
                    Optional.of(from.created().session())), RequestKey.none());
            return result.isOk() ? result.value().status().wireName() : result.rejection().getClass().getSimpleName();
        }

        private String completeEscrow() {
            Optional<Escrow> escrow = anyEscrow(EscrowStatus.LOCKED);
            if (escrow.isEmpty()) {
                return "none locked";
            }
            String proof = escrow.get().expectedProof().orElse(Hashing.sha256Hex("any output"));
            Result<Escrow> result = core.escrows.complete(Requester.of(escrow.get().orgId()), escrow.get().id(), Proof.OUTPUT_HASH, proof);
            return result.isOk() ? result.value().status().wireName() : result.rejection().getClass().getSimpleName();
        }

        private String disputeEscrow() {
            Optional<Escrow> escrow = anyEscrow(EscrowStatus.LOCKED);
            if (escrow.isEmpty()) {
                return "none locked";
            }
            try {
                Result<Escrow> result = core.escrows.dispute(Requester.of(escrow.get().orgId()), escrow.get().id(), "not delivered",
                        Hashing.sha256Hex("evidence"));
                return result.isOk() ? result.value().status().wireName() : result.rejection().getClass().getSimpleName();
            } catch (LedgerUnavailableException e) {
                ledgerRefusedAdmin.add(e.getMessage());
                return "ledger unavailable";
            }
        }

        private String resolveEscrow() {
            Optional<Escrow> escrow = anyEscrow(EscrowStatus.DISPUTED);
            if (escrow.isEmpty()) {
                return "none disputed";
            }
            EscrowCommand.Outcome outcome = random.nextBoolean() ? EscrowCommand.Outcome.RELEASE : EscrowCommand.Outcome.REFUND;
            Result<Escrow> result = core.escrows.resolve(escrow.get().orgId(), escrow.get().id(), outcome);
            return result.isOk() ? result.value().status().wireName() : result.rejection().getClass().getSimpleName();
        }

        // ------------------------------------------------------------ the end

        /**
         * Ends what waits for a person (co-signatures, disputes, escrow deadlines) and recovers, in
         * rounds, until nothing is pending: an escrow can only be settled once its lock is.
         */
        void settleEverything() {
            core.clock.advance(Duration.ofDays(3));
            int rounds = 0;
            while (rounds < 20 && (anyPending() || anyOpenEscrow())) {
                for (Transaction tx : core.storage.allTransactions()) {
                    if (tx.status() == TransactionStatus.PENDING_CO_SIGN) {
                        core.payments.reject(tx.orgId(), tx.id(), "end of the run", TestCoSigner.APPROVER).value();
                    }
                }
                core.settlement.recover(Duration.ZERO, 1000);
                for (Escrow escrow : core.storage.allEscrows()) {
                    if (escrow.status() == EscrowStatus.DISPUTED) {
                        core.escrows.resolve(escrow.orgId(), escrow.id(), EscrowCommand.Outcome.REFUND);
                    }
                }
                core.escrows.refundTimedOut(1000);
                rounds++;
            }
            System.out.println("SimServiceFaultTest: operations " + operations + "; settling rounds " + rounds
                    + "; " + summary() + "; administrative instructions the ledger did not confirm: "
                    + ledgerRefusedAdmin.size());
        }

        void assertEverythingEndedAndTheBooksMatchTheChain() {
            List<Transaction> transactions = core.storage.allTransactions();
            SoftAssertions softly = new SoftAssertions();
            String run = " (seed " + seed + ")";

            softly.assertThat(transactions).as("transactions still open" + run)
                    .filteredOn(tx -> !tx.status().isTerminal())
                    .extracting(tx -> tx.type() + " " + tx.id() + " " + tx.status() + " " + tx.amount()
                            + tx.escrowId().map(e -> " of " + e + " " + escrowOf(e).status()).orElse("")
                            + "; the ledger last answered " + ledger.lastAnswer(tx.id().value()).map(Object::toString)
                            .orElse("nothing"))
                    .isEmpty();
            softly.assertThat(transactions).as("the ledger's faults failed some transactions" + run)
                    .anySatisfy(tx -> assertThat(tx.failureReason()).hasValueSatisfying(
                            reason -> assertThat(reason).startsWith("ledger_unavailable")))
                    .anySatisfy(tx -> assertThat(tx.failureReason()).hasValueSatisfying(
                            reason -> assertThat(reason).startsWith("transaction_expired")))
                    .anySatisfy(tx -> assertThat(tx.status()).isEqualTo(TransactionStatus.CONFIRMED));
            if (escrows) {
                softly.assertThat(core.storage.allEscrows()).as("escrows still open" + run)
                        .filteredOn(escrow -> !escrow.status().isTerminal())
                        .extracting(escrow -> escrow.id() + " " + escrow.status()).isEmpty();
            }

            // A failed transaction gave back its money and its place in the caps.
            for (Transaction tx : transactions) {
                if (tx.status() == TransactionStatus.FAILED && tx.type().countsTowardCaps()) {
                    softly.assertThat(core.storage.spendsOf(tx.walletId())).as("spends of %s after %s failed%s",
                            tx.walletId(), tx.id(), run).extracting(SpendEntry::txId).doesNotContain(tx.id());
                }
            }

            // The books are the chain.
            LedgerPort chain = ledger.current();
            for (Wallet wallet : core.storage.allWallets()) {
                softly.assertThat(chain.balance(new LedgerAccount.Wallet(wallet.address())))
                        .as("chain balance of wallet %s%s", wallet.id(), run).isEqualTo(wallet.balance());
            }
            for (Organisation org : core.storage.allOrganisations()) {
                softly.assertThat(chain.balance(new LedgerAccount.Treasury(org.id())))
                        .as("chain treasury of %s%s", org.id(), run).isEqualTo(org.balance());
            }
            for (Escrow escrow : core.storage.allEscrows()) {
                LedgerAccount vault = new LedgerAccount.Vault(escrow.id(), addressOf(escrow.fromWallet()));
                softly.assertThat(chain.balance(vault))
                        .as("chain vault of %s, %s%s", escrow.id(), escrow.status(), run)
                        .isEqualTo(escrow.status().isTerminal() && !payoutPending(escrow) ? Usdc.ZERO : escrow.amount());
            }

            // And no money appeared or vanished: what was deposited is in the books, in flight, or paid out.
            long inFlight = transactions.stream().filter(tx -> tx.status() == TransactionStatus.PENDING)
                    .filter(tx -> tx.type() == TransactionType.ESCROW_RELEASE || tx.type() == TransactionType.ESCROW_REFUND)
                    .mapToLong(tx -> tx.amount().micros()).sum();
            long inTheBooks = inFlight + core.storage.allOrganisations().stream().mapToLong(o -> o.balance().micros()).sum()
                    + core.storage.allWallets().stream().mapToLong(w -> w.balance().micros()).sum()
                    + core.storage.allEscrows().stream().filter(e -> !e.status().isTerminal())
                    .mapToLong(e -> e.amount().micros()).sum();
            long paidOut = externals.stream()
                    .mapToLong(address -> chain.balance(new LedgerAccount.Wallet(new LedgerAddress(address))).micros())
                    .sum();
            softly.assertThat(inTheBooks + paidOut).as("deposited = books + paid out" + run).isEqualTo(depositedMicros);
            softly.assertThat(paidOut).as("paid out on the chain = confirmed payouts in the books" + run)
                    .isEqualTo(confirmedPayoutsToExternals(transactions));
            softly.assertAll();
        }

        private long confirmedPayoutsToExternals(List<Transaction> transactions) {
            return transactions.stream()
                    .filter(tx -> tx.status() == TransactionStatus.CONFIRMED)
                    .filter(tx -> tx.type() == TransactionType.PAYMENT || tx.type() == TransactionType.ESCROW_RELEASE)
                    .filter(tx -> externals.contains(tx.recipient()))
                    .mapToLong(tx -> tx.amount().micros())
                    .sum();
        }

        private String summary() {
            Map<String, Long> statuses = core.storage.allTransactions().stream().collect(Collectors.groupingBy(
                    tx -> tx.type().wireName() + ":" + tx.status().wireName()
                            + tx.failureReason().filter(r -> r.contains(":"))
                            .map(r -> "(" + r.substring(0, r.indexOf(':')) + ")").orElse(""),
                    TreeMap::new, Collectors.counting()));
            Map<EscrowStatus, Long> escrowStatuses = core.storage.allEscrows().stream()
                    .collect(Collectors.groupingBy(Escrow::status, TreeMap::new, Collectors.counting()));
            return "transactions " + statuses + "; escrows " + escrowStatuses;
        }

        private boolean payoutPending(Escrow escrow) {
            return escrow.settleTx().flatMap(id -> core.storage.allTransactions().stream()
                    .filter(tx -> tx.id().equals(id)).findFirst())
                    .filter(tx -> tx.status() == TransactionStatus.PENDING).isPresent();
        }

        private boolean anyOpenEscrow() {
            return core.storage.allEscrows().stream().anyMatch(escrow -> !escrow.status().isTerminal());
        }

        private boolean anyPending() {
            return core.storage.allTransactions().stream().anyMatch(tx -> tx.status() == TransactionStatus.PENDING);
        }

        private LedgerAddress addressOf(WalletId id) {
            return core.storage.allWallets().stream().filter(w -> w.id().equals(id)).findFirst().orElseThrow()
                    .address();
        }

        private Escrow escrowOf(EscrowId id) {
            return core.storage.allEscrows().stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow();
        }

        private Optional<Escrow> anyEscrow(EscrowStatus status) {
            List<Escrow> matching = core.storage.allEscrows().stream()
                    .filter(e -> e.status() == status && core.clock.instant().isBefore(e.timeoutAt())).toList();
            return matching.isEmpty() ? Optional.empty() : Optional.of(pick(matching));
        }

        private WalletRef other(WalletRef wallet) {
            WalletRef other;
            do {
                other = pick(wallets);
            } while (other == wallet);
            return other;
        }

        private <T> T pick(List<T> items) {
            return items.get(random.nextInt(items.size()));
        }

        private void count(String operation, String outcome) {
            operations.merge(operation + " -> " + outcome, 1, Integer::sum);
        }
    }

    private record OrgRef(OrgId id, TestCoSigner signer) {
    }

    private record WalletRef(OrgRef org, CreatedWallet created) {
        WalletId id() {
            return created.wallet().id();
        }

        LedgerAddress address() {
            return created.wallet().address();
        }
    }
}
