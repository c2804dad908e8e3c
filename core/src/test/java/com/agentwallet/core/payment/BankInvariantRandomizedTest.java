package com.agentwallet.core.payment;

import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.common.FieldUpdate;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowCommand;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.escrow.Proof;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.policy.CreatePolicy;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.core.policy.SpendSummary;
import com.agentwallet.core.policy.SpendWindow;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.testing.Soak;
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.testing.TestSeed;
import com.agentwallet.core.wallet.AutoTopup;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.Funding;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;
import com.agentwallet.core.wallet.WalletUpdate;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Thousands of random operations on two organisations' wallets, with the ledger refusing or not
 * answering some instructions, and the books checked after every one of them:
 * <ul>
 *     <li>money is conserved: organisations + wallets + open escrows + money in flight + money paid
 *     out to outside recipients equals what was deposited, to the micro;</li>
 *     <li>every wallet's rolling totals equal a recomputation from its history and stay within its caps;</li>
 *     <li>a refused request changes no balance, escrow or transaction; ended transactions and escrows never change;</li>
 *     <li>at the end, once everything is settled, the ledger holds what the books say.</li>
 * </ul>
 * The seed is fixed and printed ({@link TestSeed}); 4,000 steps, 40,000 under {@code -Psoak}
 * ({@link Soak}), or {@code -Dbank.steps=<n>}.
 */
class BankInvariantRandomizedTest {
    private static final long STEPS = Soak.length("bank.steps", 4000, 40_000);

    @Test
    void theBooksBalanceAndTheCapsHoldThroughRandomOperationsAndLedgerFaults() {
        Bank bank = new Bank(TestSeed.of("BankInvariantRandomizedTest (" + STEPS + " steps)", 20_260_401L));

        for (int step = 1; step <= STEPS; step++) {
            bank.step(step);
        }
        bank.settleEverything();

        bank.assertLedgerAgreesWithBooks();
        System.out.println("BankInvariantRandomizedTest: " + bank.summary());
    }

    /** The system under test, the operations the test drives it with, and the invariants it checks. */
    private static final class Bank {
        private static final Duration LONG_SESSION = Duration.ofDays(30);
        private static final Duration MAX_CLOCK_STEP = Duration.ofDays(4);
        private static final String GAMBLING = "gambling";

        private final long seed;
        private final CoreFixture core;
        private final Random random;
        private final Random faultDice;
        private final List<OrgState> orgs = new ArrayList<>();
        private final List<WalletRef> wallets = new ArrayList<>();
        private final List<String> externals = new ArrayList<>();
        private final Map<EscrowId, Optional<String>> expectedProofs = new HashMap<>();
        private final List<KeyUse> keyUses = new ArrayList<>();
        private final Map<TxId, TransactionStatus> seenTxStatus = new HashMap<>();
        private final Map<EscrowId, EscrowStatus> seenEscrowStatus = new HashMap<>();
        private final Map<String, Integer> operationCounts = new LinkedHashMap<>();
        private final Map<String, Map<String, Integer>> outcomes = new TreeMap<>();
        private final Deque<String> recent = new ArrayDeque<>();
        private String currentOperation = "";
        private long depositedMicros;
        private int proofCounter;
        private FaultMode faults = FaultMode.NORMAL;

        private record OrgState(OrgId id, TestCoSigner signer) {
        }

        private static final class WalletRef {
            final OrgState org;
            final WalletId id;
            final String address;
            final PolicyRules rules;
            SessionGrant session;

            WalletRef(OrgState org, WalletId id, String address, PolicyRules rules, SessionGrant session) {
                this.org = org;
                this.id = id;
                this.address = address;
                this.rules = rules;
                this.session = session;
            }
        }

        /** A payment sent with an idempotency key, and what it answered first. */
        private record KeyUse(PayCommand command, Result<PaymentResult> first, Instant at) {
        }

        /**
         * Which instructions moving money the ledger refuses or leaves unanswered. Payouts from an
         * escrow vault are never refused (the fake ledger would repeat a refusal forever, where the
         * program refuses them only while the vault is short); they can go unanswered.
         */
        private enum FaultMode {
            NORMAL(false, false), REFUSING(true, false), SILENT(false, true), BOTH(true, true);

            final boolean refuses;
            final boolean silent;

            FaultMode(boolean refuses, boolean silent) {
                this.refuses = refuses;
                this.silent = silent;
            }
        }

        Bank(long seed) {
            this.seed = seed;
            this.core = new CoreFixture(seed);
            this.random = new Random(seed);
            this.faultDice = new Random(seed ^ 0x5DEECE66DL);
            for (int i = 0; i < 4; i++) {
                externals.add(Addresses.external("merchant-" + i));
            }
            for (int i = 0; i < 2; i++) {
                orgs.add(organisation(i));
            }
            useFaults(FaultMode.NORMAL);
            checkInvariants();
        }

