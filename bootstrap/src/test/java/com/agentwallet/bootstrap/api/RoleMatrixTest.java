package com.agentwallet.bootstrap.api;

import com.agentwallet.core.auth.Role;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertError;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertWellFormedError;
import static com.agentwallet.bootstrap.api.ApiFixtures.WALLET_LABEL;
import static com.agentwallet.bootstrap.api.ApiFixtures.bogusSignature;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static com.agentwallet.bootstrap.api.ApiFixtures.resolve;
import static com.agentwallet.bootstrap.api.ApiFixtures.sha256Hex;
import static com.agentwallet.bootstrap.api.ApiFixtures.unique;
import static com.agentwallet.bootstrap.api.ApiFixtures.unknownId;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every /v1 endpoint against every role of the ladder: below the lowest role of the contract it is a
 * 403 {@code insufficient_permissions} naming that role; at it and above, authorisation passes (the
 * answer may still be a 404, 409 or 422 of the resource's state, never a 401 or 403). Without a
 * valid key every endpoint is a 401.
 */
class RoleMatrixTest {
    private static ApiServer server;
    private static ApiClient client;
    private static DemoOrg org;
    private static ApiFixtures fx;
    /** Ids of the resources the paths and bodies name, made once by the admin key. */
    private static final Map<String, String> IDS = new ConcurrentHashMap<>();
    private static ApiFixtures.Wallet payer;

    /** An endpoint of the table: method, path with {placeholders}, a minimal valid body, the lowest role. */
    record Endpoint(String method, String template, Role lowest, Supplier<Object> body, boolean sessionToken) {
        @Override
        public String toString() {
            return method + " " + template;
        }

        String path() {
            return resolve(template, IDS);
        }

        ApiResponse send(ApiClient.Call call) {
            Object json = body == null ? null : body.get();
            if (json != null) {
                call.body(json);
            }
            if (sessionToken) {
                call.header("Session-Token", payer.token());
            }
            return call.send();
        }
    }

    private static Endpoint ep(String method, String template, Role lowest) {
        return new Endpoint(method, template, lowest, null, false);
    }

    private static Endpoint ep(String method, String template, Role lowest, Supplier<Object> body) {
        return new Endpoint(method, template, lowest, body, false);
    }

    private static Endpoint payment(String template, Supplier<Object> body) {
        return new Endpoint("POST", template, Role.ADMIN, body, true);
    }

    /** The whole /v1 surface, with the contract's lowest role of each endpoint. */
    static List<Endpoint> endpoints() {
        Supplier<Object> amount = () -> Map.of("amount", "0.01", "currency", "USDC");
        Supplier<Object> proof = () -> Map.of("proof_type", "output_hash", "proof", sha256Hex("done"));
        return List.of(
                // wallets
                ep("POST", "/wallets", Role.ADMIN, () -> Map.of("agent_id", unique("matrix-new"),
                        "policy_id", IDS.get("policy"))),
                ep("GET", "/wallets", Role.VIEWER),
                ep("GET", "/wallets/{wallet}", Role.VIEWER),
                ep("PATCH", "/wallets/{patchWallet}", Role.OPERATOR, () -> Map.of("status", "frozen")),
                ep("POST", "/wallets/{wallet}/fund", Role.ADMIN, amount),
                ep("POST", "/wallets/fund-batch", Role.ADMIN,
                        () -> List.of(Map.of("wallet_id", IDS.get("wallet"), "amount", "0.01"))),
                ep("POST", "/wallets/{wallet}/withdraw", Role.ADMIN, amount),
                ep("PUT", "/wallets/{wallet}/auto-topup", Role.ADMIN, () -> Map.of("enabled", false)),
                ep("POST", "/wallets/{rotateWallet}/rotate-token", Role.ADMIN, () -> Map.of("ttl_seconds", 600)),
                ep("DELETE", "/wallets/{deleteWallet}", Role.ADMIN),
                ep("GET", "/wallets/{wallet}/transactions", Role.VIEWER),
                // payments
                payment("/payments", () -> Map.of("wallet_id", IDS.get("wallet"), "to", IDS.get("recipient"),
                        "amount", "0.01", "currency", "USDC")),
                ep("GET", "/payments/{pendingTx}", Role.VIEWER),
                ep("POST", "/payments/{pendingTx}/co-sign", Role.OPERATOR,
                        () -> Map.of("signature", bogusSignature())),
                ep("POST", "/payments/{rejectTx}/reject", Role.OPERATOR, () -> Map.of("reason", "not today")),
                // escrow
                payment("/payments/a2a", () -> Map.of("from_wallet", IDS.get("wallet"),
                        "to_wallet", randomAddress(), "amount", "0.01", "currency", "USDC",
                        "task_description", "matrix", "timeout_seconds", 3600)),
                ep("GET", "/payments/a2a", Role.VIEWER),
                ep("GET", "/payments/a2a/{escrow}", Role.VIEWER),
                ep("POST", "/payments/a2a/{completeEscrow}/complete", Role.ADMIN, proof),
                ep("POST", "/payments/a2a/{disputeEscrow}/dispute", Role.ADMIN,
                        () -> Map.of("reason", "wrong output", "evidence", sha256Hex("evidence"))),
                ep("POST", "/payments/a2a/{disputedEscrow}/resolve", Role.OPERATOR, () -> Map.of("outcome", "refund")),
                // policies
                ep("POST", "/policies", Role.ADMIN, () -> Map.of("name", unique("matrix"))),
                ep("GET", "/policies", Role.VIEWER),
                ep("GET", "/policies/{policy}", Role.VIEWER),
                ep("PATCH", "/policies/{patchPolicy}", Role.ADMIN, () -> Map.of("max_per_day", "500.00")),
                ep("POST", "/policies/{policy}/clone", Role.ADMIN,
                        () -> Map.of("name", unique("matrix clone"))),
                ep("DELETE", "/policies/{deletePolicy}", Role.ADMIN),
                ep("GET", "/policies/{policy}/audit-log", Role.VIEWER),
                // recipient categories
                ep("PUT", "/recipients/{recipient}", Role.ADMIN, () -> Map.of("category", "compute")),
                ep("GET", "/recipients/{categorised}", Role.VIEWER),
                // transactions and exports
                ep("GET", "/transactions", Role.VIEWER),
                ep("GET", "/transactions/{pendingTx}", Role.VIEWER),
                ep("POST", "/transactions/export", Role.VIEWER, () -> Map.of("format", "csv")),
                ep("GET", "/transactions/exports/{export}", Role.VIEWER),
                ep("GET", "/transactions/exports/{export}/download", Role.VIEWER),
                // webhooks
                ep("POST", "/webhooks", Role.ADMIN, () -> Map.of("url", "https://127.0.0.1:9/" + unique("matrix"),
                        "events", List.of("policy.expired"))),
                ep("GET", "/webhooks", Role.VIEWER),
                ep("GET", "/webhooks/{webhook}", Role.VIEWER),
                ep("PATCH", "/webhooks/{webhook}", Role.ADMIN, () -> Map.of("events", List.of("policy.expired"))),
                ep("DELETE", "/webhooks/{deleteWebhook}", Role.ADMIN),
                ep("POST", "/webhooks/{webhook}/test", Role.ADMIN),
                ep("GET", "/webhooks/{webhook}/deliveries", Role.VIEWER));
    }

    static Stream<Arguments> refused() {
        List<Arguments> cases = new ArrayList<>();
        for (Endpoint endpoint : endpoints()) {
            Arrays.stream(Role.values()).filter(role -> !role.covers(endpoint.lowest()))
                    .forEach(role -> cases.add(Arguments.of(endpoint, role)));
        }
        return cases.stream();
    }

    static Stream<Arguments> allowed() {
        List<Arguments> cases = new ArrayList<>();
        for (Endpoint endpoint : endpoints()) {
            Arrays.stream(Role.values()).filter(role -> role.covers(endpoint.lowest()))
                    .forEach(role -> cases.add(Arguments.of(endpoint, role)));
        }
        return cases.stream();
    }

    @BeforeAll
    static void resources() {
        server = ApiServer.shared();
        client = server.client();
        org = server.org();
        fx = new ApiFixtures(server);

        String policy = fx.policy(Map.of("require_co_sign", "100.00", "co_signer", fx.coSignerPublicKey()));
        IDS.put("policy", policy);
        IDS.put("patchPolicy", fx.policy(Map.of("max_per_day", "1000.00")));
        IDS.put("deletePolicy", fx.openPolicy());

        payer = fx.wallet(policy);
        fx.fund(payer.id(), "1000.00");
        IDS.put("wallet", payer.id());
        IDS.put("patchWallet", fx.wallet(policy).id());
        IDS.put("rotateWallet", fx.wallet(policy).id());
        IDS.put("deleteWallet", fx.wallet(policy).id());

        IDS.put("recipient", randomAddress());
        String categorised = randomAddress();
        ApiResponse category = client.put("/recipients/" + categorised, org.adminKey(), Map.of("category", "compute"));
        assertThat(category.status()).as(category.toString()).isEqualTo(200);
        IDS.put("categorised", categorised);

        IDS.put("pendingTx", fx.pendingCoSign(payer, "100.00").path("tx_id").asText());
        IDS.put("rejectTx", fx.pendingCoSign(payer, "100.00").path("tx_id").asText());

        IDS.put("escrow", fx.lockedEscrow(payer, "1.00"));
        IDS.put("completeEscrow", fx.lockedEscrow(payer, "1.00"));
        IDS.put("disputeEscrow", fx.lockedEscrow(payer, "1.00"));
        IDS.put("disputedEscrow", fx.disputedEscrow(payer, "1.00"));

        IDS.put("webhook", fx.webhook(List.of("policy.expired")));
        IDS.put("deleteWebhook", fx.webhook(List.of("policy.expired")));
        IDS.put("export", fx.export());
    }

    @ParameterizedTest(name = "{1} is refused {0}")
    @MethodSource("refused")
    void aRoleBelowTheLowestIsRefusedNamingTheLowest(Endpoint endpoint, Role role) {
        ApiResponse answer = endpoint.send(client.call(endpoint.method(), endpoint.path()).key(org.key(role)));

        JsonNode error = assertError(answer, 403, "insufficient_permissions");
        assertThat(error.path("required_role").asText()).as(answer.toString())
                .isEqualTo(endpoint.lowest().wireName());
    }

    @ParameterizedTest(name = "{1} passes authorisation of {0}")
    @MethodSource("allowed")
    void theLowestRoleAndAboveAreAuthorised(Endpoint endpoint, Role role) {
        ApiResponse answer = endpoint.send(client.call(endpoint.method(), endpoint.path()).key(org.key(role)));

        assertThat(answer.status()).as(role + " " + endpoint + " -> " + answer).isNotEqualTo(401);
        if (answer.status() == 403) {
            // not a role refusal: the four-eyes rule, the key that made the payment cannot co-sign it
            assertThat(endpoint.template()).as(role + " " + endpoint + " -> " + answer).endsWith("/co-sign");
            assertThat(answer.errorCode()).as(answer.toString()).isEqualTo("same_credential");
        }
        assertThat(answer.status()).as("no server error: " + answer).isLessThan(500);
        if (answer.status() >= 400) {
            assertWellFormedError(answer);
        }
    }

    /** The lowest role does what the endpoint is for, so the matrix is not passing on 404s. */
    @Test
    void theLowestRolesActuallyAct() {
        ApiResponse export = client.post("/transactions/export", org.viewerKey(), Map.of("format", "json"));
        assertThat(export.status()).as(export.toString()).isEqualTo(202);

        String wallet = fx.wallet(IDS.get("policy")).id();
        ApiResponse frozen = client.patch("/wallets/" + wallet, org.operatorKey(), Map.of("status", "frozen"));
        assertThat(frozen.status()).as(frozen.toString()).isEqualTo(200);
        assertThat(frozen.text("status")).isEqualTo("frozen");

        String tx = fx.pendingCoSign(payer, "100.00").path("tx_id").asText();
        ApiResponse rejected = client.post("/payments/" + tx + "/reject", org.operatorKey(), Map.of("reason", "no"));
        assertThat(rejected.status()).as(rejected.toString()).isEqualTo(200);
        assertThat(rejected.text("status")).isEqualTo("rejected");

        JsonNode pending = fx.pendingCoSign(payer, "100.00");
        ApiResponse signed = client.post("/payments/" + pending.path("tx_id").asText() + "/co-sign",
                org.operatorKey(), Map.of("signature", fx.coSign(pending.path("co_sign_payload").asText())));
        assertThat(signed.status()).as(signed.toString()).isEqualTo(200);
        assertThat(signed.text("status")).isIn("pending", "confirmed");

        String escrow = fx.disputedEscrow(payer, "1.00");
        ApiResponse resolved = client.post("/payments/a2a/" + escrow + "/resolve", org.operatorKey(),
                Map.of("outcome", "release"));
        assertThat(resolved.status()).as(resolved.toString()).isEqualTo(200);
        assertThat(resolved.text("status")).isEqualTo("released");
    }

    @Test
    void anOperatorCanOnlyChangeAWalletsStatus() {
        String wallet = fx.wallet(IDS.get("policy")).id();
        String otherPolicy = IDS.get("patchPolicy");

        for (Map<String, Object> body : List.<Map<String, Object>>of(Map.of("label", "renamed by an operator"),
                Map.of("label", "renamed", "status", "frozen"), Map.of("policy_id", otherPolicy),
                Map.of("policy_id", otherPolicy, "status", "frozen"))) {
            ApiResponse answer = client.patch("/wallets/" + wallet, org.operatorKey(), body);
            JsonNode error = assertError(answer, 403, "insufficient_permissions");
            assertThat(error.path("required_role").asText()).as(body + " -> " + answer).isEqualTo("admin");
        }

        ApiResponse unchanged = client.get("/wallets/" + wallet, org.viewerKey());
        assertThat(unchanged.text("label")).isEqualTo(WALLET_LABEL);
        assertThat(unchanged.text("status")).isEqualTo("active");
        assertThat(unchanged.text("policy_id")).isEqualTo(IDS.get("policy"));

        ApiResponse relabelled = client.patch("/wallets/" + wallet, org.adminKey(), Map.of("label", "by an admin"));
        assertThat(relabelled.status()).as(relabelled.toString()).isEqualTo(200);
        assertThat(relabelled.text("label")).isEqualTo("by an admin");
    }

    @ParameterizedTest(name = "no key: {0}")
    @MethodSource("endpoints")
    void withoutAKeyEveryEndpointIs401(Endpoint endpoint) {
        ApiResponse answer = endpoint.send(client.call(endpoint.method(), endpoint.path()));

        assertError(answer, 401, "authentication_failed");
    }

    @ParameterizedTest(name = "unknown key: {0}")
    @MethodSource("endpoints")
    void anUnknownKeyIs401(Endpoint endpoint) {
        ApiResponse answer = endpoint.send(client.call(endpoint.method(), endpoint.path())
                .header("Authorization", "Bearer " + unknownId("sk_unknown")));

        assertError(answer, 401, "authentication_failed");
    }

    @ParameterizedTest(name = "Authorization: [{0}]")
    @ValueSource(strings = {"Basic dXNlcjpwYXNzd29yZA==", "Bearer", "Bearer ", "Bearer sk_", "Token sk_abc",
            "Bearer not-a-key", "Bearer sk_!!!!!!!!!!!!!!!!!!!!!!!!!!!!", "bearer"})
    void aMalformedAuthorizationHeaderIs401(String header) {
        ApiResponse answer = client.call("GET", "/wallets").header("Authorization", header).send();

        assertError(answer, 401, "authentication_failed");
    }

    @Test
    void aValidKeyWithoutTheBearerSchemeIs401() {
        ApiResponse answer = client.call("GET", "/wallets").header("Authorization", org.viewerKey()).send();

        assertError(answer, 401, "authentication_failed");
    }

    /**
     * A request refused before its body is read (401, 403) whose body arrives a moment after its
     * headers, as the JDK client sends it. The server must not then drop the kept-alive connection
     * unannounced: a client reusing it for its next POST would fail with "header parser received no
     * bytes" (the JDK client retries only idempotent methods). The pause is the scenario itself.
     */
    @Test
    void aRefusalBeforeTheBodyKeepsTheConnectionUsable() throws Exception {
        byte[] body = "{\"amount\":\"0.01\",\"currency\":\"USDC\"}".getBytes(StandardCharsets.UTF_8);
        try (Socket socket = server.openTlsSocket()) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(("POST /v1/wallets/" + IDS.get("wallet") + "/fund HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.sleep(300);
            out.write(body);
            out.flush();
            byte[] buffer = new byte[16384];
            String first = new String(buffer, 0, in.read(buffer), StandardCharsets.UTF_8);
            assertThat(first).startsWith("HTTP/1.1 401");
            assertThat(first.toLowerCase(Locale.ROOT)).doesNotContain("connection: close");
            out.write(("GET /v1/wallets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + org.viewerKey()
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            int read = in.read(buffer);
            assertThat(read).as("the kept-alive connection answers the next request").isPositive();
            assertThat(new String(buffer, 0, read, StandardCharsets.UTF_8)).startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void anotherOrganisationsKeyIsNotAnOwnersKeyHere() {
        // the other organisation's admin is authenticated, but only inside its own organisation
        ApiResponse answer = client.get("/wallets/" + IDS.get("wallet"), server.otherOrg().adminKey());

        assertError(answer, 404, "not_found");
    }
}
