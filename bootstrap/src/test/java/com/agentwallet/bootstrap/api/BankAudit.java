package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.persistence.EmbeddedDatabase;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static com.agentwallet.bootstrap.api.ApiFixtures.body;

/**
 * The books after a {@link Workload}, checked through the API and, where the API has no read (the
 * treasury, the deposits, the outbox), the server's embedded PostgreSQL. {@link #watch} subscribes a
 * real local HTTPS receiver to every event before the workload starts; {@link #check} waits until
 * nothing is in flight (no transaction {@code pending} or awaiting its co-signature, no escrow still
 * {@code locked}, two reads of the API in a row alike), then fails with every broken invariant at once:
 * <ul>
 *   <li>money: treasury + wallet balances + co-sign holds + escrowed + paid out (confirmed payments
 *       and escrow releases to addresses outside the organisation) = deposits, to the micro-USDC, and
 *       no balance is negative;</li>
 *   <li>each wallet's balance is what its history makes it (fundings, refunds and confirmed money
 *       received, less what it paid, held, locked or withdrew);</li>
 *   <li>caps: for every spend of every wallet, at the moment it was booked, the per-transaction cap
 *       and the rolling 24 h, 30 day and 60 minute (velocity) windows, recomputed from the
 *       transactions' own timestamps: what counts is payments held, pending or confirmed and escrow
 *       locks, each from its timestamp until it was given back (rejected, expired or failed: its
 *       {@code updated_at}; a refunded escrow: its refund's timestamp);</li>
 *   <li>each idempotency key is one transaction at most, with the amount, wallet and recipient its
 *       client asked for and the outcome it was told; each sink holds exactly the distinct payments
 *       confirmed to it;</li>
 *   <li>events: every event in the outbox since the subscription is delivered (at least once, dropped
 *       duplicates by id) within a bounded wait (2 minutes without a delivery, 10 in all), nothing
 *       else is, what happened after something else first arrives after it (see {@link #checkOrder}), every transaction, escrow and wallet has the
 *       events its state implies, and each wallet's freezes and unfreezes alternate and end in its status.</li>
 * </ul>
 */
final class BankAudit implements AutoCloseable {
    private static final Duration STILL_LIMIT = Duration.ofMinutes(2);
    /** How long the audit waits for the next delivery: a delivery that stalls this long fails it. */
    private static final Duration DELIVERY_LIMIT = Duration.ofMinutes(2);
    /**
     * How long it waits in all while deliveries keep arriving: one webhook receives one event at a
     * time, so a long run on a loaded machine may leave thousands to deliver after the workload.
     */
    private static final Duration DELIVERY_CEILING = Duration.ofMinutes(10);
    private static final String KEY_STORE_PASSWORD = "agent-wallet-test";
    private static final Duration DAY = Duration.ofHours(24);
    private static final Duration MONTH = Duration.ofDays(30);
    private static final Duration HOUR = Duration.ofMinutes(60);
    private static final int PROBLEMS_SHOWN = 40;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Events the service writes while it holds their wallet's row lock. */
    private static final Set<String> UNDER_WALLET_LOCK = Set.of("wallet.created", "wallet.funded", "wallet.frozen",
            "wallet.unfrozen", "wallet.archived", "balance.low", "policy.expired", "transaction.pending",
            "transaction.co_sign_required", "transaction.blocked", "escrow.created", "escrow.refunded");

    private final ApiFixtures fixtures;
    private final Database database;
    private final WebhookReceiver receiver;
    private final String webhookId;
    /** Deliveries parsed so far, by event id, in the order of their first arrival. */
    private final Map<String, Delivered> delivered = new LinkedHashMap<>();
    private int posts;

