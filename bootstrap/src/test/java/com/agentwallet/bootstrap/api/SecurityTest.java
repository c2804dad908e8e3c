package com.agentwallet.bootstrap.api;

import com.agentwallet.core.crypto.Base58;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertError;
import static com.agentwallet.bootstrap.api.ApiFixtures.body;
import static com.agentwallet.bootstrap.api.ApiFixtures.bogusSignature;
import static com.agentwallet.bootstrap.api.ApiFixtures.escrow;
import static com.agentwallet.bootstrap.api.ApiFixtures.payment;
import static com.agentwallet.bootstrap.api.ApiFixtures.addressWithoutUsdcAccount;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static com.agentwallet.bootstrap.api.ApiFixtures.unique;
import static com.agentwallet.bootstrap.api.ApiServer.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The security suite's own server, run as in production on the points a development setup relaxes:
 * webhook receivers at private addresses are refused, and the server logs from INFO up, to its log
 * file and its request log in its data directory.
 * A run that handles every kind of secret (API keys of every role, session tokens and the key that
 * signs them, the co-signer's key, webhook signing secrets and, on Solana, the fee payer's key), and
 * sends hostile credentials on purpose (near misses, keys and tokens in each other's place, expired
 * tokens), must leave none of them in the log, and no answer may carry a secret its request did not.
 * The server runs on a clock the suite moves, to let session tokens expire.
 */
class SecurityTest {
    private static final List<String> PRIVATE_RECEIVERS = List.of(
            "https://127.0.0.1/hook", "https://127.1/hook", "https://localhost/hook", "https://0.0.0.0/hook",
            "https://10.0.0.8/hook", "https://172.20.1.1/hook", "https://192.168.0.10/hook",
            "https://100.64.1.1/hook", "https://169.254.169.254/latest/meta-data/", "https://224.0.0.1/hook",
            "https://[::1]/hook", "https://[::]/hook", "https://[fd00::5]/hook", "https://[fe80::1]/hook",
            "https://[::ffff:127.0.0.1]/hook", "https://[::ffff:a9fe:a9fe]/hook", "https://[64:ff9b::a00:1]/hook",
            "https://[2002:c0a8:1::1]/hook", "https://user:password@127.0.0.1/hook", "https://127.0.0.1:8443/v1",
            "http://8.8.8.8/hook");
    /** A public address: accepted as a receiver; nothing is delivered to it here (it takes no event this run sends). */
    private static final String PUBLIC_RECEIVER = "https://8.8.8.8/agent-wallet-security-test";

    private static final JumpingClock CLOCK = new JumpingClock();

    private static ApiServer server;
    private static ApiClient client;
    private static DemoOrg org;
    private static ApiFixtures fx;
    /** Secrets the run handled, by what they are. */
    private static final Map<String, String> SECRETS = new LinkedHashMap<>();
    /** Answers to check for secrets, each with the secrets its own request carried. */
    private static final List<Answer> ANSWERS = new ArrayList<>();
    private static final AtomicInteger PRIVATE_REFUSED = new AtomicInteger();
    private static final AtomicInteger HOSTILE_REFUSED = new AtomicInteger();
    private static final AtomicInteger PLAIN_HTTP_REFUSED = new AtomicInteger();

    private record Answer(String request, ApiResponse response, List<String> carried) {
    }

    @BeforeAll
    static void server() {
        server = ApiServer.onTestLedger(CLOCK, ConfigOverride.config("webhooks.allowPrivateReceivers", "false"),
                ConfigOverride.config("logging.level", "INFO"));
        client = server.client();
        org = server.org();
        fx = new ApiFixtures(server);
        for (DemoOrg each : List.of(server.org(), server.otherOrg())) {
            SECRETS.put(each.id() + " owner key", each.ownerKey());
            SECRETS.put(each.id() + " admin key", each.adminKey());
            SECRETS.put(each.id() + " operator key", each.operatorKey());
            SECRETS.put(each.id() + " viewer key", each.viewerKey());
            SECRETS.put(each.id() + " co-signer key", each.coSignerSecretKey());
        }
        SECRETS.put("session signing key", read(server.dataDirectory().resolve("session-signing.key")).trim());
        for (String file : List.of(ApiServer.FEE_PAYER_FILE, "registrar.json", "authority-root.json", "session-root.json")) {
            Path keypair = server.dataDirectory().resolve(file);
            if (Files.exists(keypair)) {
                byte[] secret = keypairBytes(read(keypair));
                SECRETS.put(file + " key (base58)", Base58.encode(secret));
                SECRETS.put(file + " seed (base58)", Base58.encode(Arrays.copyOf(secret, 32)));
                SECRETS.put(file + " key (base64)", Base64.getEncoder().encodeToString(secret));
                SECRETS.put(file + " key (hex)", HexFormat.of().formatHex(secret));
                SECRETS.put(file + " key (file)", read(keypair).trim());
            }
        }
    }

