package com.agentwallet.bench;

import com.agentwallet.core.common.Result;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.payment.Spending;
import com.agentwallet.core.policy.Decision;
import com.agentwallet.core.policy.PaymentCheck;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyEngine;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.core.policy.SpendEntry;
import com.agentwallet.core.policy.SpendSummary;
import com.agentwallet.core.policy.TimeRange;
import com.agentwallet.core.wallet.Allocation;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The policy check of one payment for a wallet with no prior spends in its rolling windows and
 * with 100,000 of them: the cost must not grow with the history (the {@link SpendSummary} keeps
 * the totals; the {@code SpendLog} is read only for the spends crossing a window's edge).
 *
 * <p>The wallet's log holds {@code priorPayments} spends of 0.01 USDC spread evenly over the 20
 * hours before {@link #LAST_ADVANCED} (one every 0.72 s at 100,000), and its stored summary was
 * built by adding every one of them to a summary advanced to {@link #LAST_ADVANCED}, so the day
 * and month totals hold all of them and the hour count those of the last hour.
 *
 * <p><b>Time stays fixed</b> at {@link #NOW}, one second after the stored summary was last
 * advanced, and nothing is written back. Every invocation therefore does the same, complete work
 * of a real check: {@code leavingBy(now)} gives three non-empty ranges (the stored cutoffs are one
 * second behind), the log answers three range look-ups over all its entries (at 100,000 the hour
 * range holds the one spend that crossed the hour's edge in that second), {@code advanceTo}
 * subtracts it, and the engine runs every check on the O(1) totals. The alternatives are not
 * honest: moving {@code now} forward without writing the summary back makes the leaving ranges
 * (and the spends in them) grow with the number of invocations, so the score would depend on how
 * long JMH ran rather than on the history; writing it back is a mutation the check does not do
 * (only a debit stores the advanced summary), and with a fixed {@code now} it would make every
 * range empty after the first call, taking the log look-up out of the measured path.
 *
 * <p>Caveat: the same keys are looked up every time, so the log's tree path stays in the CPU
 * caches; a production check on a cold wallet pays cache misses (or, in PostgreSQL, an index
 * probe) that this does not show.
 *
 * <p>The log look-up is the only part whose cost can depend on the history: {@link PolicyCheckBooks}
 * keeps the wallet's spends in a time-sorted list and finds a range with one binary search
 * (PostgreSQL with a B-tree index probe on {@code (wallet_id, at)}), so it grows with log n, which
 * at these sizes is lost in the cost of the check itself.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class PolicyCheckBenchmark {

    /** When the wallet's stored summary was last advanced (its last payment). */
    static final Instant LAST_ADVANCED = Instant.parse("2026-04-01T12:00:00Z");
    /** The check's instant: one second later, about the gap between payments of a wallet making 100,000 a day. */
    static final Instant NOW = LAST_ADVANCED.plus(Duration.ofSeconds(1));
    static final Duration SPREAD = Duration.ofHours(20);
    static final Usdc PRIOR_AMOUNT = Usdc.parse("0.01");
    static final String RECIPIENT = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";

    @Param({"0", "100000"})
    public int priorPayments;

    // Non-final, so the JIT cannot fold any of them into constants.
    private PolicyCheckBooks books;
    private Spending spending;
    private Wallet wallet;
    private PolicyRules rules;
    private Optional<SessionGrant> session;
    private Usdc amount;
    private String recipient;
    private Instant now;
    private List<SpendEntry> leaving;

    @Setup(Level.Trial)
    public void setUp() {
        IdGenerator ids = new RandomIdGenerator(new Random(7));
        Clock clock = Clock.fixed(LAST_ADVANCED, ZoneOffset.UTC);
        spending = new Spending(new Allocation(ids, new EventPublisher(ids, clock)), new EventPublisher(ids, clock));
        amount = Usdc.parse("1.00");
        recipient = RECIPIENT;
        now = NOW;

        // Caps the payment stays within, with every cap present so every check runs.
        rules = new PolicyRules(Optional.of(Usdc.parse("100")), Optional.of(Usdc.parse("1000000")),
                Optional.of(Usdc.parse("10000000")), Optional.of(PolicyRules.MAX_VELOCITY_CAP), List.of(),
                Set.of("gambling"), Optional.of(LAST_ADVANCED.plus(Duration.ofDays(365))),
                Optional.empty(), Optional.empty());
        Organisation org = new Organisation(ids.org(), "Bench org", Usdc.parse("1000000"), LAST_ADVANCED);
        Policy policy = new Policy(ids.policy(), org.id(), "Bench policy", rules, 1, LAST_ADVANCED, LAST_ADVANCED);

        List<SpendEntry> prior = new ArrayList<>(priorPayments);
        long spreadNanos = SPREAD.toNanos();
        for (int i = 1; i <= priorPayments; i++) {
            Instant at = LAST_ADVANCED.minus(SPREAD).plusNanos(spreadNanos / priorPayments * i);
            prior.add(new SpendEntry(ids.tx(), at, PRIOR_AMOUNT));
        }
        SpendSummary summary = SpendSummary.EMPTY.advanceTo(LAST_ADVANCED, List.of());
        for (SpendEntry entry : prior) {
            summary = summary.plus(entry);
        }
        byte[] address = new byte[LedgerAddress.LENGTH];
        new Random(11).nextBytes(address);
        wallet = new Wallet(ids.wallet(), org.id(), "bench-agent", "bench", policy.id(), List.of(), WalletStatus.ACTIVE,
                LedgerAddress.of(address), Usdc.parse("1000000"), summary, 1, Optional.empty(), LAST_ADVANCED,
                LAST_ADVANCED);
        session = Optional.of(new SessionGrant(wallet.id(), wallet.sessionVersion(), NOW.plus(Duration.ofHours(1))));

        books = new PolicyCheckBooks(policy, wallet.id(), prior);
        leaving = books.inTransaction(s -> s.spendLog().entriesIn(wallet.id(), wallet.spend().leavingBy(NOW)));
        verify(prior);
    }

    /** Fails the trial rather than measure a state other than the one described. */
    private void verify(List<SpendEntry> prior) {
        long expectedMicros = PRIOR_AMOUNT.micros() * priorPayments;
        long inLastHour = prior.stream().filter(e -> e.at().isAfter(LAST_ADVANCED.minus(Duration.ofHours(1)))).count();
        SpendSummary summary = wallet.spend();
        require(summary.day().micros() == expectedMicros && summary.month().micros() == expectedMicros
                && summary.hourCount() == inLastHour, "summary does not hold the prior spends: " + summary);
        List<TimeRange> leaving = summary.leavingBy(now);
        require(leaving.size() == 3, "expected three non-empty leaving ranges, got " + leaving);
        long expectedCrossing = prior.stream().filter(e -> leaving.stream().anyMatch(r -> r.contains(e.at()))).count();
        int crossing = books.inTransaction(s -> s.spendLog().entriesIn(wallet.id(), leaving)).size();
        require(crossing == expectedCrossing && (priorPayments != 100_000 || crossing == 1),
                "expected " + expectedCrossing + " spends crossing an edge, got " + crossing);
        int all = books.inTransaction(s -> s.spendLog().entriesIn(wallet.id(),
                List.of(new TimeRange(LAST_ADVANCED.minus(Duration.ofDays(1)), LAST_ADVANCED)))).size();
        require(all == priorPayments, "the log holds " + all + " spends, not " + priorPayments);
        require(check() instanceof Decision.Allowed, "the payment is not allowed: " + check());
        Result<Spending.Attempt> attempt = spendingEvaluate();
        require(attempt instanceof Result.Ok<Spending.Attempt> ok && ok.value().decision() instanceof Decision.Allowed,
                "Spending.evaluate does not allow the payment: " + attempt);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException(message);
        }
    }

    /**
     * The policy engine's check: advance the wallet's summary to now with the spends that crossed a
     * window's edge (what the store's index returns for {@code leavingBy(now)}), then run every
     * check. This is the part the design keeps independent of the history.
     */
    @Benchmark
    public Decision check() {
        return PolicyEngine.evaluate(rules, new PaymentCheck(wallet.id(), wallet.sessionVersion(), session,
                amount, recipient, Optional.empty(), wallet.spend().advanceTo(now, leaving), now,
                PaymentCheck.Kind.PAYMENT));
    }

    /**
     * The same check with the index look-up of the crossing spends in {@link PolicyCheckBooks}: a binary
     * search per range over the wallet's sorted spends, so it grows with log n (PostgreSQL does the
     * same with a B-tree probe on {@code (wallet_id, at)}).
     */
    @Benchmark
    public Decision checkWithLookup() {
        return books.inTransaction(stores -> {
            SpendSummary stored = wallet.spend();
            SpendSummary spend = stored.advanceTo(now,
                    stores.spendLog().entriesIn(wallet.id(), stored.leavingBy(now)));
            return PolicyEngine.evaluate(rules, new PaymentCheck(wallet.id(), wallet.sessionVersion(), session,
                    amount, recipient, Optional.empty(), spend, now, PaymentCheck.Kind.PAYMENT));
        });
    }

    /** The real use-case step: also reads the policy row and the recipient's category, and checks the balance. */
    @Benchmark
    public Result<Spending.Attempt> spendingEvaluate() {
        return books.inTransaction(stores ->
                spending.evaluate(stores, wallet, session, amount, recipient, PaymentCheck.Kind.PAYMENT, now));
    }
}