        private OrgState organisation(int index) {
            OrgState org = new OrgState(core.organisations.create("Org " + index).id(), new TestCoSigner(100 + index));
            deposit(org, Usdc.ofWhole(20_000));
            core.policies.categorise(org.id(), externals.get(3), GAMBLING);
            List<PolicyRules> policies = List.of(
                    rules().maxPerTx("300").maxPerDay("800").maxPerMonth("4000").velocityCap(6)
                            .coSignAtOrAbove("200", org.signer()).build(),
                    rules().maxPerTx("1000").maxPerDay("2500").velocityCap(20).blockedCategories(GAMBLING).build(),
                    rules().maxPerMonth("6000").velocityCap(10).coSignAtOrAbove("500", org.signer()).build());
            for (int w = 0; w < policies.size(); w++) {
                PolicyRules policyRules = policies.get(w);
                Policy policy = core.policies.create(new CreatePolicy(org.id(), "Policy " + w, policyRules,
                        Scenario.ADMIN), RequestKey.none()).value();
                var created = core.wallets.create(new CreateWallet(org.id(), "agent-" + index + "-" + w, "label",
                        policy.id(), List.of(), Optional.of(LONG_SESSION)), RequestKey.none()).value();
                WalletRef wallet = new WalletRef(org, created.wallet().id(), created.wallet().address().base58(),
                        policyRules, created.session());
                wallets.add(wallet);
                core.wallets.fund(org.id(), wallet.id, Usdc.ofWhole(500 + 750L * w), RequestKey.none()).value();
            }
            core.wallets.setAutoTopup(org.id(), wallets.get(wallets.size() - 1).id,
                    Optional.of(new AutoTopup(true, Usdc.ofWhole(100), Usdc.ofWhole(300)))).value();
            return org;
        }

        // ---------------------------------------------------------------- driving

        void step(int step) {
            Operation operation = randomOperation();
            remember(step + ": " + operation.name());
            currentOperation = operation.name();
            try {
                String outcome = operation.run().get();
                operationCounts.merge(operation.name(), 1, Integer::sum);
                recent.removeLast();
                remember(step + ": " + outcome);
                checkInvariants();
            } catch (AssertionError | RuntimeException failure) {
                throw new AssertionError("Step " + step + " (" + operation.name() + ") failed with seed " + seed
                        + "\nrecent operations:\n  " + String.join("\n  ", recent) + "\n" + failure, failure);
            }
        }

        private record Operation(String name, Supplier<String> run) {
        }

        /** The operations and their relative weights. */
        private final List<Map.Entry<Integer, Operation>> operations = List.of(
                Map.entry(330, new Operation("pay", this::pay)),
                Map.entry(30, new Operation("replay", this::replay)),
                Map.entry(10, new Operation("conflicting key", this::conflictingKey)),
                Map.entry(50, new Operation("co-sign", this::coSign)),
                Map.entry(25, new Operation("reject co-sign", this::rejectCoSign)),
                Map.entry(25, new Operation("expire co-signs", this::expireCoSigns)),
                Map.entry(90, new Operation("lock escrow", this::lockEscrow)),
                Map.entry(50, new Operation("complete escrow", this::completeEscrow)),
                Map.entry(20, new Operation("dispute escrow", this::disputeEscrow)),
                Map.entry(25, new Operation("resolve escrow", this::resolveEscrow)),
                Map.entry(25, new Operation("refund timed-out escrows", this::refundTimedOut)),
                Map.entry(30, new Operation("withdraw", this::withdraw)),
                Map.entry(50, new Operation("fund", this::fund)),
                Map.entry(25, new Operation("fund batch", this::fundBatch)),
                Map.entry(10, new Operation("freeze", () -> setStatus(WalletStatus.ACTIVE, WalletStatus.FROZEN))),
                Map.entry(20, new Operation("unfreeze", () -> setStatus(WalletStatus.FROZEN, WalletStatus.ACTIVE))),
                Map.entry(100, new Operation("advance clock", this::advanceClock)),
                Map.entry(30, new Operation("ledger faults", this::toggleFaults)),
                Map.entry(40, new Operation("recover", this::recover)),
                Map.entry(3, new Operation("archive", this::archive)),
                Map.entry(10, new Operation("deposit", this::depositSome)));

        private Operation randomOperation() {
            int roll = random.nextInt(operations.stream().mapToInt(Map.Entry::getKey).sum());
            for (Map.Entry<Integer, Operation> entry : operations) {
                roll -= entry.getKey();
                if (roll < 0) {
                    return entry.getValue();
                }
            }
            throw new IllegalStateException("weights do not add up");
        }

        // ---------------------------------------------------------------- operations