    @AfterAll
    static void scan() {
        server.stop();
        String logged = read(server.dataDirectory().resolve(ApiServer.LOG_FILE))
                + read(server.dataDirectory().resolve(ApiServer.REQUEST_LOG_FILE));
        assertThat(logged).as("the run's log and request log").contains("GET /v1/wallets");
        List<String> leaks = new ArrayList<>();
        SECRETS.forEach((what, secret) -> {
            if (logged.contains(secret)) {
                leaks.add(what + " in the log");
            }
            ANSWERS.stream().filter(answer -> !answer.carried().contains(secret)
                            && answer.response().raw().contains(secret))
                    .forEach(answer -> leaks.add(what + " in the answer to " + answer.request()));
        });
        System.out.printf("security: %d endpoints refused over plain HTTP, %d private receivers refused, %d hostile "
                        + "requests refused, %d secrets checked in %d log lines and %d answers, %d found%n",
                PLAIN_HTTP_REFUSED.get(), PRIVATE_REFUSED.get(), HOSTILE_REFUSED.get(), SECRETS.size(), logged.lines().count(), ANSWERS.size(), leaks.size());
        assertThat(leaks).as("secrets where they must never be").isEmpty();
    }

    /** On the shared server, whose development setup lets the catalogue make its local webhooks. */
    @Test
    void plainHttpIsRefusedOnEveryEndpointBeforeAnythingHappens() {
        ApiServer shared = ApiServer.shared();
        ApiFixtures sharedFixtures = new ApiFixtures(shared);
        Endpoints endpoints = Endpoints.prepare(shared);
        List<String> lists = List.of("/wallets", "/policies", "/wallets/" + endpoints.payer().id() + "/transactions");
        Map<String, List<JsonNode>> before = new LinkedHashMap<>();
        lists.forEach(list -> before.put(list, sharedFixtures.all(list)));

        for (Endpoints.Endpoint endpoint : Endpoints.all()) {
            ApiResponse answer = endpoints.call(shared.client(), endpoint).key(shared.org().ownerKey())
                    .overPlainHttp().send();
            assertError(answer, 403, "https_required");
            PLAIN_HTTP_REFUSED.incrementAndGet();
        }
        lists.forEach(list -> assertThat(sharedFixtures.all(list)).as(list + " after plain HTTP")
                .isEqualTo(before.get(list)));
    }

    @Test
    void webhookReceiversAtPrivateAddressesAreRefusedAndNothingIsMade() {
        List<JsonNode> before = fx.all("/webhooks");
        for (String url : PRIVATE_RECEIVERS) {
            JsonNode error = assertError(record("POST /webhooks " + url, client.post("/webhooks", org.adminKey(),
                    body("url", url, "events", List.of("policy.expired")))), 400, "validation_error");
            assertThat(error.path("param").asText()).as(url).isEqualTo("url");
            PRIVATE_REFUSED.incrementAndGet();
        }
        assertThat(fx.all("/webhooks")).as("no webhook was made").hasSameSizeAs(before);

        ApiResponse created = client.post("/webhooks", org.adminKey(),
                body("url", PUBLIC_RECEIVER, "events", List.of("policy.expired")));
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        String webhookId = created.text("webhook_id");
        SECRETS.put("webhook signing secret", created.text("signing_secret"));
        for (String url : PRIVATE_RECEIVERS) {
            assertError(record("PATCH /webhooks/{id} " + url, client.patch("/webhooks/" + webhookId, org.adminKey(),
                    body("url", url))), 400, "validation_error");
            PRIVATE_REFUSED.incrementAndGet();
        }
        ApiResponse kept = record("GET /webhooks/{id}", client.get("/webhooks/" + webhookId, org.viewerKey()));
        assertThat(kept.text("url")).isEqualTo(PUBLIC_RECEIVER);
        record("GET /webhooks", client.get("/webhooks", org.viewerKey()));
        record("GET /webhooks/{id}/deliveries", client.get("/webhooks/" + webhookId + "/deliveries", org.viewerKey()));
    }

