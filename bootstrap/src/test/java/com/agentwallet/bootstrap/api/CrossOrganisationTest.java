package com.agentwallet.bootstrap.api;

import com.agentwallet.core.auth.Role;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertError;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertWellFormedError;
import static com.agentwallet.bootstrap.api.ApiFixtures.escrow;
import static com.agentwallet.bootstrap.api.ApiFixtures.field;
import static com.agentwallet.bootstrap.api.ApiFixtures.items;
import static com.agentwallet.bootstrap.api.ApiFixtures.payment;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static com.agentwallet.bootstrap.api.ApiFixtures.sha256Hex;
import static com.agentwallet.bootstrap.api.ApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Organisation A's ids in the hands of organisation B: every endpoint that takes an id answers B's
 * keys 404 {@code not_found}, exactly as for an id that does not exist, and A's resource is unchanged
 * afterwards. A's wallet id in B's request bodies and list filters reveals nothing either.
 */
class CrossOrganisationTest {
    private static ApiServer server;
    private static ApiClient client;
    private static DemoOrg a;
    private static DemoOrg b;
    private static ApiFixtures fixturesA;
    private static ApiFixtures fixturesB;
    private static ApiFixtures.Wallet walletA;
    private static ApiFixtures.Wallet walletB;
    /** A's ids, and what B's bodies need. */
    private static final Map<String, String> IDS = new ConcurrentHashMap<>();
    private static final AtomicInteger REFUSED = new AtomicInteger();

    /** An endpoint with an id in its path; {@code rereads} are A's views that must not change. */
    record Case(String method, String template, Role lowest, Supplier<Object> body, List<String> rereads) {
        @Override
        public String toString() {
            return method + " " + template;
        }
    }

    static String resolve(String template) {
        return ApiFixtures.resolve(template, IDS);
    }

    private static Case c(String method, String template, Role lowest, Supplier<Object> body, String... rereads) {
        return new Case(method, template, lowest, body, List.of(rereads));
    }

    static List<Case> cases() {
        String[] wallet = {"/wallets/{wallet}", "/wallets/{wallet}/transactions"};
        String[] policy = {"/policies/{policy}", "/policies/{policy}/audit-log"};
        String[] webhook = {"/webhooks/{webhook}", "/webhooks/{webhook}/deliveries"};
        Supplier<Object> amount = () -> Map.of("amount", "5.00", "currency", "USDC");
        return List.of(
                c("GET", "/wallets/{wallet}", Role.VIEWER, null, wallet),
                c("PATCH", "/wallets/{wallet}", Role.OPERATOR, () -> Map.of("status", "frozen"), wallet),
                c("PATCH", "/wallets/{wallet}", Role.ADMIN, () -> Map.of("label", "taken over by B"), wallet),
                c("POST", "/wallets/{wallet}/fund", Role.ADMIN, amount, wallet),
                c("POST", "/wallets/{wallet}/withdraw", Role.ADMIN, () -> Map.of("amount", "all"), wallet),
                c("PUT", "/wallets/{wallet}/auto-topup", Role.ADMIN,
                        () -> Map.of("enabled", true, "trigger_below", "10.00", "topup_amount", "50.00"), wallet),
                c("POST", "/wallets/{wallet}/rotate-token", Role.ADMIN, () -> Map.of("ttl_seconds", 600), wallet),
                c("DELETE", "/wallets/{wallet}", Role.ADMIN, null, wallet),
                c("GET", "/wallets/{wallet}/transactions", Role.VIEWER, null, wallet),
                c("GET", "/payments/{pendingTx}", Role.VIEWER, null, "/payments/{pendingTx}"),
                c("POST", "/payments/{pendingTx}/co-sign", Role.OPERATOR,
                        () -> Map.of("signature", IDS.get("signature")), "/payments/{pendingTx}", wallet[0]),
                c("POST", "/payments/{pendingTx}/reject", Role.OPERATOR, () -> Map.of("reason", "B says no"),
                        "/payments/{pendingTx}", wallet[0]),
                c("GET", "/payments/a2a/{escrow}", Role.VIEWER, null, "/payments/a2a/{escrow}"),
                c("POST", "/payments/a2a/{escrow}/complete", Role.ADMIN,
                        () -> Map.of("proof_type", "output_hash", "proof", sha256Hex("B's proof")),
                        "/payments/a2a/{escrow}", wallet[0]),
                c("POST", "/payments/a2a/{escrow}/dispute", Role.ADMIN,
                        () -> Map.of("reason", "B disputes", "evidence", sha256Hex("B")),
                        "/payments/a2a/{escrow}"),
                c("POST", "/payments/a2a/{disputedEscrow}/resolve", Role.OPERATOR, () -> Map.of("outcome", "release"),
                        "/payments/a2a/{disputedEscrow}", wallet[0]),
                c("GET", "/policies/{policy}", Role.VIEWER, null, policy),
                c("PATCH", "/policies/{policy}", Role.ADMIN, () -> Map.of("max_per_tx", "0.01", "name", "B's now"),
                        policy),
                c("POST", "/policies/{policy}/clone", Role.ADMIN, () -> Map.of("name", "B's clone"), policy),
                c("DELETE", "/policies/{policy}", Role.ADMIN, null, policy),
                c("DELETE", "/policies/{unusedPolicy}", Role.ADMIN, null, "/policies/{unusedPolicy}"),
                c("GET", "/policies/{policy}/audit-log", Role.VIEWER, null, policy),
                c("GET", "/transactions/{confirmedTx}", Role.VIEWER, null, "/transactions/{confirmedTx}"),
                c("GET", "/transactions/exports/{export}", Role.VIEWER, null, "/transactions/exports/{export}"),
                c("GET", "/transactions/exports/{export}/download", Role.VIEWER, null,
                        "/transactions/exports/{export}"),
                c("GET", "/webhooks/{webhook}", Role.VIEWER, null, webhook),
                c("PATCH", "/webhooks/{webhook}", Role.ADMIN,
                        () -> Map.of("url", "https://127.0.0.1:9/b-steals", "events", List.of("*")), webhook),
                c("DELETE", "/webhooks/{webhook}", Role.ADMIN, null, webhook),
                c("POST", "/webhooks/{webhook}/test", Role.ADMIN, null, webhook),
                c("GET", "/webhooks/{webhook}/deliveries", Role.VIEWER, null, webhook));
    }