        private String pay() {
            WalletRef from = pickSender();
            String to = random.nextInt(10) < 6 ? pick(externals) : other(from).address;
            Optional<SessionGrant> session = random.nextInt(40) == 0 ? Optional.empty() : Optional.of(liveSession(from));
            Optional<String> key = random.nextInt(5) == 0 ? Optional.of("key-" + random.nextInt(1_000_000)) : Optional.empty();
            PayCommand command = new PayCommand(from.org.id(), from.id, to, randomAmount(), Optional.empty(), key,
                    random.nextInt(20) == 0, session, Optional.empty());
            Result<PaymentResult> result = unchangedIfRefused(() -> core.payments.pay(command));
            if (key.isPresent() && !isReplayOfLiveKey(command)) {
                keyUses.add(new KeyUse(command, result, core.clock.instant()));
            }
            return describe(command) + " -> " + outcome(result.map(r -> r.transaction().status()));
        }

        /** The same request with the same key, within the key's 24 h, answers what the first one did. */
        private String replay() {
            Optional<KeyUse> use = liveRememberedKey();
            if (use.isEmpty()) {
                return "no key to replay";
            }
            PayCommand command = use.get().command();
            Result<PaymentResult> first = use.get().first();
            Result<PaymentResult> again = unchangedIfRefused(() -> core.payments.pay(command));
            if (first.isOk()) {
                assertThat(again.value().replayed()).isTrue();
                assertThat(again.value().transaction().id()).isEqualTo(first.value().transaction().id());
            } else {
                assertThat(again.rejection()).isEqualTo(first.rejection());
            }
            return "replay " + describe(command) + " -> " + outcome(again.map(r -> r.transaction().status()));
        }

        private String conflictingKey() {
            Optional<KeyUse> use = liveRememberedKey();
            if (use.isEmpty()) {
                return "no key to reuse";
            }
            PayCommand first = use.get().command();
            PayCommand different = new PayCommand(first.orgId(), first.walletId(), first.to(),
                    first.amount().plus(Usdc.ofMicros(1)), first.memo(), first.idempotencyKey(), first.coSignIntent(),
                    first.session(), Optional.empty());
            Result<PaymentResult> result = unchangedIfRefused(() -> core.payments.pay(different));
            assertThat(result.rejection()).isInstanceOf(Rejection.IdempotencyConflict.class);
            return "reuse key of " + describe(first) + " with another amount";
        }

        private String coSign() {
            Optional<Transaction> held = pickWhere(core.storage.allTransactions(),
                    tx -> tx.status() == TransactionStatus.PENDING_CO_SIGN);
            if (held.isEmpty()) {
                return "nothing to co-sign";
            }
            Transaction tx = held.get();
            boolean impostor = random.nextInt(10) == 0;
            OrgState org = orgOf(tx.orgId());
            TestCoSigner signer = impostor ? orgs.get(1 - orgs.indexOf(org)).signer() : org.signer();
            String signature = signer.sign(tx.coSign().orElseThrow().payload());
            Result<Transaction> result = unchangedIfRefused(() -> core.payments.coSign(tx.orgId(), tx.id(), signature, TestCoSigner.APPROVER));
            if (impostor) {
                assertThat(result.rejection()).isInstanceOf(Rejection.InvalidInput.class);
            } else if (!result.isOk()) {
                assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
            }
            return (impostor ? "impostor co-signs " : "co-sign ") + tx.id() + " -> " + outcome(result.map(Transaction::status));
        }

        private String rejectCoSign() {
            Optional<Transaction> held = pickWhere(core.storage.allTransactions(),
                    tx -> tx.status() == TransactionStatus.PENDING_CO_SIGN);
            if (held.isEmpty()) {
                return "nothing to reject";
            }
            Transaction rejected = core.payments.reject(held.get().orgId(), held.get().id(), "operator said no",
                    TestCoSigner.APPROVER).value();
            assertThat(rejected.status()).isEqualTo(TransactionStatus.REJECTED);
            return "reject " + rejected.id();
        }

        private String expireCoSigns() {
            Instant now = core.clock.instant();
            long due = core.storage.allTransactions().stream()
                    .filter(tx -> tx.status() == TransactionStatus.PENDING_CO_SIGN
                            && !tx.coSign().orElseThrow().expiresAt().isAfter(now))
                    .count();
            int expired = core.payments.expireCoSigns(1000);
            assertThat(expired).isEqualTo(due);
            return "expired " + expired;
        }

        private String lockEscrow() {
            WalletRef from = pickSender();
            String to = random.nextBoolean() ? other(from).id.value() : pick(externals);
            Optional<String> expected = random.nextBoolean() ? Optional.of(newProof()) : Optional.empty();
            long timeoutSeconds = 60 + random.nextInt(3 * 24 * 3600);
            LockEscrow command = new LockEscrow(from.org.id(), from.id, to, randomAmount(), "task", timeoutSeconds,
                    expected, Optional.of(liveSession(from)));
            Result<Escrow> result = unchangedIfRefused(() -> core.escrows.lock(command, RequestKey.none()));
            if (result.isOk()) {
                expectedProofs.put(result.value().id(), expected);
            }
            return "lock " + command.amount() + " from " + from.id + " to " + to + " for " + timeoutSeconds + " s -> "
                    + outcome(result.map(Escrow::status));
        }

