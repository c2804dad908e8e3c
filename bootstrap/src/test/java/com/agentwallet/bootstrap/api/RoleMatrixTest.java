package com.agentwallet.bootstrap.api;

import com.agentwallet.bootstrap.api.Endpoints.Endpoint;
import com.agentwallet.core.auth.Role;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
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
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertError;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertWellFormedError;
import static com.agentwallet.bootstrap.api.ApiFixtures.WALLET_LABEL;
import static com.agentwallet.bootstrap.api.ApiFixtures.unknownId;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every /v1 endpoint against every role of the ladder: below the lowest role of the contract it is a
 * 403 {@code insufficient_permissions} naming that role; at it and above, authorisation passes (the
 * answer may still be a 404, 409 or 422 of the resource's state, never a 401 or 403). Without a
 * valid key every endpoint is a 401.
 */
class RoleMatrixTest {
    private static final AtomicInteger REFUSED = new AtomicInteger();
    private static final AtomicInteger AUTHORISED = new AtomicInteger();
    private static final AtomicInteger AGENT_ALLOWED = new AtomicInteger();
    private static final AtomicInteger AGENT_REFUSED = new AtomicInteger();
    private static final AtomicInteger AGENT_NOT_FOUND = new AtomicInteger();
    /** The agent token column's session tokens, by whose wallet they are. */
    private static final Map<Whose, String> AGENT_TOKENS = new EnumMap<>(Whose.class);
    private static ApiServer server;
    private static ApiClient client;
    private static DemoOrg org;
    private static ApiFixtures fx;
    /** The endpoints and the resources their paths and bodies name, made once by the admin key. */
    private static Endpoints catalogue;

    static List<Endpoint> endpoints() {
        return Endpoints.all();
    }

    static Stream<Arguments> refused() {
        List<Arguments> cases = new ArrayList<>();
        for (Endpoint endpoint : endpoints()) {
            Arrays.stream(Role.values()).filter(role -> !role.covers(endpoint.lowest()))
                    .forEach(role -> cases.add(Arguments.of(endpoint, role)));
        }
        return cases.stream();
    }

    /** Whose wallet an agent token of the matrix belongs to; every resource of the catalogue is the payer's. */
    enum Whose {
        PAYER, SAME_ORGANISATION, OTHER_ORGANISATION
    }

    static Stream<Arguments> agentCases() {
        return endpoints().stream().flatMap(endpoint -> Arrays.stream(Whose.values())
                .map(whose -> Arguments.of(endpoint, whose)));
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
        catalogue = Endpoints.prepare(server);
        AGENT_TOKENS.put(Whose.PAYER, catalogue.payer().token());
        AGENT_TOKENS.put(Whose.SAME_ORGANISATION, fx.wallet(catalogue.id("policy")).token());
        ApiFixtures other = new ApiFixtures(server, server.otherOrg());
        AGENT_TOKENS.put(Whose.OTHER_ORGANISATION, other.wallet(other.openPolicy()).token());
    }

    @ParameterizedTest(name = "{1} is refused {0}")
    @MethodSource("refused")
    void aRoleBelowTheLowestIsRefusedNamingTheLowest(Endpoint endpoint, Role role) {
        ApiResponse answer = catalogue.call(client, endpoint).key(org.key(role)).send();

        JsonNode error = assertError(answer, 403, "insufficient_permissions");
        assertThat(error.path("required_role").asText()).as(answer.toString())
                .isEqualTo(endpoint.lowest().wireName());
        REFUSED.incrementAndGet();
    }

    @ParameterizedTest(name = "{1} passes authorisation of {0}")
    @MethodSource("allowed")
    void theLowestRoleAndAboveAreAuthorised(Endpoint endpoint, Role role) {
        ApiResponse answer = catalogue.call(client, endpoint).key(org.key(role)).send();

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
        AUTHORISED.incrementAndGet();
    }

    /**
     * The agent token column: a session token reaches exactly the endpoints the contract lists, and
     * only for its own wallet. Everywhere else it is refused with 403 naming the lowest API-key role
     * (before any resource is looked up, so it learns nothing), and another wallet's resource, of its
     * own organisation or another, does not exist for it.
     */
    @ParameterizedTest(name = "agent token of a {1} wallet: {0}")
    @MethodSource("agentCases")
    void anAgentTokenReachesOnlyWhatTheContractListsAndOnlyForItsOwnWallet(Endpoint endpoint, Whose whose) {
        ApiResponse answer = catalogue.callAsAgent(client, endpoint, AGENT_TOKENS.get(whose)).send();

        assertThat(answer.status()).as("no server error: " + answer).isLessThan(500);
        if (!endpoint.agents()) {
            JsonNode error = assertError(answer, 403, "insufficient_permissions");
            assertThat(error.path("required_role").asText()).as(answer.toString())
                    .isEqualTo(endpoint.lowest().wireName());
            AGENT_REFUSED.incrementAndGet();
        } else if (whose == Whose.PAYER) {
            assertTheOwnWalletsAgentActs(endpoint, answer);
            AGENT_ALLOWED.incrementAndGet();
        } else if (endpoint.method().equals("GET") && endpoint.template().equals("/payments/a2a")) {
            // its own list, of escrows its wallet is a party to: none of the payer's
            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
            assertThat(ApiFixtures.field(ApiFixtures.items(answer), "id")).doesNotContain(catalogue.id("escrow"));
            AGENT_ALLOWED.incrementAndGet();
        } else {
            assertError(answer, 404, "not_found");
            AGENT_NOT_FOUND.incrementAndGet();
        }
    }

    /** The payer's own agent on an endpoint open to agents: it acts, but completes no escrow it sends. */
    private static void assertTheOwnWalletsAgentActs(Endpoint endpoint, ApiResponse answer) {
        if (endpoint.template().endsWith("/complete")) {
            // the payer sent this escrow: its agent may dispute it, never release it to the other side
            JsonNode error = assertError(answer, 403, "insufficient_permissions");
            assertThat(error.path("required_role").asText()).isEqualTo("admin");
        } else if (endpoint.template().endsWith("/dispute")) {
            // a role of the matrix may have disputed it already
            assertThat(answer.status()).as(answer.toString()).isIn(200, 409);
        } else {
            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        }
    }

    @AfterAll
    static void figures() {
        System.out.printf("role matrix: %d endpoints x %d roles: %d refused below the lowest role naming it, %d "
                        + "authorised at or above it%n", Endpoints.all().size(), Role.values().length, REFUSED.get(),
                AUTHORISED.get());
        System.out.printf("agent token matrix: %d endpoints x %d wallets (the payer's own, another of its "
                        + "organisation, one of another organisation): %d allowed, %d refused 403 naming the lowest "
                        + "key role, %d not found%n", Endpoints.all().size(), Whose.values().length,
                AGENT_ALLOWED.get(), AGENT_REFUSED.get(), AGENT_NOT_FOUND.get());
    }

    /** The lowest role does what the endpoint is for, so the matrix is not passing on 404s. */
    @Test
    void theLowestRolesActuallyAct() {
        ApiResponse export = client.post("/transactions/export", org.viewerKey(), Map.of("format", "json"));
        assertThat(export.status()).as(export.toString()).isEqualTo(202);

        String wallet = fx.wallet(catalogue.id("policy")).id();
        ApiResponse frozen = client.patch("/wallets/" + wallet, org.operatorKey(), Map.of("status", "frozen"));
        assertThat(frozen.status()).as(frozen.toString()).isEqualTo(200);
        assertThat(frozen.text("status")).isEqualTo("frozen");

        String tx = fx.pendingCoSign(catalogue.payer(), "100.00").path("tx_id").asText();
        ApiResponse rejected = client.post("/payments/" + tx + "/reject", org.operatorKey(), Map.of("reason", "no"));
        assertThat(rejected.status()).as(rejected.toString()).isEqualTo(200);
        assertThat(rejected.text("status")).isEqualTo("rejected");

        JsonNode pending = fx.pendingCoSign(catalogue.payer(), "100.00");
        ApiResponse signed = client.post("/payments/" + pending.path("tx_id").asText() + "/co-sign",
                org.operatorKey(), Map.of("signature", fx.coSign(pending.path("co_sign_payload").asText())));
        assertThat(signed.status()).as(signed.toString()).isEqualTo(200);
        assertThat(signed.text("status")).isIn("pending", "confirmed");

        String escrow = fx.disputedEscrow(catalogue.payer(), "1.00");
        ApiResponse resolved = client.post("/payments/a2a/" + escrow + "/resolve", org.operatorKey(),
                Map.of("outcome", "release"));
        assertThat(resolved.status()).as(resolved.toString()).isEqualTo(200);
        assertThat(resolved.text("status")).isEqualTo("released");
    }

    /**
     * Separation of duties: the owner key that paid on an agent's behalf can neither approve nor
     * reject that payment, though its role covers both; another operator's key can.
     */
    @Test
    void theKeyThatMadeAPaymentCanNeitherCoSignNorRejectIt() {
        String owner = org.ownerKey();
        ApiFixtures.Wallet payer = catalogue.payer();
        JsonNode held = client.call("POST", "/payments").key(owner).header("Session-Token", payer.token())
                .body(ApiFixtures.with(ApiFixtures.payment(payer.id(), ApiFixtures.randomAddress(), "100.00"),
                        "require_co_sign", true)).send().json();
        String tx = held.path("tx_id").asText();
        assertThat(held.path("status").asText()).as(held.toString()).isEqualTo("pending_co_sign");

        assertError(client.post("/payments/" + tx + "/co-sign", owner,
                Map.of("signature", fx.coSign(held.path("co_sign_payload").asText()))), 403, "same_credential");
        assertError(client.post("/payments/" + tx + "/reject", owner, Map.of("reason", "mine")), 403,
                "same_credential");
        assertThat(client.get("/payments/" + tx, org.viewerKey()).text("status")).isEqualTo("pending_co_sign");

        ApiResponse rejected = client.post("/payments/" + tx + "/reject", org.operatorKey(), Map.of("reason", "no"));
        assertThat(rejected.text("status")).as(rejected.toString()).isEqualTo("rejected");
    }

    @Test
    void anOperatorCanOnlyChangeAWalletsStatus() {
        String wallet = fx.wallet(catalogue.id("policy")).id();
        String otherPolicy = catalogue.id("patchPolicy");

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
        assertThat(unchanged.text("policy_id")).isEqualTo(catalogue.id("policy"));

        ApiResponse relabelled = client.patch("/wallets/" + wallet, org.adminKey(), Map.of("label", "by an admin"));
        assertThat(relabelled.status()).as(relabelled.toString()).isEqualTo(200);
        assertThat(relabelled.text("label")).isEqualTo("by an admin");
    }

    @ParameterizedTest(name = "no key: {0}")
    @MethodSource("endpoints")
    void withoutAKeyEveryEndpointIs401(Endpoint endpoint) {
        ApiResponse answer = catalogue.call(client, endpoint).send();

        assertError(answer, 401, "authentication_failed");
    }

    @ParameterizedTest(name = "unknown key: {0}")
    @MethodSource("endpoints")
    void anUnknownKeyIs401(Endpoint endpoint) {
        ApiResponse answer = catalogue.call(client, endpoint)
                .header("Authorization", "Bearer " + unknownId("sk_unknown")).send();

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
            out.write(("POST /v1/wallets/" + catalogue.id("wallet") + "/fund HTTP/1.1\r\nHost: localhost\r\n"
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
        ApiResponse answer = client.get("/wallets/" + catalogue.id("wallet"), server.otherOrg().adminKey());

        assertError(answer, 404, "not_found");
    }
}