    /** Each case with B's lowest sufficient role and with B's owner. */
    static Stream<Arguments> casesByRole() {
        List<Arguments> all = new ArrayList<>();
        for (Case each : cases()) {
            all.add(Arguments.of(each, each.lowest()));
            if (each.lowest() != Role.OWNER) {
                all.add(Arguments.of(each, Role.OWNER));
            }
        }
        return all.stream();
    }

    @BeforeAll
    static void organisations() {
        server = ApiServer.shared();
        client = server.client();
        a = server.org();
        b = server.otherOrg();
        fixturesA = new ApiFixtures(server, a);
        fixturesB = new ApiFixtures(server, b);

        String policyA = fixturesA.policy(Map.of("require_co_sign", "100.00",
                "co_signer", fixturesA.coSignerPublicKey()));
        IDS.put("policy", policyA);
        IDS.put("unusedPolicy", fixturesA.policy(Map.of("max_per_tx", "3.00")));
        walletA = fixturesA.wallet(policyA);
        fixturesA.fund(walletA.id(), "300.00");
        IDS.put("wallet", walletA.id());

        ApiResponse paid = fixturesA.pay(walletA, randomAddress(), "1.00");
        assertThat(paid.status()).as(paid.toString()).isEqualTo(200);
        IDS.put("confirmedTx", paid.text("tx_id"));
        JsonNode pending = fixturesA.pendingCoSign(walletA, "100.00");
        IDS.put("pendingTx", pending.path("tx_id").asText());
        // a co-signature that A's operator would accept: B must not be able to use it
        IDS.put("signature", fixturesA.coSign(pending.path("co_sign_payload").asText()));

        IDS.put("escrow", fixturesA.lockedEscrow(walletA, "2.00"));
        IDS.put("disputedEscrow", fixturesA.disputedEscrow(walletA, "3.00"));

        IDS.put("webhook", fixturesA.webhook(List.of("policy.expired")));
        IDS.put("export", fixturesA.export());

        walletB = fixturesB.fundedWallet("50.00");
        fixturesA.awaitSettled(walletA.id());
        fixturesB.awaitSettled(walletB.id());
    }

    private static Map<String, JsonNode> snapshot(List<String> rereads) {
        Map<String, JsonNode> views = new LinkedHashMap<>();
        for (String template : rereads) {
            ApiResponse view = client.get(resolve(template), a.viewerKey());
            assertThat(view.status()).as("A reads its own " + template + ": " + view).isEqualTo(200);
            views.put(template, view.json());
        }
        return views;
    }