        private String completeEscrow() {
            Optional<Escrow> locked = pickWhere(core.storage.allEscrows(), e -> e.status() == EscrowStatus.LOCKED);
            if (locked.isEmpty()) {
                return "nothing to complete";
            }
            Escrow escrow = locked.get();
            Optional<String> expected = expectedProofs.get(escrow.id());
            boolean rightProof = random.nextInt(5) > 0;
            String proof = rightProof && expected.isPresent() ? expected.get() : newProof();
            boolean timedOut = !core.clock.instant().isBefore(escrow.timeoutAt());
            Result<Escrow> result = unchangedIfRefused(() ->
                    core.escrows.complete(Requester.of(escrow.orgId()), escrow.id(), Proof.OUTPUT_HASH, proof));
            if (timedOut || lockPending(escrow)) {
                assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
            } else if (expected.isPresent() && !expected.get().equals(proof)) {
                assertThat(result.rejection()).isInstanceOf(Rejection.ProofMismatch.class);
            } else {
                assertThat(result.value().status()).isEqualTo(EscrowStatus.RELEASED);
            }
            return "complete " + escrow.id() + " -> " + outcome(result.map(Escrow::status));
        }

        private String disputeEscrow() {
            Optional<Escrow> locked = pickWhere(core.storage.allEscrows(), e -> e.status() == EscrowStatus.LOCKED);
            if (locked.isEmpty()) {
                return "nothing to dispute";
            }
            Escrow escrow = locked.get();
            boolean timedOut = !core.clock.instant().isBefore(escrow.timeoutAt());
            Result<Escrow> result = unchangedIfRefused(() ->
                    core.escrows.dispute(Requester.of(escrow.orgId()), escrow.id(), "not delivered", newProof()));
            if (timedOut || lockPending(escrow)) {
                assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
            } else {
                assertThat(result.value().status()).isEqualTo(EscrowStatus.DISPUTED);
            }
            return "dispute " + escrow.id() + " -> " + outcome(result.map(Escrow::status));
        }

        /** Whether the ledger has yet to answer the escrow's lock: until it does, the escrow cannot move on. */
        private boolean lockPending(Escrow escrow) {
            return core.storage.allTransactions().stream()
                    .anyMatch(tx -> tx.id().equals(escrow.lockTx()) && tx.status() == TransactionStatus.PENDING);
        }

        private String resolveEscrow() {
            Optional<Escrow> disputed = pickWhere(core.storage.allEscrows(), e -> e.status() == EscrowStatus.DISPUTED);
            if (disputed.isEmpty()) {
                return "nothing to resolve";
            }
            EscrowCommand.Outcome outcome = random.nextBoolean() ? EscrowCommand.Outcome.RELEASE : EscrowCommand.Outcome.REFUND;
            Escrow resolved = core.escrows.resolve(disputed.get().orgId(), disputed.get().id(), outcome).value();
            assertThat(resolved.status()).isEqualTo(outcome == EscrowCommand.Outcome.RELEASE
                    ? EscrowStatus.RELEASED : EscrowStatus.REFUNDED);
            return "resolve " + resolved.id() + " with " + outcome;
        }

        private String refundTimedOut() {
            Instant now = core.clock.instant();
            long due = core.storage.allEscrows().stream()
                    .filter(e -> e.status() == EscrowStatus.LOCKED && !e.timeoutAt().isAfter(now) && !lockPending(e))
                    .count();
            int refunded = core.escrows.refundTimedOut(1000);
            assertThat(refunded).isEqualTo(due);
            return "refunded " + refunded + " timed-out escrows";
        }

        private String withdraw() {
            WalletRef wallet = pickSender();
            Optional<Usdc> amount = random.nextBoolean() ? Optional.empty() : Optional.of(randomAmount());
            Result<Wallet> result = unchangedIfRefused(() -> core.wallets.withdraw(wallet.org.id(), wallet.id, amount, RequestKey.none()));
            return "withdraw " + amount.map(Usdc::toString).orElse("all") + " from " + wallet.id + " -> "
                    + outcome(result.map(Wallet::balance));
        }

        private String fund() {
            WalletRef wallet = pickSender();
            Usdc amount = Usdc.ofMicros(1 + random.nextInt(2_000_000_000));
            Result<Wallet> result = unchangedIfRefused(() -> core.wallets.fund(wallet.org.id(), wallet.id, amount, RequestKey.none()));
            return "fund " + wallet.id + " with " + amount + " -> " + outcome(result.map(Wallet::balance));
        }