    /** What the audit found, in micro-USDC and counts; {@link #line()} is the figures' part of a suite's line. */
    record Figures(long depositsMicros, long treasuryMicros, long walletsMicros, long heldMicros, long escrowedMicros,
                   long paidOutMicros, long moneyLostMicros, int transactions, int events, int delivered, int posts,
                   int keyedPayments, long paidTwice) {
        /**
         * {@code 5123 transactions, 3200 keyed payments, 0 paid twice, events 6021/6021 delivered
         * (6100 POSTs), money lost: 0}.
         */
        String line() {
            return transactions + " transactions, " + keyedPayments + " keyed payments, " + paidTwice
                    + " paid twice, events " + delivered + "/" + events + " delivered (" + posts + " POSTs), money lost: "
                    + usdc(moneyLostMicros);
        }
    }

    private BankAudit(ApiFixtures fixtures, Database database, WebhookReceiver receiver, String webhookId) {
        this.fixtures = fixtures;
        this.database = database;
        this.receiver = receiver;
        this.webhookId = webhookId;
    }

    /**
     * Starts a local HTTPS receiver (with the server's own certificate, from {@code dataDirectory})
     * and subscribes it to every event of the organisation; before the workload, so that every event
     * it causes is delivered. Close it after.
     */
    static BankAudit watch(ApiClient client, DemoOrg org, Path dataDirectory) {
        return watch(client, org, dataDirectory.resolve("tls/localhost.p12"), Database.embeddedIn(dataDirectory));
    }

    /**
     * As {@link #watch(ApiClient, DemoOrg, Path)}, for servers whose certificate is {@code keyStore}
     * and whose books are in {@code database}.
     */
    static BankAudit watch(ApiClient client, DemoOrg org, Path keyStore, Database database) {
        WebhookReceiver receiver = new WebhookReceiver(keyStore, KEY_STORE_PASSWORD);
        ApiResponse webhook = client.post("/webhooks", org.adminKey(), body("url", receiver.url(), "events", "*"));
        if (webhook.status() != 200) {
            receiver.close();
            throw new IllegalStateException("the audit's webhook was not created: " + webhook);
        }
        return new BankAudit(new ApiFixtures(client, org), database, receiver, webhook.text("webhook_id"));
    }

    /**
     * The servers' PostgreSQL, as its superuser: the URL is read when the books are, since a
     * restarted server's embedded PostgreSQL may listen elsewhere.
     */
    record Database(Supplier<String> url, String password) {
        /** The embedded PostgreSQL of the server whose data directory is {@code data}. */
        static Database embeddedIn(Path data) {
            return new Database(() -> BooksAndChain.databaseUrl(data), BooksAndChain.databasePassword(data));
        }
    }

    /** Waits until the books are still, audits them and the events, and fails listing every broken invariant. */
    Figures check(Workload.Report report) {
        List<String> problems = new ArrayList<>();
        report.unexpected().forEach(answer -> problems.add("unexpected answer: " + answer));
        report.serverErrors().forEach(answer -> problems.add("5xx answer: " + answer));
        Api api = readAtRest();
        Books books = readBooks();
        long moneyLost = checkMoney(api, books, problems);
        checkHistories(api, problems);
        checkCaps(api, problems);
        long paidTwice = checkKeys(api, report, problems);
        checkSinks(api, report, problems);
        checkEvents(api, books, problems);
        Figures figures = new Figures(books.depositsMicros(), books.treasuryMicros(), api.walletsMicros(),
                api.heldMicros(), api.escrowedMicros(), api.paidOutMicros(), moneyLost, api.transactions().size(),
                books.events().size(), books.events().size() - undelivered(books).size(), posts,
                report.payments().size(), paidTwice);
        if (!problems.isEmpty()) {
            throw new AssertionError(problems.size() + " broken invariant(s) after seed " + report.seed() + " ("
                    + figures.line() + "; deposits " + usdc(figures.depositsMicros()) + " = treasury "
                    + usdc(figures.treasuryMicros()) + " + wallets " + usdc(figures.walletsMicros()) + " + held "
                    + usdc(figures.heldMicros()) + " + escrowed " + usdc(figures.escrowedMicros()) + " + paid out "
                    + usdc(figures.paidOutMicros()) + " + lost):\n  "
                    + String.join("\n  ", problems.subList(0, Math.min(PROBLEMS_SHOWN, problems.size())))
                    + (problems.size() > PROBLEMS_SHOWN ? "\n  ..." : ""));
        }
        return figures;
    }

