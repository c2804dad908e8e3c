package com.agentwallet.bootstrap.api;

import com.agentwallet.bootstrap.api.Endpoints.Endpoint;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.testing.TestSeed;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static com.agentwallet.bootstrap.api.ApiFixtures.unknownId;
import static com.agentwallet.bootstrap.api.ApiFixtures.usdc;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An agent holding only its wallet's session token sends a long seeded random sequence of requests
 * to every endpoint: bodies mutated field by field, other wallets' and organisations' ids put in
 * paths, bodies and filters, other agents' tokens in {@code Session-Token}. Afterwards nothing it
 * may not change has changed: no policy, webhook, recipient category or key, no other wallet of
 * either organisation (balance, history, settings), and its own wallet only by the payments and
 * escrows its policy allowed, with its settings and its token as they were. The seed is fixed and
 * printed ({@link TestSeed}).
 */
class AgentTokenRandomizedTest {
    private static final int REQUESTS = 700;
    private static final String MAX_PER_TX = "50.00";
    private static final String MAX_PER_DAY = "400.00";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-zA-Z]+)}");
    private static final Set<String> WALLET_PLACES = Set.of("wallet", "patchWallet", "rotateWallet", "deleteWallet");
    private static final Set<String> TX_PLACES = Set.of("pendingTx", "rejectTx");
    private static final Set<String> ESCROW_PLACES = Set.of("escrow", "completeEscrow", "disputeEscrow",
            "disputedEscrow");
    /** Amounts within the caps, over max_per_tx, and at or above the co-sign threshold. */
    private static final List<String> AMOUNTS = List.of("0.50", "12.00", "49.99", "50.00", "50.01", "99.00",
            "100.00", "250.00");
    private static final List<String> EXTRA_FIELDS = List.of("wallet_id", "from_wallet", "to_wallet", "policy_id",
            "status", "label", "amount", "max_per_tx", "max_per_day", "require_co_sign", "co_signer", "org_id",
            "owner_org", "enabled", "topup_amount", "ttl_seconds", "events", "url", "outcome", "category", "role");

    private static ApiServer server;
    private static ApiClient client;
    private static DemoOrg org;
    private static DemoOrg otherOrg;
    private static Endpoints catalogue;
    /** The agent under test: the catalogue's payer, whose resources every placeholder names by default. */
    private static ApiFixtures.Wallet agent;
    private static ApiFixtures.Wallet sibling;
    private static ApiFixtures.Wallet foreign;
    /** Ids of the sibling's and the foreign wallet's own resources, by kind: wallet, tx, escrow. */
    private static final Map<String, List<String>> OTHERS = new HashMap<>();
    private static final Map<String, Integer> ANSWERS = new TreeMap<>();

    @BeforeAll
    static void aServerOfItsOwn() {
        server = ApiServer.onTestLedger();
        client = server.client();
        org = server.org();
        otherOrg = server.otherOrg();
        catalogue = Endpoints.prepare(server);
        agent = catalogue.payer();
        ApiFixtures fx = new ApiFixtures(server);
        ApiFixtures otherFx = new ApiFixtures(server, otherOrg);
        // the payer's policy gets caps, so that the run meets its rules too
        ApiResponse capped = client.patch("/policies/" + catalogue.id("policy"), org.adminKey(),
                Map.of("max_per_tx", MAX_PER_TX, "max_per_day", MAX_PER_DAY));
        assertThat(capped.status()).as(capped.toString()).isEqualTo(200);
        sibling = fx.fundedWallet("50.00");
        foreign = otherFx.fundedWallet("50.00");
        for (ApiFixtures.Wallet other : List.of(sibling, foreign)) {
            ApiFixtures owner = other == sibling ? fx : otherFx;
            OTHERS.computeIfAbsent("wallet", k -> new ArrayList<>()).add(other.id());
            OTHERS.computeIfAbsent("tx", k -> new ArrayList<>())
                    .add(owner.confirmedPayment(other, randomAddress(), "1.00").path("tx_id").asText());
            OTHERS.computeIfAbsent("escrow", k -> new ArrayList<>()).add(owner.lockedEscrow(other, "1.00"));
        }
        fx.awaitSettled(sibling.id());
        otherFx.awaitSettled(foreign.id());
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @Test
    void aSessionTokenChangesNothingButWhatItsPolicyLetsItsWalletPay() {
        long seed = TestSeed.of("AgentTokenRandomizedTest", 20_260_401L);
        Random random = new Random(seed);
        Snapshot before = Snapshot.take();

        List<Endpoint> open = Endpoints.all().stream().filter(Endpoint::agents).toList();
        for (int i = 0; i < REQUESTS; i++) {
            // half of the run on what a token may call, the rest anywhere
            List<Endpoint> from = random.nextBoolean() ? open : Endpoints.all();
            Endpoint endpoint = from.get(random.nextInt(from.size()));
            ApiResponse answer = randomRequest(random, endpoint).send();
            assertThat(answer.status()).as("seed %d, request %d: %s -> %s", seed, i, endpoint, answer)
                    .isLessThan(500).isNotEqualTo(429);
            if (!endpoint.agents()) {
                assertThat(answer.errorCode()).as("seed %d: %s is closed to agents -> %s", seed, endpoint, answer)
                        .isEqualTo("insufficient_permissions");
            }
            ANSWERS.merge(answer.status() + (answer.status() >= 400 ? " " + answer.errorCode() : ""), 1,
                    Integer::sum);
        }
        new ApiFixtures(server).awaitSettled(agent.id());
        Snapshot after = Snapshot.take();

        assertThat(after.policies()).as("policies, seed %d", seed).isEqualTo(before.policies());
        assertThat(after.webhooks()).as("webhooks, seed %d", seed).isEqualTo(before.webhooks());
        assertThat(after.categories()).as("recipient categories, seed %d", seed).isEqualTo(before.categories());
        assertThat(after.otherWallets()).as("other wallets, seed %d", seed).isEqualTo(before.otherWallets());
        assertThat(after.otherHistories()).as("other wallets' histories, seed %d", seed)
                .isEqualTo(before.otherHistories());
        assertThat(after.agentSettings()).as("the agent's wallet settings, seed %d", seed)
                .isEqualTo(before.agentSettings());
        assertThat(after.fundingsAndWithdrawals()).as("fundings and withdrawals of the agent's wallet, seed %d", seed)
                .isEqualTo(before.fundingsAndWithdrawals());
        assertThat(usdc(after.agentBalance())).as("the agent's balance is what its own history says, seed %d", seed)
                .isEqualByComparingTo(after.balanceByHistory());
        for (DemoOrg each : List.of(org, otherOrg)) {
            for (Role role : Role.values()) {
                assertThat(client.get("/wallets", each.key(role)).status()).as(role + " key of " + each.id())
                        .isEqualTo(200);
            }
        }
        assertThat(client.get("/wallets/" + agent.id(), agent.token()).status()).as("its token still works")
                .isEqualTo(200);

        List<JsonNode> history = after.agentHistory();
        List<JsonNode> run = history.subList(0, history.size() - before.agentHistory().size());
        List<JsonNode> spent = spending(run);
        BigDecimal total = sum(spent);
        assertThat(spent).as("each within max_per_tx, seed %d", seed)
                .allSatisfy(tx -> assertThat(usdc(tx.path("amount").asText())).isLessThanOrEqualTo(usdc(MAX_PER_TX)));
        assertThat(sum(spending(history))).as("the day's spending within max_per_day, seed %d", seed)
                .isLessThanOrEqualTo(usdc(MAX_PER_DAY));
        long blocked = run.stream().filter(tx -> tx.path("status").asText().equals("blocked")).count();
        System.out.printf("agent token randomized: seed %d, %d requests to %d endpoints; answers %s; its wallet "
                        + "spent %s USDC in %d payments and escrow locks within its caps, %d attempts blocked; "
                        + "nothing else changed%n", seed, REQUESTS, Endpoints.all().size(), ANSWERS, total,
                spent.size(), blocked);
    }

    /** The payments and escrow locks that count toward the caps: neither blocked nor given back. */
    private static List<JsonNode> spending(List<JsonNode> history) {
        return history.stream().filter(tx -> Set.of("payment", "escrow_lock").contains(tx.path("type").asText())
                && Set.of("pending", "confirmed", "pending_co_sign").contains(tx.path("status").asText())).toList();
    }

    private static BigDecimal sum(List<JsonNode> transactions) {
        return transactions.stream().map(tx -> usdc(tx.path("amount").asText())).reduce(BigDecimal.ZERO,
                BigDecimal::add);
    }

    /** A request of the endpoint as the agent might send it: its token, with ids and fields it should not use. */
    private static ApiClient.Call randomRequest(Random random, Endpoint endpoint) {
        String path = randomPath(random, endpoint.template());
        if (!endpoint.query().isEmpty() && random.nextInt(3) == 0) {
            path += "?wallet_id=" + pick(random, List.of(agent.id(), sibling.id(), foreign.id()));
        }
        ApiClient.Call call = client.call(endpoint.method(), path).key(agent.token());
        Object body = catalogue.validBody(endpoint);
        if (body != null) {
            call.body(mutate(random, body));
        }
        if (random.nextInt(4) == 0) {
            call.header("Session-Token", pick(random, List.of(sibling.token(), foreign.token(), agent.token())));
        }
        if (random.nextInt(6) == 0) {
            call.header("Dry-Run", "true");
        }
        return call;
    }

    /** The template with each placeholder the catalogue's id, another wallet's resource of its kind, or nothing's. */
    private static String randomPath(Random random, String template) {
        Matcher matcher = PLACEHOLDER.matcher(template);
        StringBuilder path = new StringBuilder();
        while (matcher.find()) {
            String place = matcher.group(1);
            String kind = WALLET_PLACES.contains(place) ? "wallet" : TX_PLACES.contains(place) ? "tx"
                    : ESCROW_PLACES.contains(place) ? "escrow" : null;
            int roll = random.nextInt(10);
            String id = catalogue.id(place);
            if (kind != null && roll < 4) {
                id = pick(random, OTHERS.get(kind));
            } else if (roll == 9) {
                id = kind == null ? randomAddress() : unknownId(kind.equals("tx") ? "tx_" : kind + "_");
            }
            matcher.appendReplacement(path, Matcher.quoteReplacement(id));
        }
        matcher.appendTail(path);
        return path.toString();
    }

    /** The valid body with some fields set to values of the wrong wallet, kind or sign, and some fields added. */
    @SuppressWarnings("unchecked")
    private static Object mutate(Random random, Object body) {
        if (body instanceof List<?> lines) {
            return lines.stream().map(line -> mutate(random, line)).toList();
        }
        Map<String, Object> fields = new LinkedHashMap<>((Map<String, Object>) body);
        fields.replaceAll((name, value) -> name.equals("amount") && random.nextBoolean() ? pick(random, AMOUNTS)
                : random.nextInt(5) == 0 ? randomValue(random) : value);
        if (random.nextInt(4) == 0) {
            fields.put(pick(random, EXTRA_FIELDS), randomValue(random));
        }
        return fields;
    }

    private static Object randomValue(Random random) {
        List<Object> values = new ArrayList<>(List.of("0.01", "1.00", "99.99", "100.00", "5000.00", "0", "-1",
                "1.0000001", 12, true, "frozen", "active", "archived", "", "admin", "release", "refund",
                agent.id(), sibling.id(), foreign.id(), catalogue.id("policy"), catalogue.id("patchPolicy"),
                org.id(), otherOrg.id(), List.of("*"), Map.of("nested", "object")));
        values.add(null);
        return values.get(random.nextInt(values.size()));
    }

    private static <T> T pick(Random random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    /** What the agent must not change, and its own wallet, read with the organisations' keys. */
    private record Snapshot(List<JsonNode> policies, Map<String, String> webhooks, Map<String, String> categories,
                            Map<String, JsonNode> otherWallets, Map<String, List<JsonNode>> otherHistories,
                            List<String> agentSettings, String agentBalance, List<JsonNode> agentHistory,
                            List<String> fundingsAndWithdrawals) {

        static Snapshot take() {
            ApiFixtures fx = new ApiFixtures(server);
            ApiFixtures otherFx = new ApiFixtures(server, otherOrg);
            List<JsonNode> policies = new ArrayList<>(fx.all("/policies?limit=100"));
            policies.addAll(otherFx.all("/policies?limit=100"));
            Map<String, String> webhooks = new TreeMap<>();
            for (ApiFixtures each : List.of(fx, otherFx)) {
                each.all("/webhooks?limit=100").forEach(hook -> webhooks.put(hook.path("webhook_id").asText(),
                        hook.path("url").asText() + " " + hook.path("events") + " " + hook.path("status").asText()));
            }
            Map<String, String> categories = new TreeMap<>();
            for (String address : List.of(catalogue.id("categorised"), catalogue.id("recipient"))) {
                ApiResponse category = client.get("/recipients/" + address, org.viewerKey());
                categories.put(address, category.status() + " " + category.text("category"));
            }
            Map<String, JsonNode> otherWallets = new TreeMap<>();
            Map<String, List<JsonNode>> otherHistories = new TreeMap<>();
            for (ApiFixtures each : List.of(fx, otherFx)) {
                for (JsonNode wallet : each.all("/wallets?limit=100")) {
                    String id = wallet.path("id").asText();
                    if (!id.equals(agent.id())) {
                        otherWallets.put(id, wallet);
                        otherHistories.put(id, each.transactions(id, ""));
                    }
                }
            }
            JsonNode self = client.get("/wallets/" + agent.id(), org.viewerKey()).json();
            List<String> settings = List.of(self.path("label").asText(), self.path("policy_id").asText(),
                    self.path("status").asText(), self.path("tags").toString(), self.path("solana_address").asText(),
                    self.path("auto_topup").toString());
            List<JsonNode> history = fx.transactions(agent.id(), "");
            List<String> moves = history.stream().filter(tx -> Set.of("funding", "withdrawal")
                    .contains(tx.path("type").asText())).map(tx -> tx.path("tx_id").asText()).toList();
            return new Snapshot(policies, webhooks, categories, otherWallets, otherHistories, settings,
                    self.path("usdc_balance").asText(), history, moves);
        }

        /**
         * The balance the agent's history accounts for: what was funded, less what left or is held
         * (payments settling, confirmed or awaiting their co-signature, escrow locks), plus refunds.
         */
        BigDecimal balanceByHistory() {
            BigDecimal balance = BigDecimal.ZERO;
            for (JsonNode tx : agentHistory) {
                BigDecimal amount = usdc(tx.path("amount").asText());
                String status = tx.path("status").asText();
                boolean live = Set.of("pending", "confirmed", "pending_co_sign").contains(status);
                switch (tx.path("type").asText()) {
                    case "funding" -> balance = status.equals("confirmed") ? balance.add(amount) : balance;
                    case "payment", "escrow_lock", "withdrawal" -> balance = live ? balance.subtract(amount) : balance;
                    case "escrow_refund" -> balance = status.equals("confirmed") ? balance.add(amount) : balance;
                    default -> {
                        // a release pays out of the escrow's vault, not the wallet
                    }
                }
            }
            return balance;
        }
    }
}