        private String fundBatch() {
            OrgState org = pick(orgs);
            List<WalletRef> candidates = new ArrayList<>(wallets.stream().filter(w -> w.org == org).toList());
            Collections.shuffle(candidates, random);
            List<Funding> lines = candidates.subList(0, 2 + random.nextInt(candidates.size() - 1)).stream()
                    .map(w -> new Funding(w.id, Usdc.ofMicros(1 + random.nextInt(2_000_000_000))))
                    .toList();
            Result<List<Wallet>> result = unchangedIfRefused(() -> core.wallets.fundBatch(org.id(), lines, RequestKey.none()));
            return "fund batch of " + lines.size() + " in " + org.id() + " -> " + outcome(result.map(List::size));
        }

        /** Moves a wallet in status {@code from} to {@code to}; now and then tries it on an archived wallet. */
        private String setStatus(WalletStatus from, WalletStatus to) {
            WalletStatus wanted = random.nextInt(10) == 0 ? WalletStatus.ARCHIVED : from;
            List<WalletRef> candidates = wallets.stream().filter(w -> statusOf(w) == wanted).toList();
            if (candidates.isEmpty()) {
                return "no " + wanted + " wallet";
            }
            WalletRef wallet = pick(candidates);
            Result<Wallet> result = unchangedIfRefused(() -> core.wallets.update(wallet.org.id(), wallet.id,
                    new WalletUpdate(FieldUpdate.keep(), FieldUpdate.keep(), Optional.of(to))));
            assertThat(result.isOk()).isEqualTo(wanted != WalletStatus.ARCHIVED);
            return "set " + wallet.id + " " + to + " -> " + outcome(result.map(Wallet::status));
        }

        /** Log-uniform between one second and four days: many small steps, some that cross every window. */
        private String advanceClock() {
            double logMax = Math.log(MAX_CLOCK_STEP.toMillis() / 1000.0);
            long millis = Math.round(Math.exp(random.nextDouble() * logMax) * 1000);
            core.clock.advance(Duration.ofMillis(millis));
            return "advance " + Duration.ofMillis(millis);
        }

        private String toggleFaults() {
            useFaults(FaultMode.values()[random.nextInt(FaultMode.values().length)]);
            return "ledger " + faults;
        }

        private String recover() {
            if (random.nextInt(3) == 0) {
                useFaults(FaultMode.NORMAL);
            }
            int resubmitted = core.settlement.recover(Duration.ZERO, 1000);
            return "recover " + resubmitted + " under " + faults;
        }

        private String archive() {
            long open = wallets.stream().filter(w -> statusOf(w) != WalletStatus.ARCHIVED).count();
            if (open <= 5) {
                return "keep the remaining wallets";
            }
            WalletRef wallet = pick(wallets);
            Result<Wallet> result = unchangedIfRefused(() -> core.wallets.archive(wallet.org.id(), wallet.id));
            return "archive " + wallet.id + " -> " + outcome(result.map(Wallet::status));
        }

        private String depositSome() {
            OrgState org = pick(orgs);
            Usdc amount = Usdc.ofMicros(100_000_000L + random.nextInt(2_000_000_000));
            deposit(org, amount);
            return "deposit " + amount + " to " + org.id();
        }

        private void deposit(OrgState org, Usdc amount) {
            core.organisations.deposit(org.id(), amount).value();
            depositedMicros += amount.micros();
        }

        // ---------------------------------------------------------------- invariants

        /** Runs {@code request}; when it is refused, asserts that no balance, escrow or money-moving transaction changed. */
        private <T> Result<T> unchangedIfRefused(Supplier<Result<T>> request) {
            Map<String, Object> before = moneySnapshot();
            Result<T> result = request.get();
            if (!result.isOk()) {
                assertThat(moneySnapshot()).as("a request refused with %s changed money", result.rejection())
                        .isEqualTo(before);
            }
            return result;
        }

        private Map<String, Object> moneySnapshot() {
            Map<String, Object> snapshot = new HashMap<>();
            core.storage.allOrganisations().forEach(o -> snapshot.put(o.id().value(), o.balance()));
            core.storage.allWallets().forEach(w -> snapshot.put(w.id().value(), w.balance() + " " + w.status()));
            core.storage.allEscrows().forEach(e -> snapshot.put(e.id().value(), e.status()));
            core.storage.allTransactions().stream()
                    .filter(tx -> tx.status() != TransactionStatus.BLOCKED)
                    .forEach(tx -> snapshot.put(tx.id().value(), tx.status()));
            return snapshot;
        }

        void checkInvariants() {
            List<Organisation> organisations = core.storage.allOrganisations();
            List<Wallet> allWallets = core.storage.allWallets();
            List<Escrow> escrows = core.storage.allEscrows();
            List<Transaction> transactions = core.storage.allTransactions();
            assertNoNegativeBalance(organisations, allWallets);
            assertMoneyIsConserved(organisations, allWallets, escrows, transactions);
            assertSpendTotalsMatchHistoryAndCaps(allWallets, escrows, transactions);
            assertEndedThingsStayEnded(escrows, transactions);
        }