    @ParameterizedTest(name = "B's {1} gets 404 for {0}")
    @MethodSource("casesByRole")
    void anotherOrganisationsIdIsNotFoundAndStaysUnchanged(Case each, Role role) {
        Map<String, JsonNode> before = snapshot(each.rereads());

        ApiClient.Call call = client.call(each.method(), resolve(each.template())).key(b.key(role));
        if (each.body() != null) {
            call.body(each.body().get());
        }
        ApiResponse answer = call.send();

        JsonNode error = assertError(answer, 404, "not_found");
        assertThat(error.path("message").asText()).as("reveals nothing beyond the id asked for")
                .doesNotContain(a.id());
        assertThat(snapshot(each.rereads())).as("A's views after B's " + each).isEqualTo(before);
        REFUSED.incrementAndGet();
    }

    @AfterAll
    static void figures() {
        System.out.printf("cross-organisation: %d requests by B's keys with A's ids over %d endpoints, %d answered 404 "
                + "with A's views unchanged%n", casesByRole().count(), cases().size(), REFUSED.get());
    }

    /** The 404 for A's id reads exactly like the 404 for an id nobody has: nothing tells them apart. */
    @Test
    void anotherOrganisationsIdIsIndistinguishableFromANonexistentOne() {
        ApiResponse foreign = client.get("/wallets/" + walletA.id(), b.adminKey());
        String unknownId = "wal_" + "A".repeat(24);
        ApiResponse unknown = client.get("/wallets/" + unknownId, b.adminKey());

        assertError(foreign, 404, "not_found");
        assertError(unknown, 404, "not_found");
        assertThat(foreign.json().path("error").path("message").asText().replace(walletA.id(), "ID"))
                .isEqualTo(unknown.json().path("error").path("message").asText().replace(unknownId, "ID"));
    }

    @Test
    void bsRotateTokenLeavesAsSessionTokenWorking() {
        ApiResponse rotated = client.post("/wallets/" + walletA.id() + "/rotate-token", b.adminKey(), Map.of());
        assertError(rotated, 404, "not_found");

        ApiResponse dryRun = fixturesA.dryRun(walletA.token(), payment(walletA.id(), randomAddress(), "1.00"));
        assertThat(dryRun.status()).as(dryRun.toString()).isEqualTo(200);
        assertThat(dryRun.text("decision")).as(dryRun.toString()).isEqualTo("allowed");
    }

    @Test
    void aPaymentByBFromAsWalletIsNotFoundWhateverTheToken() {
        Map<String, JsonNode> before = snapshot(List.of("/wallets/{wallet}", "/wallets/{wallet}/transactions"));
        Map<String, Object> body = payment(walletA.id(), randomAddress(), "1.00");

        List<ApiResponse> answers = new ArrayList<>();
        answers.add(client.call("POST", "/payments").key(b.adminKey()).body(body).send());
        answers.add(client.call("POST", "/payments").key(b.adminKey()).header("Session-Token", walletB.token())
                .body(body).send());
        // even A's own session token, leaked to B, does not let B's key pay from A's wallet
        answers.add(client.call("POST", "/payments").key(b.adminKey()).header("Session-Token", walletA.token())
                .body(body).send());
        answers.add(client.call("POST", "/payments").key(b.ownerKey()).header("Session-Token", walletA.token())
                .header("Dry-Run", "true").body(body).send());
        for (ApiResponse answer : answers) {
            assertError(answer, 404, "not_found");
        }

        assertThat(snapshot(List.of("/wallets/{wallet}", "/wallets/{wallet}/transactions"))).isEqualTo(before);
        ApiResponse bHistory = client.get("/transactions?wallet_id=" + walletA.id(), b.viewerKey());
        assertThat(bHistory.status()).as(bHistory.toString()).isIn(200, 404);
        if (bHistory.status() == 200) {
            assertThat(bHistory.json().path("data")).as("B recorded nothing against A's wallet").isEmpty();
        }
    }