    @Override
    public void close() {
        receiver.close();
    }

    // ---------------------------------------------------------------- reading

    private record Tx(String id, String type, String status, String walletId, long amountMicros, String recipient,
                      Optional<String> memo, boolean policyTriggered, Optional<String> escrowId, Instant at,
                      Instant updatedAt) {
        static Tx of(JsonNode json) {
            return new Tx(json.path("tx_id").asText(), json.path("type").asText(), json.path("status").asText(),
                    json.path("wallet_id").asText(), Workload.micros(json.path("amount").asText()),
                    json.path("recipient").asText(), text(json, "memo"), json.path("policy_triggered").asBoolean(),
                    text(json, "escrow_id"), Instant.parse(json.path("timestamp").asText()),
                    Instant.parse(json.path("updated_at").asText()));
        }

        boolean is(String type, String... statuses) {
            return this.type.equals(type) && List.of(statuses).contains(status);
        }
    }

    private record Wallet(String id, String address, String status, long balanceMicros, String policyId) {
        static Wallet of(JsonNode json) {
            return new Wallet(json.path("id").asText(), json.path("solana_address").asText(), json.path("status").asText(),
                    Workload.micros(json.path("usdc_balance").asText()), json.path("policy_id").asText());
        }
    }

    private record Escrow(String id, String status, long amountMicros, boolean disputed) {
        static Escrow of(JsonNode json) {
            return new Escrow(json.path("id").asText(), json.path("status").asText(),
                    Workload.micros(json.path("amount").asText()), json.path("dispute").isObject());
        }
    }

    private record Caps(Optional<Long> perTxMicros, Optional<Long> perDayMicros, Optional<Long> perMonthMicros,
                        Optional<Integer> velocity) {
        static Caps of(JsonNode json) {
            return new Caps(amount(json, "max_per_tx"), amount(json, "max_per_day"), amount(json, "max_per_month"),
                    json.path("velocity_cap").isInt() ? Optional.of(json.path("velocity_cap").asInt()) : Optional.empty());
        }

        private static Optional<Long> amount(JsonNode json, String field) {
            return text(json, field).map(Workload::micros);
        }
    }

    /** The organisation as the API shows it once still. */
    private record Api(List<Wallet> wallets, List<Tx> transactions, List<Escrow> escrows, Map<String, Caps> policies) {
        Set<String> addresses() {
            return wallets.stream().map(Wallet::address).collect(Collectors.toSet());
        }

        long walletsMicros() {
            return wallets.stream().mapToLong(Wallet::balanceMicros).sum();
        }

        long heldMicros() {
            return transactions.stream().filter(tx -> tx.is("payment", "pending_co_sign"))
                    .mapToLong(Tx::amountMicros).sum();
        }

        long escrowedMicros() {
            return escrows.stream().filter(escrow -> escrow.status().equals("locked") || escrow.status().equals("disputed"))
                    .mapToLong(Escrow::amountMicros).sum();
        }

        /** Confirmed payments and releases to addresses that are not wallets of the organisation: money that left it. */
        long paidOutMicros() {
            Set<String> inside = addresses();
            return transactions.stream()
                    .filter(tx -> tx.is("payment", "confirmed") || tx.is("escrow_release", "confirmed"))
                    .filter(tx -> !inside.contains(tx.recipient())).mapToLong(Tx::amountMicros).sum();
        }
    }

    /** One event of the outbox. */
    private record StoredEvent(String id, long seq, String type, Optional<String> walletId) {
    }

    /** What only the database holds: the treasury, the deposits made to it, and the events since the subscription. */
    private record Books(long treasuryMicros, long depositsMicros, List<StoredEvent> events) {
    }

    /** An event as the receiver first got it. */
    private record Delivered(String event, JsonNode body, int firstArrival) {
    }

