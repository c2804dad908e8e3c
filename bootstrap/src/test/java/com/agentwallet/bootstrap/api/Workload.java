package com.agentwallet.bootstrap.api;

import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.money.Usdc;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import static com.agentwallet.bootstrap.api.ApiFixtures.body;

/**
 * What agents and operators do, many at once, against a running server over HTTPS: the shared
 * driver of the reliability suites. {@link #prepare} makes two capped policies, agent wallets
 * (several clients share each, so their caps are contended) and two sink wallets that only
 * receive; {@link #start} runs client threads for a bounded time, each drawing from a seeded mix:
 * payments under the caps (to outside addresses, to the sinks, to other agents), payments over the
 * per-transaction cap and runs of payments up to the day, month and velocity caps, payments held
 * for a co-signature that the operator then co-signs, rejects or leaves, escrows completed with
 * their proof (sometimes after a wrong one), disputed and resolved (or left disputed) or left to
 * time out, fundings, withdrawals, and a freeze with a payment tried while frozen. {@link #finish}
 * waits for the clients, settles the co-signatures left waiting (co-signs or rejects them, so the
 * books stop moving) and answers the {@link Report} for {@link BankAudit}.
 *
 * <p>Every payment carries an idempotency key, also written as its memo so the audit can find the
 * transaction of each key. A request that fails without an answer (an I/O error: the server died,
 * the connection broke) or with a 5xx is sent again, unchanged, until it is answered: payments
 * (their key makes a repeat harmless) and state changes (co-sign, reject, complete, dispute,
 * resolve, a status), which a repeat cannot apply twice. Fundings, withdrawals and escrow locks take
 * no key: they are sent again only when the first attempt never reached the server (connection
 * refused); otherwise their outcome is unknown to the client, counted as ambiguous and left to the
 * audit, which reads what happened from the books.
 *
 * <p>With a {@link JumpingClock} the server runs on, a thread moves it forward by half an hour to
 * eight hours every few seconds: escrow timeouts and co-sign windows pass, and spends leave the
 * rolling windows (the month cap is small enough to be met once the day's window has moved on).
 * Without one, nothing leaves the windows during a run, so the caps are ten times as roomy.
 *
 * <p>Use: {@code Workload w = Workload.prepare(client, org, seed, clients, clock); w.start(clients,
 * duration); Workload.Report report = w.finish();} ({@link #stop()} ends the run early), then
 * {@code audit.check(report)}. The same seed draws the same mix; the server's timing still varies.
 */
final class Workload {
    /** How long a client keeps repeating a request that gets no answer: longer than any restart of the server. */
    private static final Duration RETRY_LIMIT = Duration.ofMinutes(3);
    /** Session tokens outlive the clock's jumps, so that jumping never revokes an agent. */
    private static final long SESSION_TTL_SECONDS = Duration.ofDays(30).toSeconds();
    private static final Duration MAX_CLOCK_LEAD = Duration.ofDays(20);
    private static final long CENT = 10_000;
    private static final long USDC = 1_000_000;
    private static final long AGENT_FUNDING = 100 * USDC;
    /** Labels of the counters, in the order the figures list them. */
    private static final List<String> LABELS = List.of("pay", "held for co-sign", "co-signed", "rejected",
            "left for co-sign", "blocked max_per_tx", "blocked max_per_day", "blocked max_per_month",
            "blocked velocity_cap", "blocked require_co_sign", "insufficient funds", "refused frozen",
            "escrow locked", "escrow released", "proof mismatch", "escrow disputed", "resolved release",
            "resolved refund", "left disputed", "left to time out", "escrow too late", "fund", "withdraw",
            "freeze", "unfreeze", "settled at end", "clock jumps");

    /** The rules that may stop an amount within the per-transaction cap: the rolling windows. */
    private static final Set<String> ROLLING_CAPS = Set.of("max_per_day", "max_per_month", "velocity_cap");
    /** An escrow at the co-sign threshold: refused for it, unless a rolling cap refused it first. */
    private static final Set<String> AT_THRESHOLD = Set.of("require_co_sign", "max_per_day", "max_per_month",
            "velocity_cap");