        private static void assertNoNegativeBalance(List<Organisation> organisations, List<Wallet> allWallets) {
            organisations.forEach(o -> assertThat(o.balance().micros()).as("balance of %s", o.id()).isNotNegative());
            allWallets.forEach(w -> assertThat(w.balance().micros()).as("balance of %s", w.id()).isNotNegative());
        }

        private void assertMoneyIsConserved(List<Organisation> organisations, List<Wallet> allWallets,
                                            List<Escrow> escrows, List<Transaction> transactions) {
            long inOrganisations = organisations.stream().mapToLong(o -> o.balance().micros()).sum();
            long inWallets = allWallets.stream().mapToLong(w -> w.balance().micros()).sum();
            long inEscrows = escrows.stream().filter(e -> !e.status().isTerminal()).mapToLong(e -> e.amount().micros()).sum();
            long inFlight = transactions.stream().filter(Bank::holdsMoneyInFlight).mapToLong(tx -> tx.amount().micros()).sum();
            long paidOut = paidOutMicros(allWallets, transactions);
            assertThat(inOrganisations + inWallets + inEscrows + inFlight + paidOut)
                    .as("organisations %d + wallets %d + open escrows %d + in flight %d + paid out %d vs deposits",
                            inOrganisations, inWallets, inEscrows, inFlight, paidOut)
                    .isEqualTo(depositedMicros);
        }

        /** Pending or awaiting co-signature; a pending lock's amount is already counted by its escrow. */
        private static boolean holdsMoneyInFlight(Transaction tx) {
            boolean open = tx.status() == TransactionStatus.PENDING || tx.status() == TransactionStatus.PENDING_CO_SIGN;
            return open && tx.type() != TransactionType.ESCROW_LOCK;
        }

        private static long paidOutMicros(List<Wallet> allWallets, List<Transaction> transactions) {
            Set<String> walletAddresses = allWallets.stream().map(w -> w.address().base58()).collect(Collectors.toSet());
            return transactions.stream()
                    .filter(tx -> tx.status() == TransactionStatus.CONFIRMED)
                    .filter(tx -> tx.type() == TransactionType.PAYMENT || tx.type() == TransactionType.ESCROW_RELEASE)
                    .filter(tx -> !walletAddresses.contains(tx.recipient()))
                    .mapToLong(tx -> tx.amount().micros())
                    .sum();
        }

        private void assertSpendTotalsMatchHistoryAndCaps(List<Wallet> allWallets, List<Escrow> escrows,
                                                          List<Transaction> transactions) {
            Instant now = core.clock.instant();
            Map<EscrowId, EscrowStatus> escrowStatus = escrows.stream()
                    .collect(Collectors.toMap(Escrow::id, Escrow::status));
            Map<WalletId, List<Transaction>> spendsByWallet = transactions.stream()
                    .filter(tx -> countsTowardCaps(tx, escrowStatus))
                    .collect(Collectors.groupingBy(Transaction::walletId));
            for (Wallet wallet : allWallets) {
                SpendSummary summary = wallet.spend().advanceTo(now, core.storage.spendsOf(wallet.id()));
                List<Transaction> spends = spendsByWallet.getOrDefault(wallet.id(), List.of());
                long day = sumWithin(spends, now, SpendWindow.DAY);
                long month = sumWithin(spends, now, SpendWindow.MONTH);
                long hourCount = spends.stream().filter(tx -> isWithin(tx, now, SpendWindow.HOUR)).count();
                String who = "spend of " + wallet.id();
                assertThat(summary.day().micros()).as(who + " in the day").isEqualTo(day);
                assertThat(summary.month().micros()).as(who + " in the month").isEqualTo(month);
                assertThat((long) summary.hourCount()).as(who + " in the hour").isEqualTo(hourCount);
                PolicyRules caps = refOf(wallet.id()).rules;
                caps.maxPerDay().ifPresent(cap -> assertThat(day).as(who + " vs max_per_day").isLessThanOrEqualTo(cap.micros()));
                caps.maxPerMonth().ifPresent(cap -> assertThat(month).as(who + " vs max_per_month").isLessThanOrEqualTo(cap.micros()));
                caps.velocityCap().ifPresent(cap -> assertThat(hourCount).as(who + " vs velocity_cap").isLessThanOrEqualTo(cap));
            }
        }

        /** Payments that hold or moved money, and escrow locks (pending or done) whose escrow was not refunded. */
        private static boolean countsTowardCaps(Transaction tx, Map<EscrowId, EscrowStatus> escrowStatus) {
            if (tx.type() == TransactionType.PAYMENT) {
                return tx.status().holdsFunds();
            }
            if (tx.type() == TransactionType.ESCROW_LOCK) {
                boolean lockStands = tx.status() == TransactionStatus.PENDING || tx.status() == TransactionStatus.CONFIRMED;
                return lockStands && tx.escrowId().map(escrowStatus::get)
                        .filter(status -> status != EscrowStatus.REFUNDED).isPresent();
            }
            return false;
        }