    /**
     * The organisation as the API shows it once nothing moves: no escrow locked, no transaction
     * awaiting its co-signature or pending, and two reads in a row that agree. A read takes many
     * requests, and money that moved while it ran (a refund the clockwork settled between the
     * wallets' page and the transactions') would be on one side of it and not the other.
     */
    private Api readAtRest() {
        AtomicReference<Api> previous = new AtomicReference<>();
        return Eventually.await(STILL_LIMIT, () -> "the books did not come to rest: " + moving(), () -> {
            if (!moving().isEmpty()) {
                previous.set(null);
                return Optional.empty();
            }
            Api read = readApi();
            return read.equals(previous.getAndSet(read)) ? Optional.of(read) : Optional.empty();
        });
    }

    /**
     * What is still moving, asked in the order money moves on its own: an escrow times out into a
     * pending refund, and a payment leaves its co-signature's wait as pending; so nothing that moved
     * out of a state already asked about can be missed by a later question.
     */
    private String moving() {
        List<String> moving = new ArrayList<>();
        for (String query : List.of("/payments/a2a?limit=100&status=locked",
                "/transactions?limit=100&status=pending_co_sign", "/transactions?limit=100&status=pending")) {
            int count = ApiFixtures.items(fixtures.client().get(query, fixtures.org().viewerKey())).size();
            if (count > 0) {
                moving.add(count + " from " + query);
            }
        }
        return String.join(", ", moving);
    }

    private Api readApi() {
        List<Wallet> wallets = fixtures.all("/wallets?limit=100").stream().map(Wallet::of).toList();
        List<Tx> transactions = fixtures.all("/transactions?limit=100").stream().map(Tx::of).toList();
        List<Escrow> escrows = fixtures.all("/payments/a2a?limit=100").stream().map(Escrow::of).toList();
        Map<String, Caps> policies = new HashMap<>();
        for (Wallet wallet : wallets) {
            policies.computeIfAbsent(wallet.policyId(), id -> {
                ApiResponse policy = fixtures.client().get("/policies/" + id, fixtures.org().viewerKey());
                if (policy.status() != 200) {
                    throw new IllegalStateException("policy " + id + " unreadable: " + policy);
                }
                return Caps.of(policy.json());
            });
        }
        return new Api(wallets, transactions, escrows, policies);
    }