    private final ApiClient client;
    private final DemoOrg org;
    private final ApiFixtures fixtures;
    private final long seed;
    private final List<Agent> agents;
    private final List<Sink> sinks;
    private final Optional<JumpingClock> clock;
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<KeyedPayment> payments = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> serverErrors = new ConcurrentLinkedQueue<>();
    private final LongAdder answered = new LongAdder();
    private final LongAdder retried = new LongAdder();
    private final LongAdder ambiguous = new LongAdder();
    private final List<Thread> threads = new ArrayList<>();
    private volatile long deadlineNanos;
    private long startedNanos;
    private int clients;

    /** A policy as the clients know it: its caps decide which amounts they try. */
    record Policy(String id, long maxPerTxMicros, Optional<Long> coSignFromMicros) {
        /** The largest amount a plain payment may have: below the co-sign threshold, within the per-transaction cap. */
        long plainLimitMicros() {
            return coSignFromMicros.map(threshold -> Math.min(threshold - CENT, maxPerTxMicros)).orElse(maxPerTxMicros);
        }
    }

    record Agent(String id, String token, String address, Policy policy) {
    }

    /** A wallet that only receives payments, so its balance is exactly what was paid to it. */
    record Sink(String id, String address) {
    }

    /** What became of a payment, as its client last heard. */
    enum Outcome {
        /** Answered 200: one transaction holds it. */
        BOOKED,
        /** Answered 422 policy_violation: one {@code blocked} transaction records it. */
        BLOCKED,
        /** Refused without a record (insufficient funds, a frozen wallet): no transaction. */
        REFUSED,
        /** Never answered within the retry limit (already an unexpected failure): at most one transaction. */
        UNKNOWN
    }

    /** A payment by its idempotency key (also its memo): what was asked, and what the client was told. */
    record KeyedPayment(String key, String walletId, String recipient, long amountMicros, Outcome outcome,
                        Optional<String> txId) {
    }

    /**
     * What ran: the requests answered ({@code operations}; every request of the workload changes
     * something or tries to), counts by label, every keyed payment, the answers no rule allows, the
     * 5xx answers, the repeats, the requests whose outcome stayed unknown, the sinks, and how far the
     * clock was moved.
     */
    record Report(long seed, int clients, Duration ran, long operations, Map<String, Long> counts,
                  List<KeyedPayment> payments, List<String> unexpected, List<String> serverErrors, long retried,
                  long ambiguous, List<Sink> sinks, Duration clockLead) {

        /** {@code 4812 operations (pay 2100, ...), 0 5xx, 12 retried, 0 ambiguous}. */
        String summary() {
            List<String> parts = new ArrayList<>();
            for (String label : LABELS) {
                long count = counts.getOrDefault(label, 0L);
                if (count > 0) {
                    parts.add(label + " " + count);
                }
            }
            return operations() + " operations (" + String.join(", ", parts) + "), " + serverErrors.size() + " 5xx, "
                    + retried + " retried, " + ambiguous + " ambiguous";
        }
    }

    private Workload(ApiClient client, DemoOrg org, long seed, List<Agent> agents, List<Sink> sinks,
                     Optional<JumpingClock> clock) {
        this.client = client;
        this.org = org;
        this.fixtures = new ApiFixtures(client, org);
        this.seed = seed;
        this.agents = agents;
        this.sinks = sinks;
        this.clock = clock;
    }

