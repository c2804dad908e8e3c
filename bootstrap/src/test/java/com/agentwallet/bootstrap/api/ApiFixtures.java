package com.agentwallet.bootstrap.api;

import com.agentwallet.core.crypto.Base58;
import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Set-up of the end-to-end tests, acting for one demo organisation: policies, wallets with money and
 * session tokens, payments, co-signatures with the organisation's co-signer key, escrows, webhooks and
 * exports, and the reads that show what a request changed. Names are unique and recipients fresh, so
 * the test classes can share one server without seeing each other's resources.
 */
final class ApiFixtures {
    /** The label of every wallet made here, so a test can tell that a refused change left it alone. */
    static final String WALLET_LABEL = "test wallet";

    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-zA-Z]+)}");

    private final ApiClient client;
    private final DemoOrg org;

    /** Fixtures of the server's first demo organisation. */
    ApiFixtures(ApiServer server) {
        this(server, server.org());
    }

    ApiFixtures(ApiServer server, DemoOrg org) {
        this(server.client(), org);
    }

    ApiFixtures(ApiClient client, DemoOrg org) {
        this.client = client;
        this.org = org;
    }

    ApiClient client() {
        return client;
    }

    DemoOrg org() {
        return org;
    }

    /** A wallet as created: its id, the session token of the create response, and that response. */
    record Wallet(String id, String token, JsonNode created) {
        String address() {
            return created.path("solana_address").asText();
        }

        String tokenExpiresAt() {
            return created.path("session_token_expires_at").asText();
        }
    }

    // ---------------------------------------------------------------- values

    static String unique(String prefix) {
        return prefix + "-" + randomBase62(12);
    }

    /** A well-formed id (or key) of that prefix that names nothing. */
    static String unknownId(String prefix) {
        return prefix + randomBase62(24);
    }

    private static String randomBase62(int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(BASE62.charAt(RANDOM.nextInt(BASE62.length())));
        }
        return text.toString();
    }

    /**
     * A fresh ledger address (32 random bytes in base58), a recipient nobody else pays, holding its
     * USDC token account on the test ledger as every recipient must ({@link ApiServer#openUsdcAccounts}).
     */
    static String randomAddress() {
        String address = addressWithoutUsdcAccount();
        ApiServer.openUsdcAccounts(address);
        return address;
    }

    /** A fresh ledger address that holds no USDC token account on localnet. */
    static String addressWithoutUsdcAccount() {
        return Base58.encode(randomBytes(32));
    }

    /** A well-formed base58 signature that no key made. */
    static String bogusSignature() {
        return Base58.encode(randomBytes(64));
    }

    private static byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static BigDecimal usdc(String amount) {
        return new BigDecimal(amount);
    }

    /** A JSON object body that, unlike {@link Map#of}, keeps order and allows null values. */
    static Map<String, Object> body(Object... keysAndValues) {
        Map<String, Object> body = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            body.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return body;
    }

    /** A copy of {@code body} with {@code field} set to {@code value}. */
    static Map<String, Object> with(Map<String, Object> body, String field, Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(body);
        copy.put(field, value);
        return copy;
    }

    /** A payment body, snake_case, in a stable field order. */
    static Map<String, Object> payment(String walletId, String to, String amount) {
        return body("wallet_id", walletId, "to", to, "amount", amount, "currency", "USDC");
    }

    /** An escrow lock body with a task and an hour's timeout. */
    static Map<String, Object> escrow(String fromWallet, String toWallet, String amount) {
        return body("from_wallet", fromWallet, "to_wallet", toWallet, "amount", amount, "currency", "USDC",
                "task_description", "test task", "timeout_seconds", 3600);
    }

    /** The path of a template with {@code {placeholders}}, each replaced by its id in {@code ids}. */
    static String resolve(String template, Map<String, String> ids) {
        Matcher matcher = PLACEHOLDER.matcher(template);
        StringBuilder path = new StringBuilder();
        while (matcher.find()) {
            String id = ids.get(matcher.group(1));
            if (id == null) {
                throw new IllegalStateException("no id for {" + matcher.group(1) + "}");
            }
            matcher.appendReplacement(path, Matcher.quoteReplacement(id));
        }
        matcher.appendTail(path);
        return path.toString();
    }

    // ---------------------------------------------------------------- making things

    /** Creates a policy with those fields (a unique name is added) and answers it. */
    JsonNode createPolicy(Map<String, Object> fields) {
        Map<String, Object> body = body("name", unique("policy"));
        body.putAll(fields);
        ApiResponse created = client.post("/policies", org.adminKey(), body);
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        return created.json();
    }

    /** Creates a policy with those fields and answers its id. */
    String policy(Map<String, Object> fields) {
        return createPolicy(fields).path("id").asText();
    }

    /** A policy without rules: every payment the wallet can afford goes through. */
    String openPolicy() {
        return policy(Map.of());
    }

    Wallet wallet(String policyId, String... tags) {
        ApiResponse created = client.post("/wallets", org.adminKey(), body("agent_id", unique("agent"),
                "label", WALLET_LABEL, "policy_id", policyId, "tags", List.of(tags)));
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        return new Wallet(created.text("id"), created.text("session_token"), created.json());
    }

    Wallet fundedWallet(String amount) {
        return fundedWallet(amount, Map.of());
    }

    /** A wallet under a fresh policy with {@code rules}, funded with {@code amount}. */
    Wallet fundedWallet(String amount, Map<String, Object> rules) {
        Wallet wallet = wallet(policy(rules));
        fund(wallet.id(), amount);
        return wallet;
    }

    /** Funds the wallet and answers it as the fund request did. */
    JsonNode fund(String walletId, String amount) {
        ApiResponse funded = client.post("/wallets/" + walletId + "/fund", org.adminKey(),
                body("amount", amount, "currency", "USDC"));
        assertThat(funded.status()).as(funded.toString()).isEqualTo(200);
        return funded.json();
    }

    /** A payment by an agent: its session token is the request's only credential. */
    ApiResponse pay(String agentToken, Object body) {
        return client.call("POST", "/payments").key(agentToken).body(body).send();
    }

    /** An agent's {@code Dry-Run}: the decision, nothing recorded. */
    ApiResponse dryRun(String agentToken, Object body) {
        return client.call("POST", "/payments").key(agentToken).header("Dry-Run", "true").body(body).send();
    }

    /**
     * A payment a backend makes on an agent's behalf: the admin key, with the agent's session token in
     * {@code Session-Token}; {@code sessionToken} may be null to send none.
     */
    ApiResponse payOnBehalf(String sessionToken, Object body) {
        return withSessionToken(client.call("POST", "/payments").key(org.adminKey()).body(body), sessionToken).send();
    }

    private static ApiClient.Call withSessionToken(ApiClient.Call call, String sessionToken) {
        return sessionToken == null ? call : call.header("Session-Token", sessionToken);
    }

    ApiResponse pay(Wallet from, String to, String amount) {
        return pay(from, to, amount, Map.of());
    }

    /** A payment from {@code from} with its session token, and {@code extra} fields (memo, idempotency key, ...). */
    ApiResponse pay(Wallet from, String to, String amount, Map<String, Object> extra) {
        Map<String, Object> body = payment(from.id(), to, amount);
        body.putAll(extra);
        return pay(from.token(), body);
    }

    JsonNode confirmedPayment(Wallet from, String to, String amount) {
        ApiResponse paid = pay(from, to, amount);
        assertThat(paid.status()).as(paid.toString()).isEqualTo(200);
        assertThat(paid.text("status")).as(paid.toString()).isEqualTo("confirmed");
        return paid.json();
    }

    /** A payment waiting for its co-signature (its policy must have a co-signer); answers the transaction. */
    JsonNode pendingCoSign(Wallet from, String amount) {
        ApiResponse paid = pay(from, randomAddress(), amount, Map.of("require_co_sign", true));
        assertThat(paid.status()).as(paid.toString()).isEqualTo(200);
        assertThat(paid.text("status")).as(paid.toString()).isEqualTo("pending_co_sign");
        return paid.json();
    }

    /** An escrow lock by an agent, with its session token as the request's only credential. */
    ApiResponse lockEscrow(String agentToken, Map<String, Object> body) {
        return client.call("POST", "/payments/a2a").key(agentToken).body(body).send();
    }

    /** An escrow lock a backend makes on an agent's behalf; {@code sessionToken} may be null to send none. */
    ApiResponse lockEscrowOnBehalf(String sessionToken, Map<String, Object> body) {
        return withSessionToken(client.call("POST", "/payments/a2a").key(org.adminKey()).body(body), sessionToken)
                .send();
    }

    /** An escrow lock from {@code from} with its session token, and {@code extra} fields. */
    ApiResponse lockEscrow(Wallet from, String toWallet, String amount, Map<String, Object> extra) {
        Map<String, Object> body = escrow(from.id(), toWallet, amount);
        body.putAll(extra);
        return lockEscrow(from.token(), body);
    }

    /** A locked escrow to a fresh recipient; answers its id. */
    String lockedEscrow(Wallet from, String amount) {
        ApiResponse locked = lockEscrow(from, randomAddress(), amount, Map.of());
        assertThat(locked.status()).as(locked.toString()).isEqualTo(200);
        assertThat(locked.text("status")).isEqualTo("locked");
        return locked.text("id");
    }

    /** A locked escrow to a fresh recipient with a dispute its sender's agent raised on it; answers its id. */
    String disputedEscrow(Wallet from, String amount) {
        String escrowId = lockedEscrow(from, amount);
        ApiResponse disputed = client.post("/payments/a2a/" + escrowId + "/dispute", from.token(),
                body("reason", "the output is wrong", "evidence", sha256Hex("evidence " + escrowId)));
        assertThat(disputed.status()).as(disputed.toString()).isEqualTo(200);
        assertThat(disputed.text("status")).isEqualTo("disputed");
        return escrowId;
    }

    /** A webhook to a port nothing listens on; answers its id. */
    String webhook(Object events) {
        ApiResponse created = client.post("/webhooks", org.adminKey(),
                body("url", "https://127.0.0.1:9/" + unique("hook"), "events", events));
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        return created.text("webhook_id");
    }

    /** A CSV export of the organisation's history; answers its id. */
    String export() {
        ApiResponse created = client.post("/transactions/export", org.adminKey(), body("format", "csv"));
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        return created.text("id");
    }

    // ---------------------------------------------------------------- co-signing

    /** The base58 public key of the organisation's co-signer: the last 32 bytes of its 64-byte secret. */
    String coSignerPublicKey() {
        return Base58.encode(Arrays.copyOfRange(coSignerSecret(), 32, 64));
    }

    /** The co-signer's base58 Ed25519 signature of a base64 {@code co_sign_payload}. */
    String coSign(String payloadBase64) {
        try {
            byte[] seed = Arrays.copyOfRange(coSignerSecret(), 0, 32);
            PrivateKey key = KeyFactory.getInstance("Ed25519")
                    .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, seed));
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(key);
            signer.update(Base64.getDecoder().decode(payloadBase64));
            return Base58.encode(signer.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The Solana-style secret key: the 32-byte seed, then the public key. */
    private byte[] coSignerSecret() {
        byte[] secret = Base58.decode(org.coSignerSecretKey()).orElseThrow();
        assertThat(secret).hasSize(64);
        return secret;
    }

    // ---------------------------------------------------------------- reading

    String balance(String walletId) {
        ApiResponse wallet = client.get("/wallets/" + walletId, org.viewerKey());
        assertThat(wallet.status()).as(wallet.toString()).isEqualTo(200);
        return wallet.text("usdc_balance");
    }

    /** Every item of a list, following {@code next_cursor}. */
    List<JsonNode> all(String path) {
        List<JsonNode> items = new ArrayList<>();
        String cursor = null;
        do {
            String page = cursor == null ? path : path + (path.contains("?") ? "&" : "?") + "cursor=" + cursor;
            ApiResponse list = client.get(page, org.viewerKey());
            items.addAll(items(list));
            cursor = list.json().path("has_more").asBoolean() ? list.text("next_cursor") : null;
        } while (cursor != null);
        return items;
    }

    /** The wallet's history, newest first; {@code query} like {@code "type=payment"} or "". */
    List<JsonNode> transactions(String walletId, String query) {
        return all("/wallets/" + walletId + "/transactions?limit=100" + (query.isEmpty() ? "" : "&" + query));
    }

    List<String> txIds(String walletId, String query) {
        return field(transactions(walletId, query), "tx_id");
    }

    /** Waits until no transaction of the wallet is still {@code pending} on the ledger, so its history stops moving. */
    void awaitSettled(String walletId) {
        Eventually.await(Duration.ofSeconds(20), () -> "wallet " + walletId + " still has pending transactions",
                () -> field(transactions(walletId, ""), "status").contains("pending")
                        ? Optional.empty() : Optional.of(walletId));
    }

    /** The {@code data} of a list answer, which must be a 200. */
    static List<JsonNode> items(ApiResponse list) {
        assertThat(list.status()).as(list.toString()).isEqualTo(200);
        List<JsonNode> items = new ArrayList<>();
        list.json().path("data").forEach(items::add);
        return items;
    }

    /** The text of one field of each item. */
    static List<String> field(List<JsonNode> items, String name) {
        return items.stream().map(item -> item.path(name).asText()).toList();
    }

    static List<String> texts(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asText()));
        return values;
    }
}