    /** One read-only snapshot of what the API does not show, from the server's embedded PostgreSQL. */
    private Books readBooks() {
        try (Connection db = DriverManager.getConnection(database.url().get(), EmbeddedDatabase.USER, database.password())) {
            db.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            db.setReadOnly(true);
            db.setAutoCommit(false);
            long treasury = single(db, "SELECT balance_micros FROM organisations WHERE id = ?");
            long deposits = 0;
            try (PreparedStatement query = db.prepareStatement(
                    "SELECT body->>'amount' FROM outbox_events WHERE org_id = ? AND type = 'org.deposit_confirmed'")) {
                query.setString(1, fixtures.org().id());
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        deposits += Workload.micros(rows.getString(1));
                    }
                }
            }
            List<StoredEvent> events = new ArrayList<>();
            try (PreparedStatement query = db.prepareStatement("SELECT e.id, e.seq, e.type, e.wallet_id"
                    + " FROM outbox_events e JOIN webhooks w ON w.org_id = e.org_id"
                    + " WHERE w.id = ? AND e.created_at >= w.created_at ORDER BY e.seq")) {
                query.setString(1, webhookId);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        events.add(new StoredEvent(rows.getString(1), rows.getLong(2), rows.getString(3),
                                Optional.ofNullable(rows.getString(4))));
                    }
                }
            }
            db.commit();
            return new Books(treasury, deposits, events);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the books from " + database.url().get(), e);
        }
    }

    private long single(Connection db, String sql) throws SQLException {
        try (PreparedStatement query = db.prepareStatement(sql)) {
            query.setString(1, fixtures.org().id());
            try (ResultSet rows = query.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalStateException("no row for " + sql);
                }
                return rows.getLong(1);
            }
        }
    }

    // ---------------------------------------------------------------- money

    /** Checks the conservation of money and answers what is missing from it (negative: money made from nothing). */
    private static long checkMoney(Api api, Books books, List<String> problems) {
        long accounted = books.treasuryMicros() + api.walletsMicros() + api.heldMicros() + api.escrowedMicros()
                + api.paidOutMicros();
        long lost = books.depositsMicros() - accounted;
        if (lost != 0) {
            problems.add("money: deposits " + usdc(books.depositsMicros()) + " but treasury, wallets, holds, escrows"
                    + " and payouts add up to " + usdc(accounted));
        }
        if (books.treasuryMicros() < 0) {
            problems.add("the treasury is negative: " + usdc(books.treasuryMicros()));
        }
        api.wallets().stream().filter(wallet -> wallet.balanceMicros() < 0)
                .forEach(wallet -> problems.add("wallet " + wallet.id() + " is negative: " + usdc(wallet.balanceMicros())));
        return lost;
    }

    /** Each wallet's balance recomputed from the history: what came in, less what went out or is held. */
    private static void checkHistories(Api api, List<String> problems) {
        Map<String, String> walletOfAddress = api.wallets().stream().collect(Collectors.toMap(Wallet::address, Wallet::id));
        Map<String, Long> expected = new HashMap<>();
        for (Tx tx : api.transactions()) {
            long change = 0;
            if (tx.is("funding", "confirmed") || tx.is("escrow_refund", "confirmed")) {
                change = tx.amountMicros();
            } else if (tx.is("payment", "pending_co_sign", "pending", "confirmed")
                    || tx.is("withdrawal", "pending", "confirmed") || tx.is("escrow_lock", "pending", "confirmed")) {
                change = -tx.amountMicros();
            }
            expected.merge(tx.walletId(), change, Long::sum);
            boolean received = tx.is("payment", "confirmed") || tx.is("escrow_release", "confirmed");
            if (received && walletOfAddress.containsKey(tx.recipient())) {
                expected.merge(walletOfAddress.get(tx.recipient()), tx.amountMicros(), Long::sum);
            }
        }
        for (Wallet wallet : api.wallets()) {
            long fromHistory = expected.getOrDefault(wallet.id(), 0L);
            if (fromHistory != wallet.balanceMicros()) {
                problems.add("wallet " + wallet.id() + " holds " + usdc(wallet.balanceMicros()) + " but its history makes "
                        + usdc(fromHistory));
            }
        }
    }

    // ---------------------------------------------------------------- caps

    /** A spend counted toward the caps from its transaction's timestamp until {@code givenBack} (if ever). */
    private record Spend(Tx tx, Optional<Instant> givenBack) {
        Instant at() {
            return tx.at();
        }

        boolean countsAt(Instant moment, Duration window) {
            Instant at = at();
            return at.isAfter(moment.minus(window)) && !at.isAfter(moment)
                    && givenBack.filter(back -> !back.isAfter(moment)).isEmpty();
        }
    }

    private static void checkCaps(Api api, List<String> problems) {
        Map<String, Instant> refunded = api.transactions().stream().filter(tx -> tx.type().equals("escrow_refund"))
                .filter(tx -> tx.escrowId().isPresent())
                .collect(Collectors.toMap(tx -> tx.escrowId().get(), Tx::at, (first, second) -> first));
        Map<String, List<Spend>> spends = new HashMap<>();
        for (Tx tx : api.transactions()) {
            if (!tx.type().equals("payment") && !tx.type().equals("escrow_lock") || tx.status().equals("blocked")) {
                continue;
            }
            Optional<Instant> givenBack = List.of("rejected", "expired", "failed").contains(tx.status())
                    ? Optional.of(tx.updatedAt())
                    : tx.escrowId().map(refunded::get);
            spends.computeIfAbsent(tx.walletId(), id -> new ArrayList<>()).add(new Spend(tx, givenBack));
        }
        for (Wallet wallet : api.wallets()) {
            Caps caps = api.policies().get(wallet.policyId());
            List<Spend> walletSpends = spends.getOrDefault(wallet.id(), List.of());
            for (Spend spend : walletSpends) {
                String booked = spend.tx().type() + " " + spend.tx().id() + " of " + wallet.id() + " at " + spend.at();
                caps.perTxMicros().filter(cap -> spend.tx().amountMicros() > cap).ifPresent(cap -> problems.add(
                        booked + " is " + usdc(spend.tx().amountMicros()) + ", over max_per_tx " + usdc(cap)));
                checkWindow(booked, "max_per_day", caps.perDayMicros(), walletSpends, spend.at(), DAY, problems);
                checkWindow(booked, "max_per_month", caps.perMonthMicros(), walletSpends, spend.at(), MONTH, problems);
                caps.velocity().ifPresent(cap -> {
                    long count = walletSpends.stream().filter(other -> other.countsAt(spend.at(), HOUR)).count();
                    if (count > cap) {
                        problems.add(booked + " made " + count + " spends in 60 minutes, over velocity_cap " + cap);
                    }
                });
            }
        }
    }

    private static void checkWindow(String booked, String rule, Optional<Long> cap, List<Spend> spends, Instant moment,
                                    Duration window, List<String> problems) {
        if (cap.isEmpty()) {
            return;
        }
        long total = spends.stream().filter(other -> other.countsAt(moment, window))
                .mapToLong(other -> other.tx().amountMicros()).sum();
        if (total > cap.get()) {
            problems.add(booked + " made the window " + usdc(total) + ", over " + rule + " " + usdc(cap.get()));
        }
    }

    // ---------------------------------------------------------------- keys and recipients

    /** Each key at most one transaction, as its client was told; answers how many keys paid more than once. */
    private static long checkKeys(Api api, Workload.Report report, List<String> problems) {
        Map<String, List<Tx>> byKey = api.transactions().stream()
                .filter(tx -> tx.type().equals("payment") && tx.memo().isPresent())
                .collect(Collectors.groupingBy(tx -> tx.memo().get()));
        Set<String> asked = new HashSet<>();
        for (Workload.KeyedPayment payment : report.payments()) {
            asked.add(payment.key());
            List<Tx> found = byKey.getOrDefault(payment.key(), List.of());
            String expected = switch (payment.outcome()) {
                case BOOKED -> found.size() == 1 && payment.txId().equals(Optional.of(found.get(0).id()))
                        && !found.get(0).status().equals("blocked") ? "" : "one transaction " + payment.txId().orElse("?");
                case BLOCKED -> found.size() == 1 && found.get(0).status().equals("blocked")
                        ? "" : "one blocked transaction";
                case REFUSED -> found.isEmpty() ? "" : "no transaction";
                case UNKNOWN -> found.size() <= 1 ? "" : "at most one transaction";
            };
            if (!expected.isEmpty()) {
                problems.add("key " + payment.key() + " (" + payment.outcome() + ") should be " + expected + ", found "
                        + found.stream().map(tx -> tx.id() + " " + tx.status()).toList());
            }
            for (Tx tx : found) {
                if (tx.amountMicros() != payment.amountMicros() || !tx.walletId().equals(payment.walletId())
                        || !tx.recipient().equals(payment.recipient())) {
                    problems.add("key " + payment.key() + " asked " + usdc(payment.amountMicros()) + " from "
                            + payment.walletId() + " to " + payment.recipient() + " but " + tx.id() + " is "
                            + usdc(tx.amountMicros()) + " from " + tx.walletId() + " to " + tx.recipient());
                }
            }
        }
        byKey.keySet().stream().filter(key -> !asked.contains(key))
                .forEach(key -> problems.add("payments under key " + key + " that no client asked for: " + byKey.get(key)));
        return byKey.values().stream().filter(found -> found.size() > 1).count();
    }

    /** Each sink received exactly the distinct payments confirmed to it, as their clients asked for them. */
    private static void checkSinks(Api api, Workload.Report report, List<String> problems) {
        Map<String, Tx> byId = api.transactions().stream().collect(Collectors.toMap(Tx::id, tx -> tx));
        for (Workload.Sink sink : report.sinks()) {
            long asked = report.payments().stream().filter(payment -> payment.recipient().equals(sink.address()))
                    .filter(payment -> payment.txId().map(byId::get)
                            .filter(tx -> tx.status().equals("confirmed")).isPresent())
                    .mapToLong(Workload.KeyedPayment::amountMicros).sum();
            long balance = api.wallets().stream().filter(wallet -> wallet.id().equals(sink.id())).findFirst()
                    .orElseThrow().balanceMicros();
            if (asked != balance) {
                problems.add("sink " + sink.id() + " holds " + usdc(balance) + " but the distinct payments confirmed to it"
                        + " add up to " + usdc(asked));
            }
        }
    }

    // ---------------------------------------------------------------- events

    private void checkEvents(Api api, Books books, List<String> problems) {
        Set<String> stored = books.events().stream().map(StoredEvent::id).collect(Collectors.toSet());
        try {
            awaitDeliveries(books, stored.size());
        } catch (AssertionError late) {
            problems.add(late.getMessage());
        }
        delivered.keySet().stream().filter(id -> !stored.contains(id))
                .forEach(id -> problems.add("event " + id + " delivered but not in the outbox: "
                        + delivered.get(id).body()));
        checkOrder(books, problems);
        checkImpliedEvents(api, problems);
        checkFreezes(api, books, problems);
    }

    /**
     * Waits until every stored event was delivered, for as long as deliveries keep arriving: it fails
     * once none arrived for {@link #DELIVERY_LIMIT}, or after {@link #DELIVERY_CEILING}.
     */
    private void awaitDeliveries(Books books, int stored) {
        long ceiling = System.nanoTime() + DELIVERY_CEILING.toNanos();
        Supplier<String> late = () -> undelivered(books).size() + " of " + stored + " events not delivered, e.g. "
                + undelivered(books).stream().limit(5).toList();
        while (true) {
            int before = delivered.size();
            Eventually.await(DELIVERY_LIMIT, late, () -> {
                parseDeliveries();
                return undelivered(books).isEmpty() || delivered.size() > before ? Optional.of(true) : Optional.empty();
            });
            if (undelivered(books).isEmpty()) {
                return;
            }
            if (System.nanoTime() > ceiling) {
                throw new AssertionError(late.get() + " after " + DELIVERY_CEILING.toMinutes() + " minutes");
            }
        }
    }

    private List<StoredEvent> undelivered(Books books) {
        return books.events().stream().filter(event -> !delivered.containsKey(event.id())).toList();
    }

    /** Reads the receiver's POSTs that arrived since the last call. */
    private void parseDeliveries() {
        List<WebhookReceiver.Received> received = receiver.received();
        for (; posts < received.size(); posts++) {
            try {
                JsonNode body = JSON.readTree(received.get(posts).body());
                delivered.putIfAbsent(body.path("id").asText(), new Delivered(body.path("event").asText(), body, posts));
            } catch (IOException e) {
                throw new IllegalStateException("a delivery is not JSON: " + received.get(posts).body(), e);
            }
        }
    }

    /**
     * The order promised to receivers: what happened after something else, as the receiver can know
     * it, first arrives after it. Two kinds of pairs are in a known order: the events of one
     * transaction or one escrow (each step starts from the committed one before), and the events
     * written while their wallet's row is locked, in the order of the outbox (the lock makes that
     * order the commit order). Other events of a wallet are written by changes that do not lock it
     * (a payment's settlement, an escrow's release or dispute, a co-sign's rejection): they are
     * concurrent with the rest and may arrive either way.
     */
    private void checkOrder(Books books, List<String> problems) {
        List<StoredEvent> arrived = books.events().stream().filter(event -> delivered.containsKey(event.id())).toList();
        Map<String, List<StoredEvent>> sequences = new HashMap<>();
        for (StoredEvent event : arrived) {
            if (UNDER_WALLET_LOCK.contains(event.type()) && event.walletId().isPresent()) {
                sequences.computeIfAbsent("wallet " + event.walletId().get(), key -> new ArrayList<>()).add(event);
            }
            JsonNode body = delivered.get(event.id()).body();
            Optional<String> subject = event.type().startsWith("escrow.") ? text(body, "escrow_id")
                    : event.type().startsWith("transaction.") ? text(body, "tx_id") : Optional.empty();
            subject.ifPresent(id -> sequences.computeIfAbsent(id, key -> new ArrayList<>()).add(event));
        }
        sequences.forEach((subject, events) -> {
            for (int i = 1; i < events.size(); i++) {
                int arrival = delivered.get(events.get(i).id()).firstArrival();
                if (arrival < delivered.get(events.get(i - 1).id()).firstArrival()) {
                    problems.add(subject + ": " + events.get(i) + " arrived before " + events.get(i - 1));
                }
            }
        });
    }

    /** The events the final state of every wallet, transaction and escrow implies were delivered. */
    private void checkImpliedEvents(Api api, List<String> problems) {
        Set<String> seen = new HashSet<>();
        delivered.values().forEach(event -> {
            for (String subject : List.of("tx_id", "escrow_id", "wallet_id")) {
                text(event.body(), subject).ifPresent(id -> seen.add(event.event() + " " + id));
            }
        });
        List<String> implied = new ArrayList<>();
        api.wallets().forEach(wallet -> implied.add("wallet.created " + wallet.id()));
        for (Tx tx : api.transactions()) {
            String id = tx.id();
            if (tx.status().equals("blocked")) {
                implied.add("transaction.blocked " + id);
            } else if (List.of("failed", "rejected", "expired").contains(tx.status())) {
                implied.add("transaction." + tx.status() + " " + id);
            }
            if (tx.is("funding", "confirmed")) {
                implied.add("wallet.funded " + id);
            } else if (tx.is("withdrawal", "confirmed")) {
                implied.add("wallet.withdrawn " + id);
            } else if (tx.type().equals("payment")) {
                if (tx.policyTriggered() && !tx.status().equals("blocked")) {
                    implied.add("transaction.co_sign_required " + id);
                }
                if (List.of("pending", "confirmed", "failed").contains(tx.status())) {
                    implied.add("transaction.pending " + id);
                }
                if (tx.status().equals("confirmed")) {
                    implied.add("transaction.completed " + id);
                }
            }
        }
        for (Escrow escrow : api.escrows()) {
            implied.add("escrow.created " + escrow.id());
            if (escrow.status().equals("released") || escrow.status().equals("refunded")) {
                implied.add("escrow." + escrow.status() + " " + escrow.id());
            }
            if (escrow.disputed()) {
                implied.add("escrow.disputed " + escrow.id());
            }
        }
        implied.stream().filter(event -> !seen.contains(event)).forEach(event -> problems.add("no delivery of " + event));
    }

    /** Per wallet, in outbox order: frozen, unfrozen, frozen, ... ending in the wallet's status. */
    private static void checkFreezes(Api api, Books books, List<String> problems) {
        for (Wallet wallet : api.wallets()) {
            List<String> changes = books.events().stream()
                    .filter(event -> event.walletId().equals(Optional.of(wallet.id())))
                    .map(StoredEvent::type).filter(type -> type.equals("wallet.frozen") || type.equals("wallet.unfrozen"))
                    .toList();
            for (int i = 0; i < changes.size(); i++) {
                if (!changes.get(i).equals(i % 2 == 0 ? "wallet.frozen" : "wallet.unfrozen")) {
                    problems.add("wallet " + wallet.id() + " status events do not alternate: " + changes);
                    break;
                }
            }
            boolean frozen = changes.size() % 2 == 1;
            if (frozen != wallet.status().equals("frozen")) {
                problems.add("wallet " + wallet.id() + " is " + wallet.status() + " after " + changes.size()
                        + " status events");
            }
        }
    }

    // ---------------------------------------------------------------- values

    private static Optional<String> text(JsonNode json, String field) {
        JsonNode value = json.path(field);
        return value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
    }

    /** Micro-USDC as a decimal string, signed: {@code 0}, {@code -1.5}. */
    static String usdc(long micros) {
        return BigDecimal.valueOf(micros, 6).stripTrailingZeros().toPlainString();
    }
}
