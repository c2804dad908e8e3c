package com.agentwallet.bootstrap.api;

import com.agentwallet.core.auth.Role;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import static com.agentwallet.bootstrap.api.ApiFixtures.bogusSignature;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static com.agentwallet.bootstrap.api.ApiFixtures.resolve;
import static com.agentwallet.bootstrap.api.ApiFixtures.sha256Hex;
import static com.agentwallet.bootstrap.api.ApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole /v1 surface for the suites that go through every endpoint: each endpoint's method, path
 * template with {@code {placeholders}}, a minimal valid body, the contract's lowest role, whether it
 * takes the paying wallet's session token, which body fields it cannot do without, valid values of
 * its optional fields, and the query parameters a list takes. An instance holds the resources the
 * placeholders and bodies name, made by {@link #prepare} in the server's first organisation: a
 * policy with a co-signer, a funded payer wallet, payments waiting for their co-signature, escrows
 * locked and disputed, a webhook, an export, and a spare one of each for the endpoints that use
 * theirs up.
 */
final class Endpoints {
    /** What an endpoint takes as its body. */
    enum BodyUse {
        /** No body is read: GET, DELETE, the webhook test. */
        NONE,
        /** A body may be left out, or be {@code null}: then the endpoint uses its defaults. */
        OPTIONAL,
        /** Without a body the request is a 400. */
        REQUIRED
    }

    /**
     * An endpoint of the catalogue. {@code body} makes a fresh minimal valid body from the ids of an
     * {@link Endpoints} (null when it takes none); {@code required} are its fields whose absence is a
     * 400 (the others of the valid body are optional); {@code optional} valid values of optional
     * fields the minimal body leaves out; {@code query} the query parameters it takes (a list's
     * filters, {@code limit} and {@code cursor}; none elsewhere); {@code agents} whether the contract
     * lets an agent's session token call it, for its own wallet.
     */
    record Endpoint(String method, String template, Role lowest, BodyUse bodyUse,
                    Function<Map<String, String>, Object> body, Set<String> required, boolean sessionToken,
                    Function<Map<String, String>, Map<String, Object>> optional, Set<String> query, boolean agents) {
        @Override
        public String toString() {
            return method + " " + template;
        }

        /** The same endpoint with a body, required or optional, and the fields it requires. */
        Endpoint withBody(BodyUse use, Function<Map<String, String>, Object> valid, String... requiredFields) {
            return new Endpoint(method, template, lowest, use, valid, Set.of(requiredFields), sessionToken, optional,
                    query, agents);
        }

        Endpoint withSessionToken() {
            return new Endpoint(method, template, lowest, bodyUse, body, required, true, optional, query, agents);
        }

        /** The same endpoint, open to an agent's session token for its own wallet. */
        Endpoint forAgents() {
            return new Endpoint(method, template, lowest, bodyUse, body, required, sessionToken, optional, query, true);
        }

        /** The same endpoint with valid values of optional fields its minimal body leaves out. */
        Endpoint withOptional(Function<Map<String, String>, Map<String, Object>> fields) {
            return new Endpoint(method, template, lowest, bodyUse, body, required, sessionToken, fields, query, agents);
        }

        /** The same endpoint as a list with these filters, besides {@code limit} and {@code cursor}. */
        Endpoint listing(String... filters) {
            Set<String> names = new HashSet<>(List.of(filters));
            names.addAll(List.of("limit", "cursor"));
            return new Endpoint(method, template, lowest, bodyUse, body, required, sessionToken, optional,
                    Set.copyOf(names), agents);
        }
    }

    private final Map<String, String> ids;
    private final ApiFixtures.Wallet payer;

    private Endpoints(Map<String, String> ids, ApiFixtures.Wallet payer) {
        this.ids = Map.copyOf(ids);
        this.payer = payer;
    }

    private static Endpoint ep(String method, String template, Role lowest) {
        return new Endpoint(method, template, lowest, BodyUse.NONE, null, Set.of(), false, ids -> Map.of(), Set.of(),
                false);
    }

    private static Endpoint ep(String method, String template, Role lowest, Function<Map<String, String>, Object> body,
                               String... required) {
        return ep(method, template, lowest).withBody(BodyUse.REQUIRED, body, required);
    }

    /** The whole /v1 surface, with the contract's lowest role of each endpoint. */
    static List<Endpoint> all() {
        Function<Map<String, String>, Object> amount = ids -> Map.of("amount", "0.01", "currency", "USDC");
        return List.of(
                // wallets
                ep("POST", "/wallets", Role.ADMIN, ids -> Map.of("agent_id", unique("matrix-new"),
                        "policy_id", ids.get("policy")), "agent_id", "policy_id")
                        .withOptional(ids -> Map.of("label", "a label", "tags", List.of("a-tag"),
                                "session_ttl_seconds", 600)),
                ep("GET", "/wallets", Role.VIEWER).listing("status", "tags"),
                ep("GET", "/wallets/{wallet}", Role.VIEWER).forAgents(),
                ep("PATCH", "/wallets/{patchWallet}", Role.OPERATOR, ids -> Map.of("status", "frozen"))
                        .withOptional(ids -> Map.of("label", "a label", "policy_id", ids.get("policy"))),
                ep("POST", "/wallets/{wallet}/fund", Role.ADMIN, amount, "amount"),
                ep("POST", "/wallets/fund-batch", Role.ADMIN,
                        ids -> List.of(Map.of("wallet_id", ids.get("wallet"), "amount", "0.01")), "wallet_id", "amount"),
                ep("POST", "/wallets/{wallet}/withdraw", Role.ADMIN, amount, "amount"),
                ep("PUT", "/wallets/{wallet}/auto-topup", Role.ADMIN, ids -> Map.of("enabled", false), "enabled")
                        .withOptional(ids -> Map.of("trigger_below", "1.00", "topup_amount", "5.00")),
                ep("POST", "/wallets/{rotateWallet}/rotate-token", Role.ADMIN)
                        .withBody(BodyUse.OPTIONAL, ids -> Map.of("ttl_seconds", 600)),
                ep("DELETE", "/wallets/{deleteWallet}", Role.ADMIN),
                ep("GET", "/wallets/{wallet}/transactions", Role.VIEWER).listing("status", "type", "from", "to")
                        .forAgents(),
                // payments
                ep("POST", "/payments", Role.ADMIN, ids -> Map.of("wallet_id", ids.get("wallet"),
                        "to", ids.get("recipient"), "amount", "0.01", "currency", "USDC"), "wallet_id", "to", "amount")
                        .withSessionToken().forAgents()
                        .withOptional(ids -> Map.of("memo", "a memo", "idempotency_key", unique("matrix-key"),
                                "require_co_sign", false)),
                ep("GET", "/payments/{pendingTx}", Role.VIEWER).forAgents(),
                ep("POST", "/payments/{pendingTx}/co-sign", Role.OPERATOR,
                        ids -> Map.of("signature", bogusSignature()), "signature"),
                ep("POST", "/payments/{rejectTx}/reject", Role.OPERATOR)
                        .withBody(BodyUse.OPTIONAL, ids -> Map.of("reason", "not today")),
                // escrow
                ep("POST", "/payments/a2a", Role.ADMIN, ids -> Map.of("from_wallet", ids.get("wallet"),
                        "to_wallet", randomAddress(), "amount", "0.01", "currency", "USDC",
                        "task_description", "matrix", "timeout_seconds", 3600),
                        "from_wallet", "to_wallet", "amount", "timeout_seconds").withSessionToken().forAgents()
                        .withOptional(ids -> Map.of("expected_proof", sha256Hex("expected"))),
                ep("GET", "/payments/a2a", Role.VIEWER).listing("wallet_id", "status").forAgents(),
                ep("GET", "/payments/a2a/{escrow}", Role.VIEWER).forAgents(),
                ep("POST", "/payments/a2a/{completeEscrow}/complete", Role.ADMIN,
                        ids -> Map.of("proof_type", "output_hash", "proof", sha256Hex("done")), "proof_type", "proof")
                        .forAgents(),
                ep("POST", "/payments/a2a/{disputeEscrow}/dispute", Role.ADMIN,
                        ids -> Map.of("reason", "wrong output", "evidence", sha256Hex("evidence")), "reason", "evidence")
                        .forAgents(),
                ep("POST", "/payments/a2a/{disputedEscrow}/resolve", Role.OPERATOR,
                        ids -> Map.of("outcome", "refund"), "outcome"),
                // policies
                ep("POST", "/policies", Role.ADMIN, ids -> Map.of("name", unique("matrix")), "name")
                        .withOptional(Endpoints::policyFields),
                ep("GET", "/policies", Role.VIEWER).listing(),
                ep("GET", "/policies/{policy}", Role.VIEWER),
                ep("PATCH", "/policies/{patchPolicy}", Role.ADMIN, ids -> Map.of("max_per_day", "500.00"))
                        .withOptional(Endpoints::policyFields),
                ep("POST", "/policies/{policy}/clone", Role.ADMIN)
                        .withBody(BodyUse.OPTIONAL, ids -> Map.of("name", unique("matrix clone"))),
                ep("DELETE", "/policies/{deletePolicy}", Role.ADMIN),
                ep("GET", "/policies/{policy}/audit-log", Role.VIEWER).listing(),
                // recipient categories
                ep("PUT", "/recipients/{recipient}", Role.ADMIN, ids -> Map.of("category", "compute"), "category"),
                ep("GET", "/recipients/{categorised}", Role.VIEWER),
                // transactions and exports
                ep("GET", "/transactions", Role.VIEWER).listing("wallet_id", "status", "type", "from", "to"),
                ep("GET", "/transactions/{pendingTx}", Role.VIEWER).forAgents(),
                ep("POST", "/transactions/export", Role.VIEWER, ids -> Map.of("format", "csv"), "format")
                        .withOptional(ids -> Map.of("wallet_id", ids.get("wallet"), "from", "2020-01-01T00:00:00Z",
                                "to", "2099-01-01T00:00:00Z")),
                ep("GET", "/transactions/exports/{export}", Role.VIEWER),
                ep("GET", "/transactions/exports/{export}/download", Role.VIEWER),
                // webhooks
                ep("POST", "/webhooks", Role.ADMIN, ids -> Map.of("url", "https://127.0.0.1:9/" + unique("matrix"),
                        "events", List.of("policy.expired")), "url", "events"),
                ep("GET", "/webhooks", Role.VIEWER).listing(),
                ep("GET", "/webhooks/{webhook}", Role.VIEWER),
                ep("PATCH", "/webhooks/{webhook}", Role.ADMIN, ids -> Map.of("events", List.of("policy.expired")))
                        .withOptional(ids -> Map.of("url", "https://127.0.0.1:9/" + unique("matrix"),
                                "status", "active")),
                ep("DELETE", "/webhooks/{deleteWebhook}", Role.ADMIN),
                ep("POST", "/webhooks/{webhook}/test", Role.ADMIN),
                ep("GET", "/webhooks/{webhook}/deliveries", Role.VIEWER).listing());
    }

    /** Every rule a policy can have, each with a valid value (the minimal policy bodies set one or none). */
    private static Map<String, Object> policyFields(Map<String, String> ids) {
        return Map.of("max_per_tx", "5.00", "max_per_day", "500.00", "max_per_month", "9000.00", "velocity_cap", 3,
                "allowed_recipients", List.of(ids.get("recipient")), "blocked_categories", List.of("gambling"),
                "expiry", "2099-01-01T00:00:00Z", "require_co_sign", "100.00", "co_signer", ids.get("coSigner"));
    }

    /** Makes, with the admin key of the server's first organisation, every resource the catalogue names. */
    static Endpoints prepare(ApiServer server) {
        ApiFixtures fx = new ApiFixtures(server);
        Map<String, String> ids = new HashMap<>();

        String coSigner = fx.coSignerPublicKey();
        ids.put("coSigner", coSigner);
        String policy = fx.policy(Map.of("require_co_sign", "100.00", "co_signer", coSigner));
        ids.put("policy", policy);
        ids.put("patchPolicy", fx.policy(Map.of("max_per_day", "1000.00")));
        ids.put("deletePolicy", fx.openPolicy());

        ApiFixtures.Wallet payer = fx.wallet(policy);
        fx.fund(payer.id(), "1000.00");
        ids.put("wallet", payer.id());
        ids.put("patchWallet", fx.wallet(policy).id());
        ids.put("rotateWallet", fx.wallet(policy).id());
        ids.put("deleteWallet", fx.wallet(policy).id());

        ids.put("recipient", randomAddress());
        String categorised = randomAddress();
        ApiResponse category = server.client().put("/recipients/" + categorised, server.org().adminKey(),
                Map.of("category", "compute"));
        assertThat(category.status()).as(category.toString()).isEqualTo(200);
        ids.put("categorised", categorised);

        ids.put("pendingTx", fx.pendingCoSign(payer, "100.00").path("tx_id").asText());
        ids.put("rejectTx", fx.pendingCoSign(payer, "100.00").path("tx_id").asText());

        ids.put("escrow", fx.lockedEscrow(payer, "1.00"));
        ids.put("completeEscrow", fx.lockedEscrow(payer, "1.00"));
        ids.put("disputeEscrow", fx.lockedEscrow(payer, "1.00"));
        ids.put("disputedEscrow", fx.disputedEscrow(payer, "1.00"));

        ids.put("webhook", fx.webhook(List.of("policy.expired")));
        ids.put("deleteWebhook", fx.webhook(List.of("policy.expired")));
        ids.put("export", fx.export());
        return new Endpoints(ids, payer);
    }

    /** The id a placeholder of the templates stands for ({@code coSigner} is the co-signer's public key). */
    String id(String placeholder) {
        return ids.get(placeholder);
    }

    /** The funded wallet the payments and escrows of the catalogue pay from, with its session token. */
    ApiFixtures.Wallet payer() {
        return payer;
    }

    String path(Endpoint endpoint) {
        return resolve(endpoint.template(), ids);
    }

    /** A fresh minimal valid body of the endpoint, or null when it takes none. */
    Object validBody(Endpoint endpoint) {
        return endpoint.body() == null ? null : endpoint.body().apply(ids);
    }

    /** The endpoint's optional fields with valid values, for its body (or the one element of an array body). */
    Map<String, Object> optionalFields(Endpoint endpoint) {
        return endpoint.optional().apply(ids);
    }

    /** The endpoint's request at its path with its valid body, by an agent: {@code token} is its only credential. */
    ApiClient.Call callAsAgent(ApiClient client, Endpoint endpoint, String token) {
        ApiClient.Call call = client.call(endpoint.method(), path(endpoint)).key(token);
        Object body = validBody(endpoint);
        return body == null ? call : call.body(body);
    }

    /** The endpoint's request at its path with its valid body and, on payments, the payer's session token; add a key. */
    ApiClient.Call call(ApiClient client, Endpoint endpoint) {
        ApiClient.Call call = client.call(endpoint.method(), path(endpoint));
        Object body = validBody(endpoint);
        if (body != null) {
            call.body(body);
        }
        if (endpoint.sessionToken()) {
            call.header("Session-Token", payer.token());
        }
        return call;
    }
}