    /**
     * Makes the policies and wallets for {@code clients} clients of the organisation (about four
     * clients per agent wallet), each agent funded with 100 USDC; {@code clock}, when given, is the
     * one the server runs on, which the workload will move forward.
     */
    static Workload prepare(ApiClient client, DemoOrg org, long seed, int clients, Optional<JumpingClock> clock) {
        ApiFixtures fixtures = new ApiFixtures(client, org);
        String coSigner = fixtures.coSignerPublicKey();
        // Without a jumping clock, caps ten times as roomy keep most payments flowing instead of blocked
        // after the first seconds.
        int scale = clock.isPresent() ? 1 : 10;
        List<Policy> policies = List.of(
                policy(fixtures, body("max_per_tx", "5.00", "max_per_day", usdc(150, scale),
                        "max_per_month", usdc(300, scale), "velocity_cap", 30 * scale, "require_co_sign", "3.00",
                        "co_signer", coSigner)),
                policy(fixtures, body("max_per_tx", "2.50", "max_per_day", usdc(40, scale),
                        "max_per_month", usdc(60, scale), "velocity_cap", 10 * scale)));
        List<Agent> agents = new ArrayList<>();
        for (int i = 0; i < Math.max(2, clients / 4); i++) {
            Policy policy = policies.get(i % policies.size());
            JsonNode wallet = createWallet(fixtures, policy.id());
            fixtures.fund(wallet.path("id").asText(), Usdc.ofMicros(AGENT_FUNDING).toString());
            agents.add(new Agent(wallet.path("id").asText(), wallet.path("session_token").asText(),
                    wallet.path("solana_address").asText(), policy));
        }
        String open = fixtures.openPolicy();
        List<Sink> sinks = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            JsonNode wallet = createWallet(fixtures, open);
            sinks.add(new Sink(wallet.path("id").asText(), wallet.path("solana_address").asText()));
        }
        return new Workload(client, org, seed, List.copyOf(agents), List.copyOf(sinks), clock);
    }

    private static String usdc(long whole, int scale) {
        return Usdc.ofWhole(whole * scale).toString();
    }

    private static Policy policy(ApiFixtures fixtures, Map<String, Object> rules) {
        JsonNode policy = fixtures.createPolicy(rules);
        Optional<Long> coSign = policy.path("require_co_sign").isTextual()
                ? Optional.of(micros(policy.path("require_co_sign").asText())) : Optional.empty();
        return new Policy(policy.path("id").asText(), micros(policy.path("max_per_tx").asText()), coSign);
    }

    private static JsonNode createWallet(ApiFixtures fixtures, String policyId) {
        ApiResponse created = fixtures.client().post("/wallets", fixtures.org().adminKey(), body(
                "agent_id", ApiFixtures.unique("agent"), "label", "load", "policy_id", policyId,
                "session_ttl_seconds", SESSION_TTL_SECONDS));
        if (created.status() != 200) {
            throw new IllegalStateException("the workload's wallet was not created: " + created);
        }
        return created.json();
    }

    /**
     * Starts {@code clients} threads (and the clock's, if any) that run until {@code duration} has
     * passed or {@link #stop()}.
     */
    void start(int clients, Duration duration) {
        this.clients = clients;
        startedNanos = System.nanoTime();
        deadlineNanos = startedNanos + duration.toNanos();
        Random master = new Random(seed);
        for (int i = 0; i < clients; i++) {
            Client agent = new Client(i, new Random(master.nextLong()));
            threads.add(new Thread(agent::run, "workload-client-" + i));
        }
        clock.ifPresent(jumping -> threads.add(new Thread(() -> jumpClock(jumping, new Random(master.nextLong())),
                "workload-clock")));
        // Daemons: a test that fails before finish() must not keep its JVM alive until the deadline.
        threads.forEach(thread -> thread.setDaemon(true));
        threads.forEach(Thread::start);
    }

    /** Ends the run now rather than at its duration; {@link #finish()} then waits for the requests in flight. */
    void stop() {
        deadlineNanos = System.nanoTime();
    }

    /**
     * Waits until the clients have stopped, co-signs or rejects every payment still waiting for its
     * co-signature, and answers what ran.
     */
    Report finish() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
        Duration ran = Duration.ofNanos(System.nanoTime() - startedNanos);
        settleWaitingCoSigns();
        Map<String, Long> totals = new TreeMap<>();
        counts.forEach((label, count) -> totals.put(label, count.sum()));
        return new Report(seed, clients, ran, answered.sum(), totals, List.copyOf(payments), List.copyOf(unexpected),
                List.copyOf(serverErrors), retried.sum(), ambiguous.sum(), sinks, lead());
    }

    private Duration lead() {
        return clock.map(jumping -> Duration.between(Instant.now(), jumping.instant()))
                .filter(lead -> !lead.isNegative()).orElse(Duration.ZERO);
    }

    private boolean running() {
        return System.nanoTime() < deadlineNanos;
    }

    private void jumpClock(JumpingClock jumping, Random random) {
        while (running()) {
            pause(2000 + random.nextInt(2000));
            Duration jump = Duration.ofMinutes(30 + random.nextInt(451));
            if (running() && lead().plus(jump).compareTo(MAX_CLOCK_LEAD) < 0) {
                jumping.jumpTo(jumping.instant().plus(jump));
                count("clock jumps");
            }
        }
    }

    /** The payments the clients left waiting: settled one way or the other, so the books stop moving. */
    private void settleWaitingCoSigns() {
        List<JsonNode> waiting = fixtures.all("/transactions?limit=100&status=pending_co_sign");
        for (int i = 0; i < waiting.size(); i++) {
            String txId = waiting.get(i).path("tx_id").asText();
            boolean signed = i % 2 == 0 && answer("co-sign at end", coSign(txId, waiting.get(i)), "200",
                    "409 invalid_state").filter("200"::equals).isPresent();
            if (!signed) {
                answer("reject at end", reject(txId), "200", "409 invalid_state");
            }
            count("settled at end");
        }
    }

    // ---------------------------------------------------------------- one client

    private final class Client {
        private final int index;
        private final Random random;
        private int keys;

        Client(int index, Random random) {
            this.index = index;
            this.random = random;
        }

        void run() {
            try {
                act();
            } catch (RuntimeException | AssertionError e) {
                unexpected.add("client " + index + " stopped: " + e);
            }
        }

        private void act() {
            while (running()) {
                Agent agent = agents.get((index + (random.nextInt(4) == 0 ? random.nextInt(agents.size()) : 0))
                        % agents.size());
                int roll = random.nextInt(100);
                if (roll < 34) {
                    plainPayment(agent);
                } else if (roll < 39) {
                    overPerTransactionCap(agent);
                } else if (roll < 43) {
                    upToTheCaps(agent);
                } else if (roll < 55) {
                    coSignedPayment(agent);
                } else if (roll < 70) {
                    escrow(agent);
                } else if (roll < 82) {
                    fund(agent);
                } else if (roll < 88) {
                    withdraw(agent);
                } else if (roll < 90) {
                    freezeAndUnfreeze(agent);
                } else {
                    plainPayment(agent);
                }
            }
        }

        private void plainPayment(Agent agent) {
            pay(agent, recipient(agent), amountUpTo(agent.policy().plainLimitMicros()), false, ROLLING_CAPS);
        }

        private void overPerTransactionCap(Agent agent) {
            pay(agent, externalAddress(), agent.policy().maxPerTxMicros() + CENT + random.nextInt(200) * CENT, false,
                    Set.of("max_per_tx"));
        }

        /** Payments of nearly the largest plain amount until a rolling cap (or the balance) stops them. */
        private void upToTheCaps(Agent agent) {
            for (int i = 0; i < 8 && running(); i++) {
                long limit = agent.policy().plainLimitMicros();
                Optional<String> answer = pay(agent, recipient(agent), limit - random.nextInt(50) * CENT, false,
                        ROLLING_CAPS);
                if (answer.filter("200"::equals).isEmpty()) {
                    return;
                }
            }
        }

        /** A payment held for its co-signature, which the operator gives, refuses, or leaves for later. */
        private void coSignedPayment(Agent agent) {
            Optional<Long> threshold = agent.policy().coSignFromMicros();
            if (threshold.isEmpty()) {
                plainPayment(agent);
                return;
            }
            boolean voluntary = random.nextInt(5) == 0;
            int centsAbove = (int) ((agent.policy().maxPerTxMicros() - threshold.get()) / CENT);
            long amount = voluntary ? amountUpTo(threshold.get() - CENT)
                    : threshold.get() + random.nextInt(centsAbove + 1) * CENT;
            String key = nextKey();
            Optional<ApiResponse> held = payment(agent, externalOrSink(), amount, voluntary, key);
            Optional<String> answer = answer("co-signed payment", held, "200", "422 policy_violation",
                    "422 insufficient_funds", "409 invalid_state");
            if (answer.isEmpty()) {
                return;
            }
            if (!answer.get().equals("200")) {
                countRefusal(answer.get(), held.get(), ROLLING_CAPS);
                return;
            }
            JsonNode tx = held.get().json();
            if (!tx.path("status").asText().equals("pending_co_sign")) {
                unexpected.add("a payment of " + Usdc.ofMicros(amount) + " at or above the threshold (or with the intent)"
                        + " was not held: " + held.get());
                return;
            }
            count("held for co-sign");
            int decision = random.nextInt(100);
            String txId = tx.path("tx_id").asText();
            if (decision < 60) {
                answer("co-sign", coSign(txId, tx), "200", "409 invalid_state")
                        .ifPresent(code -> count(code.equals("200") ? "co-signed" : "co-sign refused"));
            } else if (decision < 85) {
                answer("reject", reject(txId), "200", "409 invalid_state")
                        .filter("200"::equals).ifPresent(code -> count("rejected"));
            } else {
                count("left for co-sign");
            }
        }

        private void escrow(Agent agent) {
            Optional<Long> threshold = agent.policy().coSignFromMicros();
            boolean overThreshold = threshold.isPresent() && random.nextInt(16) == 0;
            long amount = overThreshold ? threshold.get()
                    : 10 * CENT + amountUpTo(agent.policy().plainLimitMicros() - 10 * CENT);
            String task = "task " + seed + "-" + index + "-" + ++keys;
            String proof = ApiFixtures.sha256Hex(task);
            String to = random.nextBoolean() ? otherAgent(agent).id() : externalAddress();
            int fate = random.nextInt(100);
            boolean leftToTimeOut = fate >= 75;
            // Long enough for the client to complete or dispute it first, unless it is left to time out.
            int timeoutSeconds = leftToTimeOut ? 2 + random.nextInt(3) : 8 + random.nextInt(5);
            Map<String, Object> lock = body("from_wallet", agent.id(), "to_wallet", to,
                    "amount", Usdc.ofMicros(amount).toString(), "currency", "USDC", "task_description", task,
                    "timeout_seconds", timeoutSeconds, "expected_proof", proof);
            Optional<ApiResponse> locked = send(false, () -> client.call("POST", "/payments/a2a")
                    .key(agent.token()).body(lock));
            Optional<String> answer = answer("escrow lock", locked, "200", "422 policy_violation",
                    "422 insufficient_funds", "409 invalid_state");
            if (answer.isEmpty()) {
                return;
            }
            if (!answer.get().equals("200")) {
                countRefusal(answer.get(), locked.get(), overThreshold ? AT_THRESHOLD : ROLLING_CAPS);
                return;
            }
            if (overThreshold) {
                unexpected.add("an escrow at the co-sign threshold was locked: " + locked.get());
            }
            count("escrow locked");
            String path = "/payments/a2a/" + locked.get().text("id");
            if (leftToTimeOut) {
                count("left to time out");
            } else if (fate < 45) {
                if (fate >= 35) {
                    answer("complete with a wrong proof", complete(path, ApiFixtures.sha256Hex("not " + task)),
                            "422 proof_mismatch", "409 invalid_state")
                            .filter("422 proof_mismatch"::equals).ifPresent(code -> count("proof mismatch"));
                }
                answer("complete", complete(path, proof), "200", "409 invalid_state")
                        .ifPresent(code -> count(code.equals("200") ? "escrow released" : "escrow too late"));
            } else {
                Optional<String> disputed = answer("dispute", state(() -> client.call("POST", path + "/dispute")
                        .key(org.adminKey()).body(body("reason", "the output is wrong",
                                "evidence", ApiFixtures.sha256Hex("evidence " + task)))), "200", "409 invalid_state");
                if (disputed.filter("200"::equals).isEmpty()) {
                    disputed.ifPresent(code -> count("escrow too late"));
                    return;
                }
                count("escrow disputed");
                if (random.nextInt(5) == 0) {
                    count("left disputed");
                    return;
                }
                String outcome = random.nextBoolean() ? "release" : "refund";
                answer("resolve", state(() -> client.call("POST", path + "/resolve").key(org.operatorKey())
                        .body(body("outcome", outcome))), "200", "409 invalid_state")
                        .filter("200"::equals).ifPresent(code -> count("resolved " + outcome));
            }
        }

        private void fund(Agent agent) {
            long amount = USDC + random.nextInt(2900) * CENT;
            answer("fund", send(false, () -> client.call("POST", "/wallets/" + agent.id() + "/fund")
                    .key(org.adminKey()).body(body("amount", Usdc.ofMicros(amount).toString(), "currency", "USDC"))),
                    "200").ifPresent(code -> count("fund"));
        }

        private void withdraw(Agent agent) {
            long amount = 50 * CENT + random.nextInt(750) * CENT;
            answer("withdraw", send(false, () -> client.call("POST", "/wallets/" + agent.id() + "/withdraw")
                    .key(org.adminKey()).body(body("amount", Usdc.ofMicros(amount).toString()))),
                    "200", "422 insufficient_funds")
                    .ifPresent(code -> count(code.equals("200") ? "withdraw" : "insufficient funds"));
        }

        /** Freezes the wallet, tries a payment while it is frozen (other clients may unfreeze it first), unfreezes it. */
        private void freezeAndUnfreeze(Agent agent) {
            if (setStatus(agent, "frozen")) {
                count("freeze");
            }
            plainPayment(agent);
            if (setStatus(agent, "active")) {
                count("unfreeze");
            }
        }

        private boolean setStatus(Agent agent, String status) {
            return answer("status " + status, state(() -> client.call("PATCH", "/wallets/" + agent.id())
                    .key(org.operatorKey()).body(body("status", status))), "200").isPresent();
        }

        /** A keyed payment; answers the code of its answer, after counting it. */
        private Optional<String> pay(Agent agent, String to, long amount, boolean intent, Set<String> rules) {
            Optional<ApiResponse> paid = payment(agent, to, amount, intent, nextKey());
            Optional<String> answer = answer("payment", paid, "200", "422 policy_violation",
                    "422 insufficient_funds", "409 invalid_state");
            answer.ifPresent(code -> {
                if (code.equals("200")) {
                    count("pay");
                } else {
                    countRefusal(code, paid.get(), rules);
                }
            });
            return answer;
        }

        private Optional<ApiResponse> payment(Agent agent, String to, long amount, boolean intent, String key) {
            Map<String, Object> body = ApiFixtures.payment(agent.id(), to, Usdc.ofMicros(amount).toString());
            body.put("memo", key);
            body.put("idempotency_key", key);
            if (intent) {
                body.put("require_co_sign", true);
            }
            Optional<ApiResponse> paid = send(true, () -> client.call("POST", "/payments").key(agent.token())
                    .body(body));
            payments.add(new KeyedPayment(key, agent.id(), to, amount, paid.map(Workload::outcome).orElse(Outcome.UNKNOWN),
                    paid.filter(response -> response.status() == 200).map(response -> response.text("tx_id"))));
            return paid;
        }

        private void countRefusal(String code, ApiResponse refusal, Set<String> rules) {
            switch (code) {
                case "422 insufficient_funds" -> count("insufficient funds");
                case "409 invalid_state" -> count("refused frozen");
                default -> {
                    String rule = refusal.json().path("error").path("violation").path("rule").asText();
                    if (!rules.contains(rule)) {
                        unexpected.add("blocked by " + rule + " where only " + rules + " may block: " + refusal);
                    }
                    count("blocked " + rule);
                }
            }
        }

        private String nextKey() {
            return "pay-" + seed + "-" + index + "-" + ++keys;
        }

        /** An outside address, a sink, or another agent's wallet. */
        private String recipient(Agent agent) {
            int roll = random.nextInt(100);
            return roll < 20 ? otherAgent(agent).address() : externalOrSink();
        }

        private String externalOrSink() {
            return random.nextInt(100) < 45 ? sinks.get(random.nextInt(sinks.size())).address() : externalAddress();
        }

        private Agent otherAgent(Agent agent) {
            Agent other = agents.get(random.nextInt(agents.size()));
            return other.equals(agent) ? agents.get((agents.indexOf(agent) + 1) % agents.size()) : other;
        }

        /** A fresh ledger address from the client's seeded source: 32 bytes in base58. */
        private String externalAddress() {
            byte[] bytes = new byte[32];
            random.nextBytes(bytes);
            return Base58.encode(bytes);
        }

        /** At least a micro-USDC and at most {@code limit}, sometimes with all six decimals. */
        private long amountUpTo(long limitMicros) {
            long cents = 1 + random.nextInt((int) (limitMicros / CENT));
            long micros = random.nextInt(4) == 0 ? cents * CENT - random.nextInt((int) CENT) : cents * CENT;
            return Math.max(1, Math.min(micros, limitMicros));
        }
    }

    // ---------------------------------------------------------------- requests

    private Optional<ApiResponse> coSign(String txId, JsonNode tx) {
        String signature = fixtures.coSign(tx.path("co_sign_payload").asText());
        return state(() -> client.call("POST", "/payments/" + txId + "/co-sign").key(org.operatorKey())
                .body(body("signature", signature)));
    }

    private Optional<ApiResponse> reject(String txId) {
        return state(() -> client.call("POST", "/payments/" + txId + "/reject").key(org.operatorKey())
                .body(body("reason", "declined by the workload")));
    }

    private Optional<ApiResponse> complete(String escrowPath, String proof) {
        return state(() -> client.call("POST", escrowPath + "/complete").key(org.adminKey())
                .body(body("proof_type", "output_hash", "proof", proof)));
    }

    /** A state change: repeated until answered, since a repeat cannot apply it twice. */
    private Optional<ApiResponse> state(Supplier<ApiClient.Call> call) {
        return send(true, call);
    }

    /**
     * Sends the request until it is answered below 500. A request that is not {@code repeatable} is
     * sent again only when it never reached the server; otherwise the answer is empty (ambiguous).
     */
    private Optional<ApiResponse> send(boolean repeatable, Supplier<ApiClient.Call> call) {
        long giveUp = System.nanoTime() + RETRY_LIMIT.toNanos();
        long backoffMillis = 50;
        while (true) {
            boolean neverSent = false;
            try {
                ApiResponse response = call.get().send();
                if (response.status() < 500) {
                    answered.increment();
                    return Optional.of(response);
                }
                serverErrors.add(response.toString());
            } catch (IllegalStateException failed) {
                if (!(failed.getCause() instanceof IOException io)) {
                    throw failed;
                }
                neverSent = refused(io);
            }
            if (!repeatable && !neverSent) {
                ambiguous.increment();
                return Optional.empty();
            }
            if (System.nanoTime() > giveUp) {
                unexpected.add("no answer within " + RETRY_LIMIT);
                return Optional.empty();
            }
            retried.increment();
            pause(backoffMillis);
            backoffMillis = Math.min(backoffMillis * 2, 1000);
        }
    }

    /** Whether the request failed before any byte reached the server: nobody listened on the port. */
    private static boolean refused(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException || cause instanceof HttpConnectTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The answer's code ({@code "200"}, {@code "422 policy_violation"}, ...) when it is one of
     * {@code allowed}; anything else is recorded as unexpected and answers empty.
     */
    private Optional<String> answer(String what, Optional<ApiResponse> response, String... allowed) {
        if (response.isEmpty()) {
            return Optional.empty();
        }
        String code = response.get().status() == 200 ? "200"
                : response.get().status() + " " + response.get().errorCode();
        if (List.of(allowed).contains(code)) {
            return Optional.of(code);
        }
        unexpected.add(what + ": " + response.get());
        return Optional.empty();
    }

    private static Outcome outcome(ApiResponse response) {
        if (response.status() == 200) {
            return Outcome.BOOKED;
        }
        if (response.errorCode().equals("policy_violation")) {
            return Outcome.BLOCKED;
        }
        return Outcome.REFUSED;
    }

    private void count(String label) {
        counts.computeIfAbsent(label, ignored -> new LongAdder()).increment();
    }

    static long micros(String amount) {
        return Usdc.parse(amount).micros();
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