    @Test
    void hostileCredentialsAreRefusedWithoutBeingEchoed() {
        String policy = fx.policy(Map.of("max_per_tx", "50.00", "require_co_sign", "20.00",
                "co_signer", fx.coSignerPublicKey()));
        ApiFixtures.Wallet wallet = fx.wallet(policy);
        fx.fund(wallet.id(), "100.00");
        SECRETS.put("session token", wallet.token());
        String to = randomAddress();

        refused("a near miss of the admin key", 401, client.call("GET", "/wallets").key(org.adminKey() + "0").send(),
                org.adminKey() + "0");
        refused("the admin key without its last character", 401,
                client.call("GET", "/wallets").key(org.adminKey().substring(0, org.adminKey().length() - 1)).send());
        refused("the session token on an endpoint only API keys call", 403,
                client.call("GET", "/wallets").key(wallet.token()).send(), wallet.token());
        for (Map.Entry<String, String> forged : forgeries(wallet.token()).entrySet()) {
            refused("a session token " + forged.getKey(), 401,
                    client.call("GET", "/wallets/" + wallet.id()).key(forged.getValue()).send(), forged.getValue());
            refused("a session token " + forged.getKey() + " paying", 401,
                    fx.pay(forged.getValue(), payment(wallet.id(), to, "1.00")), forged.getValue());
        }
        refused("the API key as the session token", 401, client.call("POST", "/payments").key(org.adminKey())
                .header("Session-Token", org.adminKey()).body(payment(wallet.id(), to, "1.00")).send(), org.adminKey());
        refused("the other organisation's key", 404,
                client.get("/wallets/" + wallet.id(), server.otherOrg().adminKey()), server.otherOrg().adminKey());
        refused("the API key in the body", 400, client.post("/policies", org.adminKey(),
                body("name", unique("leak"), "api_key", org.ownerKey())), org.adminKey(), org.ownerKey());
        refused("the session token as an amount", 400, fx.pay(wallet.token(), payment(wallet.id(), to,
                wallet.token())), org.adminKey(), wallet.token());
        refused("a co-signature by a stranger", 400, client.post("/payments/"
                + fx.pendingCoSign(wallet, "30.00").path("tx_id").asText() + "/co-sign", org.operatorKey(),
                body("signature", bogusSignature())), org.operatorKey());

        JsonNode paid = fx.pendingCoSign(wallet, "25.00");
        String txId = paid.path("tx_id").asText();
        ApiResponse coSigned = record("POST /payments/{id}/co-sign", client.post("/payments/" + txId + "/co-sign",
                org.operatorKey(), body("signature", fx.coSign(paid.path("co_sign_payload").asText()))));
        assertThat(coSigned.status()).as(coSigned.toString()).isEqualTo(200);

        ApiResponse rotated = client.post("/wallets/" + wallet.id() + "/rotate-token", org.adminKey(), body());
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        SECRETS.put("rotated session token", rotated.text("session_token"));
        refused("the session token before the rotation", 401, fx.pay(wallet.token(), payment(wallet.id(), to, "1.00")),
                wallet.token());
        refused("the session token before the rotation, reading its wallet", 401,
                client.get("/wallets/" + wallet.id(), wallet.token()), wallet.token());
        record("GET /wallets/{id}", client.get("/wallets/" + wallet.id(), org.viewerKey()));
        record("GET /wallets/{id}/transactions", client.get("/wallets/" + wallet.id() + "/transactions", org.viewerKey()));
    }