        private static long sumWithin(List<Transaction> spends, Instant now, SpendWindow window) {
            return spends.stream().filter(tx -> isWithin(tx, now, window)).mapToLong(tx -> tx.amount().micros()).sum();
        }

        /** A spend exactly one window length old has left the window. */
        private static boolean isWithin(Transaction tx, Instant now, SpendWindow window) {
            return tx.createdAt().isAfter(now.minus(window.length()));
        }

        private void assertEndedThingsStayEnded(List<Escrow> escrows, List<Transaction> transactions) {
            for (Transaction tx : transactions) {
                TransactionStatus before = seenTxStatus.put(tx.id(), tx.status());
                if (before != null && before.isTerminal()) {
                    assertThat(tx.status()).as("ended transaction %s", tx.id()).isEqualTo(before);
                }
            }
            for (Escrow escrow : escrows) {
                EscrowStatus before = seenEscrowStatus.put(escrow.id(), escrow.status());
                if (before != null && before.isTerminal()) {
                    assertThat(escrow.status()).as("settled escrow %s", escrow.id()).isEqualTo(before);
                }
            }
        }

        // ---------------------------------------------------------------- the end

        /** Lets the ledger answer everything, ends the payments still waiting for a co-signature, and recovers. */
        void settleEverything() {
            try {
                useFaults(FaultMode.NORMAL);
                for (Transaction tx : core.storage.allTransactions()) {
                    if (tx.status() == TransactionStatus.PENDING_CO_SIGN) {
                        core.payments.reject(tx.orgId(), tx.id(), "end of the run", TestCoSigner.APPROVER).value();
                    }
                }
                for (int round = 0; round < 10 && anyPending(); round++) {
                    core.settlement.recover(Duration.ZERO, 1000);
                }
                checkInvariants();
                assertThat(core.storage.allTransactions()).filteredOn(tx -> !tx.status().isTerminal())
                        .as("transactions still open after recovery").isEmpty();
            } catch (AssertionError | RuntimeException failure) {
                throw new AssertionError("Settling at the end failed with seed " + seed
                        + "\nrecent operations:\n  " + String.join("\n  ", recent) + "\n" + failure, failure);
            }
        }

        void assertLedgerAgreesWithBooks() {
            for (Wallet wallet : core.storage.allWallets()) {
                assertThat(core.ledger.balanceOf(wallet.address().base58()))
                        .as("ledger balance of %s (seed %d)", wallet.id(), seed).isEqualTo(wallet.balance().micros());
            }
            for (Organisation org : core.storage.allOrganisations()) {
                assertThat(core.ledger.balanceOf(FakeLedger.treasury(org.id())))
                        .as("ledger treasury of %s (seed %d)", org.id(), seed).isEqualTo(org.balance().micros());
            }
            for (Escrow escrow : core.storage.allEscrows()) {
                long expected = escrow.status().isTerminal() ? 0 : escrow.amount().micros();
                assertThat(core.ledger.balanceOf("vault:" + escrow.id().value()))
                        .as("vault of %s, %s (seed %d)", escrow.id(), escrow.status(), seed).isEqualTo(expected);
            }
            long paidOutOnLedger = externals.stream().mapToLong(core.ledger::balanceOf).sum();
            assertThat(paidOutOnLedger).as("paid out (seed %d)", seed)
                    .isEqualTo(paidOutMicros(core.storage.allWallets(), core.storage.allTransactions()));
        }

        String summary() {
            Map<TransactionStatus, Long> statuses = core.storage.allTransactions().stream()
                    .collect(Collectors.groupingBy(Transaction::status, TreeMap::new, Collectors.counting()));
            Map<EscrowStatus, Long> escrows = core.storage.allEscrows().stream()
                    .collect(Collectors.groupingBy(Escrow::status, TreeMap::new, Collectors.counting()));
            return "operations " + operationCounts + "; outcomes " + outcomes + "; transactions " + statuses + "; escrows " + escrows
                    + "; clock " + core.clock.instant();
        }

        // ---------------------------------------------------------------- helpers

        private void useFaults(FaultMode mode) {
            faults = mode;
            core.ledger.rejectWhen(i -> mode.refuses && movesMoney(i) && !isVaultPayout(i) && faultDice.nextInt(3) == 0);
            core.ledger.leaveUnansweredWhen(i -> core.ledger.vaultCannotCover(i)
                    || (mode.silent && movesMoney(i) && faultDice.nextInt(2) == 0));
        }

