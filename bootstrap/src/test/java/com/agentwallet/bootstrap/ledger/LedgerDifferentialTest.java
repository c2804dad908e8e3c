package com.agentwallet.bootstrap.ledger;

import com.agentwallet.adapters.solana.Localnet;
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
import com.agentwallet.core.port.LedgerPlugins;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.RulesBuilder;
import com.agentwallet.core.testing.Soak;
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.testing.TestSeed;
import com.agentwallet.core.wallet.WalletStatus;
import com.agentwallet.core.testing.Sequences;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static com.agentwallet.core.testing.RulesBuilder.rules;

/**
 * The differential test of the two ledgers: one seeded random sequence of instructions, run through
 * the simulator ({@code sim}, whose {@code WalletProgram} is the executable model of the on-chain
 * program) and through the Solana adapter, which sends real transactions over JSON-RPC to the real
 * program on localnet. At every step both must take the same decision (confirmed, or rejected with
 * the same code; never unknown), and every ten steps and at the end they must hold the same balance
 * in every account the run has touched: treasuries, wallets, payees and escrow vaults.
 *
 * <p>The seed is fixed and printed ({@link TestSeed}: {@code -Dagentwallet.test.seed=N} plays another
 * sequence) and {@code -Dledger.differential.operations=N} sets its length (1,000; 10,000 under
 * {@code -Psoak}, {@link Soak}); a failure names the seed and the step, so {@code operations} set to
 * that step replays the sequence up to the difference.
 *
 * <p>Cases the two differ in by design (docs/PROGRAM.md, "Differences from the simulator's
 * WalletProgram") are not generated:
 * <ul>
 *   <li>recipients are always ledger addresses: the Solana adapter refuses any other text, which the
 *       simulator compares as a string ("Recipients");</li>
 *   <li>a policy blocks at most a few recipients, far from the program's bound of 64 ("Recipients");</li>
 *   <li>the clock only moves forward: the program's spend windows keep counting a later bucket when
 *       the clock steps back, the simulator's forget it;</li>
 *   <li>every recipient holds a USDC token account on localnet, opened by the test when it first names
 *       the address (payees, bystanders, wallets to come): the Solana adapter refuses to pay an address
 *       without one, while the simulator models every address as holding one (docs/LEDGER.md).</li>
 * </ul>
 * Every other case is generated, including those in which the simulator once differed from the
 * program: it now decides them as the program does.
 */
class LedgerDifferentialTest {

    @TempDir
    Path data;

    @Test
    void theSimulatorAndTheProgramOnLocalnetDecideAlikeAndHoldTheSameBalances() throws Exception {
        long seed = TestSeed.of("LedgerDifferentialTest", 42);
        long operations = Soak.length("ledger.differential.operations", 1000, 10000);
        MutableClock clock = MutableClock.atTestEpoch();
        try (Localnet localnet = Localnet.start()) {
            Both<LedgerPort> ledgers = open(clock, localnet);
            try {
                Differential differential = new Differential(seed, ledgers, new Generator(seed, clock, ledgers.sim(),
                        localnet::openUsdcAccount));
                for (int step = 1; step <= operations; step++) {
                    differential.step(step);
                }
                differential.finish();
                System.out.println(differential.summary());
            } finally {
                ledgers.forEach(LedgerDifferentialTest::close);
            }
        }
    }

    /** The simulator in memory, and the Solana adapter on localnet pushed the same clock before every call. */
    private Both<LedgerPort> open(MutableClock clock, Localnet localnet) throws Exception {
        ClassLoader plugins = getClass().getClassLoader();
        LedgerPort sim = LedgerPlugins.find("sim", plugins)
                .create(new LedgerContext(clock, data.resolve("sim"), Map.of("persist", "false")));
        return new Both<>(sim, localnet.ledger(clock, data.resolve("solana")));
    }