    @Test
    void aFundBatchNamingAsWalletIsRefusedWhole() {
        Map<String, JsonNode> before = snapshot(List.of("/wallets/{wallet}", "/wallets/{wallet}/transactions"));
        String balanceB = fixturesB.balance(walletB.id());

        ApiResponse alone = client.post("/wallets/fund-batch", b.adminKey(),
                List.of(Map.of("wallet_id", walletA.id(), "amount", "1.00")));
        ApiResponse mixed = client.post("/wallets/fund-batch", b.adminKey(),
                List.of(Map.of("wallet_id", walletB.id(), "amount", "1.00"),
                        Map.of("wallet_id", walletA.id(), "amount", "1.00")));

        assertError(alone, 404, "not_found");
        assertError(mixed, 404, "not_found");
        assertThat(snapshot(List.of("/wallets/{wallet}", "/wallets/{wallet}/transactions"))).isEqualTo(before);
        assertThat(fixturesB.balance(walletB.id())).as("all or nothing: B's own line did not go through")
                .isEqualTo(balanceB);
    }

    @Test
    void anEscrowByBFromAsWalletIsNotFound() {
        Map<String, JsonNode> before = snapshot(List.of("/wallets/{wallet}", "/wallets/{wallet}/transactions"));
        Map<String, Object> body = escrow(walletA.id(), randomAddress(), "1.00");

        ApiResponse withA = client.call("POST", "/payments/a2a").key(b.adminKey())
                .header("Session-Token", walletA.token()).body(body).send();
        ApiResponse withB = client.call("POST", "/payments/a2a").key(b.adminKey())
                .header("Session-Token", walletB.token()).body(body).send();

        assertError(withA, 404, "not_found");
        assertError(withB, 404, "not_found");
        assertThat(snapshot(List.of("/wallets/{wallet}", "/wallets/{wallet}/transactions"))).isEqualTo(before);
    }

    @Test
    void listFiltersOnAsWalletShowNothing() {
        for (String path : List.of("/transactions?wallet_id=" + walletA.id(), "/payments/a2a?wallet_id=" + walletA.id(),
                "/transactions?walletId=" + walletA.id())) {
            ApiResponse answer = client.get(path, b.viewerKey());
            assertThat(answer.status()).as(path + " -> " + answer).isIn(200, 404);
            if (answer.status() == 200) {
                assertThat(answer.json().path("data")).as(path + " -> " + answer).isEmpty();
            } else {
                assertError(answer, 404, "not_found");
            }
        }
        // A sees its own through the same filters, so the empty answers above are not an accident
        assertThat(client.get("/transactions?wallet_id=" + walletA.id(), a.viewerKey()).json().path("data"))
                .isNotEmpty();
        assertThat(client.get("/payments/a2a?wallet_id=" + walletA.id(), a.viewerKey()).json().path("data"))
                .isNotEmpty();
    }

    @Test
    void anExportOfAsWalletIsNotFound() {
        ApiResponse export = client.post("/transactions/export", b.viewerKey(),
                Map.of("format", "csv", "wallet_id", walletA.id()));

        assertError(export, 404, "not_found");
    }

    @Test
    void bsListsDoNotContainAsResources() {
        assertThat(ids("/wallets?limit=100", "id")).doesNotContain(walletA.id());
        assertThat(ids("/policies?limit=100", "id")).doesNotContain(IDS.get("policy"));
        assertThat(ids("/webhooks?limit=100", "webhook_id")).doesNotContain(IDS.get("webhook"));
        assertThat(ids("/payments/a2a?limit=100", "id")).doesNotContain(IDS.get("escrow"));
        assertThat(ids("/transactions?limit=100", "wallet_id")).doesNotContain(walletA.id());
    }

    @Test
    void bCannotAttachAsPolicy() {
        ApiResponse created = client.post("/wallets", b.adminKey(), Map.of("agent_id", unique("b-agent"),
                "policy_id", IDS.get("policy")));
        ApiResponse patched = client.patch("/wallets/" + walletB.id(), b.adminKey(),
                Map.of("policy_id", IDS.get("policy")));

        assertError(created, 404, "not_found");
        assertError(patched, 404, "not_found");
        assertThat(client.get("/wallets/" + walletB.id(), b.viewerKey()).text("policy_id"))
                .isNotEqualTo(IDS.get("policy"));
    }

    @Test
    void bCannotCreateAWalletInAsOrganisation() {
        ApiResponse created = client.post("/wallets", b.adminKey(), Map.of("agent_id", unique("b-agent"),
                "policy_id", fixturesB.openPolicy(), "owner_org", a.id()));

        assertThat(created.status()).as(created.toString()).isIn(400, 403, 404);
        assertWellFormedError(created);
    }

    /** One field of each item of B's list at {@code path}. */
    private static List<String> ids(String path, String field) {
        return field(items(client.get(path, b.viewerKey())), field);
    }
}