    /**
     * The fee payer opens no token account for a recipient, which would cost it the account's rent on
     * every payment to a fresh address: such a payment fails, saying why, and moves nothing.
     */
    @Test
    void aPaymentToAnAddressWithoutAUsdcAccountFailsAndOpensNoAccountAtTheFeePayersCost() {
        assumeTrue(server.onSolana(), "only the Solana adapter asks a recipient for a USDC account");
        ApiFixtures.Wallet wallet = fx.wallet(fx.openPolicy());
        fx.fund(wallet.id(), "10.00");
        String newcomer = addressWithoutUsdcAccount();

        ApiResponse paid = record("POST /payments to an address without a USDC account",
                fx.pay(wallet, newcomer, "0.000001"));

        assertThat(paid.status()).as(paid.toString()).isEqualTo(200);
        assertThat(paid.text("status")).isEqualTo("failed");
        assertThat(paid.text("failure_reason"))
                .startsWith("recipient_account_missing: the recipient " + newcomer + " holds no USDC token account");
        assertThat(fx.balance(wallet.id())).isEqualTo("10.00");
        ApiResponse again = fx.pay(wallet, randomAddress(), "0.000001");
        assertThat(again.text("status")).as(again.toString()).isEqualTo("confirmed");
    }

    @Test
    void anExpiredSessionTokenIsRefusedUntilANewOneIsIssued() {
        ApiResponse created = client.post("/wallets", org.adminKey(), body("agent_id", unique("expiring"),
                "policy_id", fx.openPolicy(), "session_ttl_seconds", 300));
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        String walletId = created.text("id");
        String token = created.text("session_token");
        SECRETS.put("expiring session token", token);
        fx.fund(walletId, "10.00");
        String to = randomAddress();
        assertThat(fx.pay(token, payment(walletId, to, "1.00")).status()).isEqualTo(200);

        CLOCK.jumpTo(Instant.parse(created.text("session_token_expires_at")).plusSeconds(1));
        refused("an expired session token", 401, fx.pay(token, payment(walletId, to, "1.00")), token);
        refused("an expired session token on an escrow", 401, fx.lockEscrow(token, escrow(walletId, to, "1.00")),
                token);
        refused("an expired session token reading its history", 401,
                client.get("/wallets/" + walletId + "/transactions", token), token);
        refused("an expired session token in a backend's Session-Token", 401,
                fx.payOnBehalf(token, payment(walletId, to, "1.00")), org.adminKey(), token);
        assertThat(fx.balance(walletId)).isEqualTo("9.00");

        ApiResponse rotated = client.post("/wallets/" + walletId + "/rotate-token", org.adminKey(), body());
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        SECRETS.put("session token issued after expiry", rotated.text("session_token"));
        ApiResponse paid = fx.pay(rotated.text("session_token"), payment(walletId, to, "1.00"));
        assertThat(paid.status()).as(paid.toString()).isEqualTo(200);
        assertThat(fx.balance(walletId)).isEqualTo("8.00");
    }

    /** Tokens made from a real one that must not pass: a payload changed under its signature, no algorithm, none. */
    private static Map<String, String> forgeries(String token) {
        String[] parts = token.split("\\.");
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
        String raised = base64.encodeToString(payload.replaceFirst("\"ver\":(\\d+)", "\"ver\":99")
                .getBytes(StandardCharsets.UTF_8));
        String none = base64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        Map<String, String> forged = new LinkedHashMap<>();
        forged.put("with a tampered payload", parts[0] + "." + raised + "." + parts[2]);
        forged.put("with alg none", none + "." + parts[1] + ".");
        forged.put("without its signature", parts[0] + "." + parts[1] + ".");
        return forged;
    }

    /** Checks a hostile request's refusal and keeps its answer for the scan, with the secrets the request carried. */
    private static void refused(String request, int status, ApiResponse answer, String... carried) {
        assertThat(answer.status()).as(request + ": " + answer).isEqualTo(status);
        ApiAssertions.assertWellFormedError(answer);
        ANSWERS.add(new Answer(request, answer, List.of(carried)));
        HOSTILE_REFUSED.incrementAndGet();
    }

    private static ApiResponse record(String request, ApiResponse answer) {
        ANSWERS.add(new Answer(request, answer, List.of()));
        return answer;
    }

    /** A solana-keygen file: a JSON array of the 64 bytes. */
    private static byte[] keypairBytes(String json) {
        String[] numbers = json.replaceAll("[\\[\\]\\s]", "").split(",");
        byte[] bytes = new byte[numbers.length];
        for (int i = 0; i < numbers.length; i++) {
            bytes[i] = (byte) Integer.parseInt(numbers[i]);
        }
        return bytes;
    }
}