    private static void close(LedgerPort ledger) {
        if (ledger instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("cannot close " + ledger, e);
            }
        }
    }

    // ------------------------------------------------------------------ running and comparing

    /** One thing per ledger: the simulator's and Solana's. */
    record Both<T>(T sim, T solana) {
        <R> Both<R> map(Function<? super T, ? extends R> function) {
            return new Both<>(function.apply(sim), function.apply(solana));
        }

        <U, R> Both<R> with(Both<U> other, BiFunction<? super T, ? super U, ? extends R> function) {
            return new Both<>(function.apply(sim, other.sim), function.apply(solana, other.solana));
        }

        boolean agree() {
            return sim.equals(solana);
        }

        void forEach(Consumer<? super T> action) {
            action.accept(sim);
            action.accept(solana);
        }
    }

    /**
     * A step of the sequence: the instruction each ledger gets (the same one, except that a
     * co-signature is made over each ledger's own co-sign message) and what the generator learns
     * when both ledgers confirm it.
     */
    private record Operation(Function<Both<LedgerPort>, Both<LedgerInstruction>> instructions, Runnable onConfirmed) {
        static Operation of(LedgerInstruction instruction, Runnable onConfirmed) {
            return new Operation(same(instruction), onConfirmed);
        }

        static Operation of(LedgerInstruction instruction) {
            return of(instruction, () -> {
            });
        }

        static Operation of(Function<Both<LedgerPort>, Both<LedgerInstruction>> instructions) {
            return new Operation(instructions, () -> {
            });
        }

        /** The same instruction for both ledgers. */
        static Function<Both<LedgerPort>, Both<LedgerInstruction>> same(LedgerInstruction instruction) {
            return ledgers -> new Both<>(instruction, instruction);
        }
    }

    /** Submits each step to both ledgers and compares decisions and balances; tallies the decisions. */
    private static final class Differential {
        private static final int TRAIL = 15;
        /**
         * Steps between two comparisons of every touched account's balance: each is one read per
         * account and ledger, and the accounts grow with the run, so comparing after every step made
         * the run quadratic. A difference found names the steps since the last agreement (the trail).
         */
        private static final int BALANCES_EVERY = 10;

        private final long seed;
        private final Both<LedgerPort> ledgers;
        private final Generator generator;
        private final Map<String, Both<String>> firstVerdicts = new HashMap<>();
        private final Deque<String> trail = new ArrayDeque<>();
        private final Map<String, Integer> verdicts = new HashMap<>();
        private int steps;

        Differential(long seed, Both<LedgerPort> ledgers, Generator generator) {
            this.seed = seed;
            this.ledgers = ledgers;
            this.generator = generator;
        }

        void step(int step) {
            Operation operation = generator.next();
            Both<LedgerInstruction> instructions = operation.instructions().apply(ledgers);
            Both<LedgerOutcome> outcomes = ledgers.with(instructions, LedgerPort::submit);
            Both<String> verdict = outcomes.map(Differential::verdict);
            String instruction = generator.describe(instructions.sim());
            if (!verdict.agree() || outcomes.sim() instanceof LedgerOutcome.Unknown) {
                throw difference(step, "the ledgers decided differently", instruction, outcomes.map(Differential::explain));
            }
            Both<String> first = firstVerdicts.putIfAbsent(instructions.sim().operationId(), verdict);
            if (first != null && !first.equals(verdict)) {
                throw difference(step, "a resubmission was answered otherwise than its first submission ("
                        + first.sim() + ")", instruction, outcomes.map(Differential::explain));
            }
            if (outcomes.sim() instanceof LedgerOutcome.Confirmed) {
                operation.onConfirmed().run();
            }
            generator.submitted(instructions);
            verdicts.merge(verdict.sim(), 1, Integer::sum);
            remember(step, verdict.sim(), instruction);
            steps = step;
            if (step % BALANCES_EVERY == 0) {
                compareBalances(instruction);
            }
        }

        /** The balances of every account the run has touched, compared after the last step. */
        void finish() {
            if (steps % BALANCES_EVERY != 0) {
                compareBalances(trail.getLast());
            }
        }

        private void compareBalances(String instruction) {
            for (LedgerAccount account : generator.accounts()) {
                Both<Usdc> balances = ledgers.map(ledger -> ledger.balance(account));
                if (!balances.agree()) {
                    throw difference(steps, "the balances of " + generator.describe(account) + " differ (they agreed "
                            + "after step " + (steps - (steps - 1) % BALANCES_EVERY - 1) + ")", instruction,
                            balances.map(Usdc::toString));
                }
            }
        }

        private void remember(int step, String verdict, String instruction) {
            trail.addLast(String.format("%5d  %-24s %s", step, verdict, instruction));
            if (trail.size() > TRAIL) {
                trail.removeFirst();
            }
        }

        private AssertionError difference(int step, String what, String instruction, Both<String> answers) {
            return new AssertionError(String.format("ledger differential: seed %d, step %d: %s%n  %s%n"
                            + "  sim:    %s%n  solana: %s%n  the steps before:%n%s%n"
                            + "  replay: -D" + TestSeed.PROPERTY + "=%d -Dledger.differential.operations=%d",
                    seed, step, what, instruction, answers.sim(), answers.solana(), String.join("\n", trail), seed,
                    step));
        }

        /** {@code ledger differential: seed 42, 400 operations, 0 differences (confirmed 251, rejected: ...)}. */
        String summary() {
            String rejected = verdicts.entrySet().stream().filter(entry -> !entry.getKey().equals("confirmed"))
                    .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                    .map(entry -> entry.getKey() + " " + entry.getValue())
                    .collect(Collectors.joining(", "));
            return String.format("ledger differential: seed %d, %d operations, 0 differences (confirmed %d, rejected: %s)",
                    seed, steps, verdicts.getOrDefault("confirmed", 0), rejected);
        }

        /** The decision: {@code confirmed}, the rejection's code, or {@code unknown}. */
        private static String verdict(LedgerOutcome outcome) {
            if (outcome instanceof LedgerOutcome.Confirmed) {
                return "confirmed";
            }
            return outcome instanceof LedgerOutcome.Rejected rejected ? rejected.code() : "unknown";
        }

        private static String explain(LedgerOutcome outcome) {
            if (outcome instanceof LedgerOutcome.Rejected rejected) {
                return rejected.code() + " (" + rejected.message() + ")";
            }
            return outcome instanceof LedgerOutcome.Unknown unknown ? "unknown (" + unknown.reason() + ")" : "confirmed";
        }
    }

    // ------------------------------------------------------------------ what the generator knows

    private static final class Org {
        final OrgId id;
        final String name;
        final List<Policy> policies = new ArrayList<>();
        int agents;

        Org(OrgId id, String name) {
            this.id = id;
            this.name = name;
        }

        String nextAgent() {
            return "agent-" + (agents + 1);
        }
    }

    /** A policy as the chain holds it: its latest version's rules and blocked recipients. */
    private static final class Policy {
        final Org org;
        final PolicyId id;
        /** The sequence of the write on chain. */
        long sequence;
        PolicyRules rules = PolicyRules.NONE;
        Set<String> blocked = Set.of();

        Policy(Org org, PolicyId id) {
            this.org = org;
            this.id = id;
        }
    }

    private static final class Wallet {
        final Org org;
        final String agent;
        final LedgerAddress address;
        Policy policy;
        WalletStatus status = WalletStatus.ACTIVE;
        /** The version of the session key on chain; -1 before the first. */
        long sessionVersion = -1;
        /** The sequence of the last session key or update on chain. */
        long adminSequence;
        Instant sessionExpiresAt = Instant.EPOCH;

        Wallet(Org org, String agent, LedgerAddress address, Policy policy) {
            this.org = org;
            this.agent = agent;
            this.address = address;
            this.policy = policy;
        }
    }

    private enum EscrowState { ATTEMPTED, LOCKED, DISPUTED, SETTLED }

    private static final class Escrow {
        final EscrowId id;
        final Wallet wallet;
        final String receiver;
        final Usdc amount;
        final Instant deadline;
        final Optional<String> expectedProof;
        EscrowState state = EscrowState.ATTEMPTED;

        Escrow(EscrowId id, Wallet wallet, String receiver, Usdc amount, Instant deadline, Optional<String> expectedProof) {
            this.id = id;
            this.wallet = wallet;
            this.receiver = receiver;
            this.amount = amount;
            this.deadline = deadline;
            this.expectedProof = expectedProof;
        }

        boolean isOpen() {
            return state == EscrowState.LOCKED || state == EscrowState.DISPUTED;
        }
    }

    /** The rules and the blocked recipients of one version of a policy. */
    private record Terms(PolicyRules rules, Set<String> blocked) {
    }

    /** One way to go, with its weight; {@code make} answers empty when the way is closed for now. */
    private record Option<T>(int weight, Supplier<Optional<T>> make) {
    }

    private static <T> Option<T> option(int weight, Supplier<Optional<T>> make) {
        return new Option<>(weight, make);
    }

    private static <T> Option<T> always(int weight, Supplier<T> make) {
        return new Option<>(weight, () -> Optional.of(make.get()));
    }

    // ------------------------------------------------------------------ the generator

    /**
     * Makes the sequence: a few organisations, each with a deposit, policies and wallets with session
     * keys, then a weighted random mix of every instruction, most of them meant to pass and many of
     * them not (over a cap or the balance, a stale session, a frozen wallet, a wrong proof, too
     * early...). It learns what exists from the confirmed steps, and aims amounts at the balances the
     * simulator holds (both ledgers hold the same, or the run has already failed).
     */
    private static final class Generator {
        private static final int ORGANISATIONS = 3;
        private static final int MAX_ORGANISATIONS = 5;
        private static final int WALLETS_PER_ORGANISATION = 3;
        private static final int PAYEES = 6;
        private static final long MICROS = Usdc.MICROS_PER_USDC;

        private final Random random;
        private final IdGenerator ids;
        private final MutableClock clock;
        private final LedgerPort model;
        private final TestCoSigner operator = new TestCoSigner(77);
        private final TestCoSigner stranger = new TestCoSigner(78);
        private final List<Org> orgs = new ArrayList<>();
        private final List<Wallet> wallets = new ArrayList<>();
        private final List<String> payees = new ArrayList<>();
        private final List<Escrow> escrows = new ArrayList<>();
        private final Set<LedgerAccount> accounts = new LinkedHashSet<>();
        private final Map<String, String> names = new LinkedHashMap<>();
        private final Deque<Supplier<Optional<Operation>>> queued = new ArrayDeque<>();
        private final List<Both<LedgerInstruction>> submitted = new ArrayList<>();
        private final Consumer<String> openUsdcAccount;
        private final Set<String> holdingUsdcAccounts = new HashSet<>();
        private Optional<Wallet> lastSpender = Optional.empty();

        /** {@code openUsdcAccount} gives an address its USDC token account on localnet. */
        Generator(long seed, MutableClock clock, LedgerPort model, Consumer<String> openUsdcAccount) {
            this.random = new Random(seed);
            this.ids = new RandomIdGenerator(new Random(seed));
            this.clock = clock;
            this.model = model;
            this.openUsdcAccount = openUsdcAccount;
            for (int i = 1; i <= PAYEES; i++) {
                payees.add(payee("payee-" + i));
            }
        }

        Set<LedgerAccount> accounts() {
            return accounts;
        }

        void submitted(Both<LedgerInstruction> instructions) {
            submitted.add(instructions);
        }

        Operation next() {
            advanceTime();
            while (!queued.isEmpty()) {
                Optional<Operation> operation = queued.removeFirst().get();
                if (operation.isPresent()) {
                    return operation.get();
                }
            }
            if (orgs.size() < ORGANISATIONS) {
                return newOrganisation();
            }
            return choose(List.of(
                    option(45, this::pay),
                    option(10, this::lock),
                    option(6, this::release),
                    option(2, this::dispute),
                    option(5, this::refund),
                    option(7, this::fund),
                    option(4, this::withdraw),
                    option(3, this::deposit),
                    option(4, this::writePolicy),
                    option(3, this::openWallet),
                    option(4, this::setSessionKey),
                    option(4, this::updateWallet),
                    option(3, this::resubmit)));
        }

        // -------------------------------------------------------------- organisations, policies, wallets

        /** A deposit into a new organisation's treasury; its policies and wallets follow. */
        private Operation newOrganisation() {
            Org org = new Org(ids.org(), "org" + (orgs.size() + 1));
            orgs.add(org);
            name(org.id.value(), org.name);
            accounts.add(new LedgerAccount.Treasury(org.id));
            queued.addLast(() -> Optional.of(newPolicy(org, terms())));
            queued.addLast(() -> Optional.of(newPolicy(org, terms())));
            for (int i = 0; i < WALLETS_PER_ORGANISATION; i++) {
                queued.addLast(() -> Optional.of(open(org, one(org.policies))));
            }
            return Operation.of(new LedgerInstruction.Deposit(op(), org.id, usdc(2_000 * MICROS, 10_000 * MICROS)));
        }

        private Optional<Operation> deposit() {
            if (orgs.size() < MAX_ORGANISATIONS && chance(0.1)) {
                return Optional.of(newOrganisation());
            }
            Usdc amount = chance(0.05) ? Usdc.ZERO : usdc(100 * MICROS, 3_000 * MICROS);
            return Optional.of(Operation.of(new LedgerInstruction.Deposit(op(), one(orgs).id, amount)));
        }

        private Optional<Operation> writePolicy() {
            Org org = one(orgs);
            if (org.policies.isEmpty() || chance(0.35)) {
                return Optional.of(newPolicy(org, terms()));
            }
            Policy policy = one(org.policies);
            // One in ten arrives late, at a sequence not above the one on chain: refused, it changes nothing.
            long sequence = chance(0.1) ? Math.max(1, policy.sequence - random.nextInt(2)) : Sequences.next();
            return Optional.of(choose(List.of(
                    always(92, () -> write(policy, sequence, terms())),
                    // Under the id of another organisation's policy: a policy of this organisation.
                    option(8, () -> policyOfAnotherOrganisation(org).map(foreign -> Operation.of(
                            new LedgerInstruction.WritePolicy(op(), org.id, foreign.id, Sequences.next(), PolicyRules.NONE,
                                    Set.of())))))));
        }

        private Operation newPolicy(Org org, Terms terms) {
            Policy policy = new Policy(org, ids.policy());
            name(policy.id.value(), org.name + "/policy-" + (org.policies.size() + 1));
            return write(policy, Sequences.next(), terms);
        }

        private Operation write(Policy policy, long sequence, Terms terms) {
            return Operation.of(new LedgerInstruction.WritePolicy(op(), policy.org.id, policy.id, sequence, terms.rules(),
                    terms.blocked()), () -> {
                if (!policy.org.policies.contains(policy)) {
                    policy.org.policies.add(policy);
                }
                policy.sequence = sequence;
                policy.rules = terms.rules();
                policy.blocked = terms.blocked();
            });
        }

        /** Random rules: caps, velocity, an allow list (now and then a long one, written in chunks), expiry, co-sign. */
        private Terms terms() {
            RulesBuilder rules = rules();
            if (chance(0.5)) {
                rules.maxPerTx(usdc(5 * MICROS, 150 * MICROS).toString());
            }
            if (chance(0.35)) {
                rules.maxPerDay(usdc(20 * MICROS, 300 * MICROS).toString());
            }
            if (chance(0.25)) {
                rules.maxPerMonth(usdc(50 * MICROS, 1_000 * MICROS).toString());
            }
            if (chance(0.3)) {
                rules.velocityCap(chance(0.05) ? 0 : 1 + random.nextInt(5));
            }
            if (chance(0.2)) {
                rules.allowedRecipients(recipients(chance(0.3) ? 10 + random.nextInt(20) : 1 + random.nextInt(4))
                        .toArray(String[]::new));
            }
            if (chance(0.2)) {
                rules.expiry(chance(0.1) ? now().minus(Duration.ofHours(1)) : now().plus(between(Duration.ofHours(1),
                        Duration.ofDays(20))));
            }
            if (chance(0.25)) {
                rules.coSignAtOrAbove(usdc(10 * MICROS, 120 * MICROS).toString(), operator);
            } else if (chance(0.05)) {
                rules.coSigner(operator);
            }
            Set<String> blocked = chance(0.2) ? recipients(1 + random.nextInt(4)) : Set.of();
            if (!blocked.isEmpty()) {
                rules.blockedCategories("gambling");
            }
            return new Terms(rules.build(), blocked);
        }

        /** Distinct recipients: payees, wallets, wallets to come, and outside addresses nobody pays. */
        private Set<String> recipients(int count) {
            List<String> pool = new ArrayList<>(payees);
            wallets.forEach(wallet -> pool.add(wallet.address.base58()));
            orgs.forEach(org -> pool.add(walletToCome(org)));
            while (pool.size() < count) {
                pool.add(payee("bystander-" + pool.size()));
            }
            Set<String> chosen = new LinkedHashSet<>();
            while (chosen.size() < count) {
                chosen.add(one(pool));
            }
            return chosen;
        }

        private Optional<Operation> openWallet() {
            Org org = one(orgs);
            if (org.policies.isEmpty()) {
                return Optional.empty();
            }
            Policy policy = one(org.policies);
            return Optional.of(choose(List.<Option<Operation>>of(
                    always(80, () -> open(org, policy)),
                    // Opening an existing wallet again is an upsert that changes nothing.
                    option(5, () -> any(walletsOf(org)).map(wallet -> Operation.of(new LedgerInstruction.OpenWallet(
                            op(), wallet.address, org.id, wallet.agent, policy.id)))),
                    // At the address of another agent: account_mismatch.
                    always(4, () -> Operation.of(new LedgerInstruction.OpenWallet(op(),
                            model.walletAddress(org.id, "agent-" + (org.agents + 2)), org.id, org.nextAgent(), policy.id))),
                    // Under a policy never written: account_not_found.
                    always(3, () -> Operation.of(new LedgerInstruction.OpenWallet(op(),
                            model.walletAddress(org.id, org.nextAgent()), org.id, org.nextAgent(), ids.policy()))),
                    // Under another organisation's policy: account_not_found.
                    option(8, () -> policyOfAnotherOrganisation(org).map(foreign -> Operation.of(
                            new LedgerInstruction.OpenWallet(op(), model.walletAddress(org.id, org.nextAgent()),
                                    org.id, org.nextAgent(), foreign.id)))))));
        }

        /** Opens the organisation's next agent's wallet; then its session key and its first funds follow. */
        private Operation open(Org org, Policy policy) {
            String agent = org.nextAgent();
            LedgerAddress address = new LedgerAddress(walletToCome(org));
            return Operation.of(new LedgerInstruction.OpenWallet(op(), address, org.id, agent, policy.id), () -> {
                org.agents++;
                Wallet wallet = new Wallet(org, agent, address, policy);
                wallets.add(wallet);
                queued.addFirst(() -> Optional.of(fund(wallet, usdc(50 * MICROS, 800 * MICROS))));
                queued.addFirst(() -> Optional.of(session(wallet, 0, now().plus(between(Duration.ofHours(6),
                        Duration.ofDays(20))))));
            });
        }

        /** The address of the organisation's next agent, whose wallet is not open yet: it can be paid already. */
        private String walletToCome(Org org) {
            LedgerAddress address = model.walletAddress(org.id, org.nextAgent());
            name(address.base58(), org.name + "/" + org.nextAgent());
            accounts.add(new LedgerAccount.Wallet(address));
            holdUsdcAccount(address.base58());
            return address.base58();
        }

        private Optional<Operation> setSessionKey() {
            List<Wallet> lapsed = wallets.stream().filter(wallet -> !now().isBefore(wallet.sessionExpiresAt)).toList();
            return maybe(List.of(option(60, () -> any(lapsed)), option(40, () -> any(wallets)))).map(this::newSession);
        }

        /** Mostly the next version of the wallet's session, now and then the same or the one before; rarely expired already. */
        private Operation newSession(Wallet wallet) {
            long current = Math.max(0, wallet.sessionVersion);
            long version = choose(List.of(
                    always(75, () -> wallet.sessionVersion + 1),
                    always(15, () -> current),
                    always(10, () -> Math.max(0, current - 1))));
            Instant expiresAt = chance(0.05) ? now().minus(Duration.ofMinutes(1))
                    : now().plus(between(Duration.ofMinutes(30), Duration.ofDays(30)));
            return session(wallet, version, expiresAt);
        }

        /** An agent whose session has lapsed mostly signs in again before it spends: a new session key comes first. */
        private Operation signedIn(Wallet wallet, Supplier<Operation> spend) {
            boolean lapsed = !now().isBefore(wallet.sessionExpiresAt);
            return choose(List.of(
                    always(lapsed ? 80 : 0, () -> newSession(wallet)),
                    always(lapsed ? 20 : 100, spend)));
        }

        private Operation session(Wallet wallet, long version, Instant expiresAt) {
            long sequence = adminSequence(wallet);
            return Operation.of(new LedgerInstruction.SetSessionKey(op(), wallet.address, version, expiresAt, sequence),
                    () -> {
                        wallet.sessionVersion = version;
                        wallet.sessionExpiresAt = expiresAt;
                        wallet.adminSequence = sequence;
                    });
        }

        /** Mostly the next sequence; one write in twenty arrives late, at the wallet's last sequence or one before. */
        private long adminSequence(Wallet wallet) {
            return wallet.adminSequence > 0 && chance(0.05)
                    ? Math.max(1, wallet.adminSequence - random.nextInt(2)) : Sequences.next();
        }

        private Optional<Operation> updateWallet() {
            return any(wallets).map(wallet -> {
                Policy policy = choose(List.of(
                        always(85, () -> wallet.policy),
                        always(10, () -> one(wallet.org.policies)),
                        option(3, () -> policyOfAnotherOrganisation(wallet.org)),
                        always(2, () -> new Policy(wallet.org, ids.policy()))));
                WalletStatus status = choose(List.of(
                        always(40, () -> WalletStatus.FROZEN),
                        always(40, () -> WalletStatus.ACTIVE),
                        always(12, () -> wallet.status),
                        always(8, () -> WalletStatus.ARCHIVED)));
                long sequence = adminSequence(wallet);
                return Operation.of(new LedgerInstruction.UpdateWallet(op(), wallet.address, status, policy.id, sequence),
                        () -> {
                            wallet.status = status;
                            wallet.policy = policy;
                            wallet.adminSequence = sequence;
                        });
            });
        }

        // -------------------------------------------------------------- moving money

        private Optional<Operation> fund() {
            return any(wallets).map(wallet -> {
                Org org = chance(0.05) ? one(orgs) : wallet.org;
                Usdc treasury = model.balance(new LedgerAccount.Treasury(org.id));
                return Operation.of(new LedgerInstruction.Fund(op(), org.id, wallet.address,
                        amountAgainst(treasury, usdc(20 * MICROS, 400 * MICROS))));
            });
        }

        private Operation fund(Wallet wallet, Usdc amount) {
            return Operation.of(new LedgerInstruction.Fund(op(), wallet.org.id, wallet.address, amount));
        }

        private Optional<Operation> withdraw() {
            return any(wallets).map(wallet -> {
                Org org = chance(0.05) ? one(orgs) : wallet.org;
                Usdc balance = model.balance(new LedgerAccount.Wallet(wallet.address));
                return Operation.of(new LedgerInstruction.Withdraw(op(), org.id, wallet.address,
                        amountAgainst(balance, usdc(MICROS, 200 * MICROS))));
            });
        }

        /** Mostly an ordinary amount; sometimes all of {@code held}, just over it, or zero. */
        private Usdc amountAgainst(Usdc held, Usdc ordinary) {
            return choose(List.of(
                    always(80, () -> ordinary),
                    always(8, () -> held.plus(usdc(1, 50 * MICROS))),
                    option(5, () -> Optional.of(held).filter(amount -> !amount.isZero())),
                    always(4, () -> Usdc.ZERO),
                    always(3, () -> Usdc.ofMicros(1))));
        }

        private Optional<Operation> pay() {
            return spender().map(wallet -> signedIn(wallet, () -> {
                String recipient = recipientFor(wallet);
                LedgerInstruction.Pay pay = new LedgerInstruction.Pay(op(), wallet.address, recipient, spend(wallet),
                        requestedAt(), signingVersion(wallet), Optional.empty());
                return Operation.of(coSigned(wallet, pay));
            }));
        }

        /**
         * Mostly now; else earlier, as a hold approved later, which a co-signed payment counts at: within
         * the co-sign window, or now and then around the month the program takes.
         */
        private Instant requestedAt() {
            return choose(List.of(
                    always(70, this::now),
                    always(25, () -> now().minus(between(Duration.ofSeconds(1), Duration.ofDays(3)))),
                    always(5, () -> now().minus(between(Duration.ofDays(29), Duration.ofDays(31))))));
        }

        /** Often the last spender again (agents spend in bursts, which is what windows and velocity count), mostly an active wallet. */
        private Optional<Wallet> spender() {
            Optional<Wallet> spender = maybe(List.of(
                    option(45, () -> lastSpender),
                    option(45, () -> any(wallets.stream().filter(wallet -> wallet.status == WalletStatus.ACTIVE).toList())),
                    option(10, () -> any(wallets))));
            lastSpender = spender;
            return spender;
        }

        /** Whom {@code wallet} pays or locks an escrow for: payees, wallets, listed recipients, itself... */
        private String recipientFor(Wallet wallet) {
            String recipient = choose(List.of(
                    always(40, () -> one(payees)),
                    option(25, () -> any(wallets.stream().filter(other -> other != wallet).toList())
                            .map(other -> other.address.base58())),
                    option(10, () -> any(wallet.policy.rules.allowedRecipients())),
                    option(8, () -> any(List.copyOf(wallet.policy.blocked))),
                    always(5, () -> walletToCome(one(orgs))),
                    always(2, () -> wallet.address.base58())));
            accounts.add(new LedgerAccount.Wallet(new LedgerAddress(recipient)));
            return recipient;
        }

        /** An amount to pay or lock: ordinary, at a cap, around the co-sign threshold, over the balance, zero... */
        private Usdc spend(Wallet wallet) {
            PolicyRules rules = wallet.policy.rules;
            Usdc balance = model.balance(new LedgerAccount.Wallet(wallet.address));
            return choose(List.of(
                    always(45, () -> usdc(10_000, 40 * MICROS)),
                    option(10, () -> rules.maxPerTx().map(cap -> chance(0.5) ? cap : cap.plus(Usdc.ofMicros(1)))),
                    option(12, () -> rules.requireCoSign().map(threshold -> choose(List.of(
                            always(1, () -> threshold.minus(Usdc.ofMicros(1))),
                            always(1, () -> threshold),
                            always(1, () -> threshold.plus(usdc(1, 20 * MICROS))))))),
                    always(8, () -> balance.plus(usdc(1, 10 * MICROS))),
                    option(7, () -> Optional.of(balance).filter(amount -> !amount.isZero())),
                    always(3, () -> Usdc.ZERO),
                    always(10, () -> usdc(40 * MICROS, 250 * MICROS))));
        }

        /** Mostly the wallet's current session; sometimes the one before it (stale) or one not written yet. */
        private long signingVersion(Wallet wallet) {
            long current = Math.max(0, wallet.sessionVersion);
            return choose(List.of(
                    always(85, () -> current),
                    always(8, () -> current > 0 ? current - 1 : current + 1),
                    always(7, () -> current + 1)));
        }

        /**
         * The payment as each ledger gets it: at or above the policy's threshold mostly with the
         * operator's signature of that ledger's co-sign message, else without, by a stranger, or over
         * another payment's message; below it now and then with a signature nobody asked for.
         */
        private Function<Both<LedgerPort>, Both<LedgerInstruction>> coSigned(Wallet wallet, LedgerInstruction.Pay pay) {
            boolean needed = wallet.policy.rules.requireCoSign().filter(pay.amount()::isAtLeast).isPresent();
            return choose(List.of(
                    always(needed ? 70 : 7, () -> signedBy(operator, pay, pay)),
                    always(needed ? 10 : 90, () -> Operation.same(pay)),
                    always(needed ? 10 : 3, () -> signedBy(stranger, pay, pay)),
                    always(needed ? 10 : 1, () -> signedBy(operator, pay, anotherPayment(pay))),
                    always(needed ? 3 : 1, () -> Operation.same(pay.withCoSignature("not-a-signature")))));
        }

        /** {@code pay} carrying {@code signer}'s signature of each ledger's own co-sign message of {@code signed}. */
        private static Function<Both<LedgerPort>, Both<LedgerInstruction>> signedBy(TestCoSigner signer,
                                                                                    LedgerInstruction.Pay pay,
                                                                                    LedgerInstruction.Pay signed) {
            return ledgers -> ledgers.map(ledger -> pay.withCoSignature(
                    signer.sign(Base64.getEncoder().encodeToString(ledger.coSignMessage(signed)))));
        }

        private LedgerInstruction.Pay anotherPayment(LedgerInstruction.Pay pay) {
            return new LedgerInstruction.Pay(op(), pay.wallet(), pay.recipient(), pay.amount().plus(Usdc.ofMicros(1)),
                    pay.requestedAt(), pay.sessionVersion(), Optional.empty());
        }

        // -------------------------------------------------------------- escrow

        private Optional<Operation> lock() {
            return spender().map(wallet -> signedIn(wallet, () -> {
                Escrow escrow = new Escrow(ids.escrow(), wallet, recipientFor(wallet), spend(wallet),
                        now().plus(between(Duration.ofSeconds(30), Duration.ofDays(3))),
                        chance(0.6) ? Optional.of(proof()) : Optional.empty());
                EscrowId id = choose(List.of(
                        always(95, () -> escrow.id),
                        // The id of an escrow the wallet locked before: the escrow exists, account_mismatch.
                        option(3, () -> any(locked(escrows.stream().filter(earlier -> earlier.wallet == wallet)))
                                .map(earlier -> earlier.id)),
                        // The id of another wallet's escrow: a new escrow of this wallet.
                        option(2, () -> any(locked(escrows.stream().filter(other -> other.wallet != wallet)))
                                .map(other -> other.id))));
                // Escrows are the wallet's own: an id it used before is that escrow again, on its first terms.
                Escrow locking = escrows.stream().filter(earlier -> earlier.wallet == wallet && earlier.id.equals(id))
                        .findFirst().orElseGet(() -> {
                            Escrow made = id.equals(escrow.id) ? escrow : new Escrow(id, wallet, escrow.receiver,
                                    escrow.amount, escrow.deadline, escrow.expectedProof);
                            escrows.add(made);
                            name(id.value(), "escrow-" + escrows.size());
                            return made;
                        });
                accounts.add(new LedgerAccount.Vault(id, wallet.address));
                return Operation.of(new LedgerInstruction.EscrowLock(op(), id, wallet.address, locking.receiver,
                        locking.amount, locking.deadline, locking.expectedProof, signingVersion(wallet)),
                        () -> locking.state = EscrowState.LOCKED);
            }));
        }

        /**
         * A release with a proof, or without one a dispute's resolution; now and then at the deadline
         * or the second before.
         */
        private Optional<Operation> release() {
            return anEscrow().map(escrow -> {
                nowAndThenAtItsDeadline(escrow);
                Optional<String> proof = escrow.expectedProof.isPresent()
                        ? choose(List.of(
                        always(60, () -> escrow.expectedProof),
                        always(25, () -> Optional.of(proof())),
                        always(15, Optional::<String>empty)))
                        : chance(0.75) ? Optional.of(proof()) : Optional.empty();
                String receiver = chance(0.05) ? one(payees) : escrow.receiver;
                return Operation.of(new LedgerInstruction.EscrowRelease(op(), escrow.id, sender(escrow), receiver,
                        escrowAmount(escrow), proof), () -> escrow.state = EscrowState.SETTLED);
            });
        }

        /** A dispute; now and then at the deadline or the second before. */
        private Optional<Operation> dispute() {
            return anEscrow().map(escrow -> {
                nowAndThenAtItsDeadline(escrow);
                return Operation.of(new LedgerInstruction.EscrowDispute(op(), escrow.id, sender(escrow)),
                        () -> escrow.state = EscrowState.DISPUTED);
            });
        }

        /** A timeout refund (now and then exactly at its deadline, or the second before) or a dispute's resolution. */
        private Optional<Operation> refund() {
            return anEscrow().map(escrow -> {
                boolean resolution = chance(0.4);
                if (!resolution) {
                    nowAndThenAtItsDeadline(escrow);
                }
                return Operation.of(new LedgerInstruction.EscrowRefund(op(), escrow.id, sender(escrow), escrowAmount(escrow),
                        resolution), () -> escrow.state = EscrowState.SETTLED);
            });
        }

        /**
         * For a locked escrow, now and then moves the clock to its deadline or the second before: the
         * instant from which release and dispute are refused and the timeout refund is due.
         */
        private void nowAndThenAtItsDeadline(Escrow escrow) {
            if (escrow.state == EscrowState.LOCKED && chance(0.35)) {
                moveTo(justBefore(escrow.deadline));
            }
        }

        /** Mostly an open escrow; now and then one that is settled, or whose lock was refused. */
        private Optional<Escrow> anEscrow() {
            return maybe(List.of(
                    option(90, () -> any(escrows.stream().filter(Escrow::isOpen).toList())),
                    option(10, () -> any(escrows))));
        }

        /** The wallet that locked the escrow; now and then another one. */
        private LedgerAddress sender(Escrow escrow) {
            return choose(List.of(
                    always(97, () -> escrow.wallet.address),
                    option(3, () -> any(wallets.stream().filter(other -> other != escrow.wallet).toList())
                            .map(other -> other.address))));
        }

        /** The escrow's amount; now and then a micro-USDC more. */
        private Usdc escrowAmount(Escrow escrow) {
            return choose(List.of(
                    always(97, () -> escrow.amount),
                    always(3, () -> escrow.amount.plus(Usdc.ofMicros(1)))));
        }

        private String proof() {
            byte[] hash = new byte[32];
            random.nextBytes(hash);
            return HexFormat.of().formatHex(hash);
        }

        // -------------------------------------------------------------- the rest

        /** An earlier step again, with the same operation id: both must answer what they answered first. */
        private Optional<Operation> resubmit() {
            return any(submitted).map(instructions -> Operation.of(ledgers -> instructions));
        }

        /**
         * Moves the clock forward before a third of the steps: mostly seconds or minutes, sometimes
         * hours or days; now and then exactly to the next session expiry, policy expiry or escrow
         * deadline, or to the second before it.
         */
        private void advanceTime() {
            if (chance(0.02)) {
                Stream.of(wallets.stream().map(wallet -> wallet.sessionExpiresAt),
                                orgs.stream().flatMap(org -> org.policies.stream()).flatMap(policy -> policy.rules.expiry().stream()),
                                escrows.stream().filter(escrow -> escrow.state == EscrowState.LOCKED).map(escrow -> escrow.deadline))
                        .flatMap(Function.identity())
                        .filter(instant -> instant.isAfter(now()))
                        .min(Comparator.naturalOrder())
                        .ifPresent(boundary -> moveTo(justBefore(boundary)));
                return;
            }
            if (chance(0.3)) {
                clock.advance(choose(List.of(
                        always(3, () -> Duration.ofMillis(1 + random.nextInt(999))),
                        always(70, () -> between(Duration.ofSeconds(1), Duration.ofMinutes(2))),
                        always(22, () -> between(Duration.ofMinutes(2), Duration.ofHours(2))),
                        always(7, () -> between(Duration.ofHours(2), Duration.ofHours(30))),
                        always(1, () -> between(Duration.ofHours(30), Duration.ofDays(6))))));
            }
        }

        /** The instant itself or the second before it. */
        private Instant justBefore(Instant boundary) {
            return boundary.minus(choose(List.of(
                    always(1, () -> Duration.ZERO),
                    always(1, () -> Duration.ofSeconds(1)),
                    always(1, () -> Duration.ofMillis(1 + random.nextInt(999))))));
        }

        /** Time only moves forward: the two ledgers' spend windows agree only on a forward clock. */
        private void moveTo(Instant instant) {
            if (instant.isAfter(now())) {
                clock.set(instant);
            }
        }

        // -------------------------------------------------------------- helpers

        private Instant now() {
            return clock.instant();
        }

        private String op() {
            return ids.tx().value();
        }

        private String payee(String name) {
            String address = Addresses.external(name);
            name(address, name);
            accounts.add(new LedgerAccount.Wallet(new LedgerAddress(address)));
            holdUsdcAccount(address);
            return address;
        }

        /** Opens the address's USDC token account on localnet, once, as a recipient on Solana must hold one. */
        private void holdUsdcAccount(String address) {
            if (holdingUsdcAccounts.add(address)) {
                openUsdcAccount.accept(address);
            }
        }

        private List<Wallet> walletsOf(Org org) {
            return wallets.stream().filter(wallet -> wallet.org == org).toList();
        }

        /** The escrows whose lock was confirmed, whatever became of them since. */
        private static List<Escrow> locked(Stream<Escrow> escrows) {
            return escrows.filter(escrow -> escrow.state != EscrowState.ATTEMPTED).toList();
        }

        private Optional<Policy> policyOfAnotherOrganisation(Org org) {
            return any(orgs.stream().filter(other -> other != org).flatMap(other -> other.policies.stream()).toList());
        }

        private boolean chance(double probability) {
            return random.nextDouble() < probability;
        }

        private <T> Optional<T> any(List<T> list) {
            return list.isEmpty() ? Optional.empty() : Optional.of(list.get(random.nextInt(list.size())));
        }

        private <T> T one(List<T> list) {
            return list.get(random.nextInt(list.size()));
        }

        /** Micro-USDC uniformly in [low, high]. */
        private Usdc usdc(long lowMicros, long highMicros) {
            return Usdc.ofMicros(lowMicros + (long) (random.nextDouble() * (highMicros - lowMicros + 1)));
        }

        /** A duration log-uniformly between the two, in whole seconds. */
        private Duration between(Duration shortest, Duration longest) {
            double low = Math.log(shortest.toSeconds());
            double high = Math.log(longest.toSeconds());
            return Duration.ofSeconds(Math.round(Math.exp(low + random.nextDouble() * (high - low))));
        }

        /** Picks by weight among the ways that are open; a closed way is dropped and the draw repeated. */
        private <T> T choose(List<Option<T>> options) {
            return maybe(options).orElseThrow(() -> new IllegalStateException("no way is open"));
        }

        /** Like {@link #choose}, empty when every way is closed. */
        private <T> Optional<T> maybe(List<Option<T>> options) {
            List<Option<T>> open = new ArrayList<>(options);
            open.removeIf(option -> option.weight() == 0);
            while (!open.isEmpty()) {
                int roll = random.nextInt(open.stream().mapToInt(Option::weight).sum());
                Option<T> chosen = open.get(0);
                for (Option<T> option : open) {
                    chosen = option;
                    roll -= option.weight();
                    if (roll < 0) {
                        break;
                    }
                }
                Optional<T> made = chosen.make().get();
                if (made.isPresent()) {
                    return made;
                }
                open.remove(chosen);
            }
            return Optional.empty();
        }

        // -------------------------------------------------------------- names, for failures

        private void name(String raw, String name) {
            names.putIfAbsent(raw, name);
        }

        /** The text of an instruction or account, its addresses and ids replaced by the generator's names. */
        String describe(Object instructionOrAccount) {
            String text = instructionOrAccount.toString();
            for (Map.Entry<String, String> name : names.entrySet()) {
                text = text.replace(name.getKey(), name.getValue());
            }
            return text;
        }
    }
}