        private static boolean movesMoney(LedgerInstruction instruction) {
            return instruction instanceof LedgerInstruction.Pay || instruction instanceof LedgerInstruction.Fund
                    || instruction instanceof LedgerInstruction.Withdraw || instruction instanceof LedgerInstruction.EscrowLock
                    || isVaultPayout(instruction);
        }

        private static boolean isVaultPayout(LedgerInstruction instruction) {
            return instruction instanceof LedgerInstruction.EscrowRelease || instruction instanceof LedgerInstruction.EscrowRefund;
        }

        private boolean anyPending() {
            return core.storage.allTransactions().stream().anyMatch(tx -> tx.status() == TransactionStatus.PENDING);
        }

        /** The wallet's session, renewed for 30 days once it is about to expire (when the wallet still allows it). */
        private SessionGrant liveSession(WalletRef wallet) {
            if (!core.clock.instant().plusSeconds(60).isBefore(wallet.session.expiresAt())) {
                core.wallets.rotateSession(wallet.org.id(), wallet.id, Optional.of(LONG_SESSION))
                        .map(grant -> wallet.session = grant);
            }
            return wallet.session;
        }

        /** Mostly small amounts, some near the caps, a few over them, and now and then exactly a cap or threshold. */
        private Usdc randomAmount() {
            int bucket = random.nextInt(20);
            if (bucket == 0) {
                return Usdc.ofWhole(List.of(200L, 300L, 500L, 800L, 1000L).get(random.nextInt(5)));
            }
            if (bucket < 13) {
                return Usdc.ofMicros(10_000 + random.nextInt(100_000_000));
            }
            if (bucket < 18) {
                return Usdc.ofMicros(100_000_000L + random.nextInt(300_000_000));
            }
            return Usdc.ofMicros(400_000_000L + random.nextInt(1_100_000_000));
        }

        private Optional<KeyUse> liveRememberedKey() {
            Instant now = core.clock.instant();
            List<KeyUse> live = keyUses.stream()
                    .filter(use -> now.isBefore(use.at().plus(IdempotencyRecord.RETENTION)))
                    .filter(use -> use.first().isOk() || use.first().rejection() instanceof Rejection.PolicyViolated)
                    .toList();
            return live.isEmpty() ? Optional.empty() : Optional.of(pick(live));
        }

        private boolean isReplayOfLiveKey(PayCommand command) {
            Instant now = core.clock.instant();
            return keyUses.stream().anyMatch(use -> use.command().orgId().equals(command.orgId())
                    && use.command().idempotencyKey().equals(command.idempotencyKey())
                    && now.isBefore(use.at().plus(IdempotencyRecord.RETENTION)));
        }

        private String newProof() {
            return Hashing.sha256Hex("proof-" + proofCounter++);
        }

        /** Mostly a wallet that is not archived, so that most requests get past the status check. */
        private WalletRef pickSender() {
            List<WalletRef> open = wallets.stream().filter(w -> statusOf(w) != WalletStatus.ARCHIVED).toList();
            return random.nextInt(20) == 0 || open.isEmpty() ? pick(wallets) : pick(open);
        }

        private WalletStatus statusOf(WalletRef wallet) {
            return core.wallets.get(wallet.org.id(), wallet.id).value().status();
        }

        private WalletRef other(WalletRef wallet) {
            WalletRef other;
            do {
                other = pick(wallets);
            } while (other == wallet);
            return other;
        }

        private WalletRef refOf(WalletId id) {
            return wallets.stream().filter(w -> w.id.equals(id)).findFirst().orElseThrow();
        }

        private OrgState orgOf(OrgId id) {
            return orgs.stream().filter(o -> o.id().equals(id)).findFirst().orElseThrow();
        }

        private <T> T pick(List<T> items) {
            return items.get(random.nextInt(items.size()));
        }

        private <T> Optional<T> pickWhere(List<T> items, Predicate<T> condition) {
            List<T> matching = items.stream().filter(condition).toList();
            return matching.isEmpty() ? Optional.empty() : Optional.of(pick(matching));
        }

        private void remember(String line) {
            recent.addLast(line);
            if (recent.size() > 25) {
                recent.removeFirst();
            }
        }

        private static String describe(PayCommand command) {
            return "pay " + command.amount() + " from " + command.walletId() + " to " + command.to()
                    + (command.coSignIntent() ? " with co-sign intent" : "")
                    + command.idempotencyKey().map(k -> " key " + k).orElse("")
                    + (command.session().isEmpty() ? " without session" : "");
        }

        /** What a request answered, tallied per operation for the summary. */
        private <T> String outcome(Result<T> result) {
            String answer = result.isOk() ? String.valueOf(result.value()) : result.rejection().getClass().getSimpleName();
            String kind = result.isOk() && result.value() instanceof Usdc ? "ok" : answer;
            outcomes.computeIfAbsent(currentOperation, name -> new TreeMap<>()).merge(kind, 1, Integer::sum);
            return answer;
        }
    }
}
