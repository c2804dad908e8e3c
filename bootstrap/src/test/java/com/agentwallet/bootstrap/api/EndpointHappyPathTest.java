package com.agentwallet.bootstrap.api;

import com.agentwallet.bootstrap.api.ApiFixtures.Wallet;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertAmount;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertEscrow;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertId;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertList;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertPolicy;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertPolicyViolation;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertSessionTokenRefused;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertSnakeCaseKeys;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertTimestamp;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertTransaction;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertWallet;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertWebhook;
import static com.agentwallet.bootstrap.api.ApiFixtures.body;
import static com.agentwallet.bootstrap.api.ApiFixtures.field;
import static com.agentwallet.bootstrap.api.ApiFixtures.items;
import static com.agentwallet.bootstrap.api.ApiFixtures.payment;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static com.agentwallet.bootstrap.api.ApiFixtures.sha256Hex;
import static com.agentwallet.bootstrap.api.ApiFixtures.texts;
import static com.agentwallet.bootstrap.api.ApiFixtures.unique;
import static com.agentwallet.bootstrap.api.ApiFixtures.unknownId;
import static com.agentwallet.bootstrap.api.ApiFixtures.with;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The happy path of every /v1 endpoint against the real server: status, the important fields and
 * the wire shape (snake_case keys, {@code object}, amounts as strings, timestamps with millis and Z,
 * prefixed ids). Each test works in policies, wallets and recipients of its own.
 */
class EndpointHappyPathTest {
    private final ApiFixtures fx = new ApiFixtures(ApiServer.shared());
    private final ApiClient client = fx.client();
    private final DemoOrg org = fx.org();

    // ==================================================================================== policies
    @Nested
    class Policies {

        @Test
        void createWithSnakeCaseFields() {
            String recipient = randomAddress();
            ApiResponse created = client.post("/policies", org.adminKey(), body("name", "snake policy",
                    "max_per_tx", "50", "max_per_day", "200.5", "max_per_month", "1000.000001", "velocity_cap", 10,
                    "allowed_recipients", List.of(recipient), "blocked_categories", List.of("gambling"),
                    "expiry", "2099-01-01T00:00:00Z", "require_co_sign", "40.00",
                    "co_signer", fx.coSignerPublicKey()));

            assertThat(created.status()).as(created.toString()).isEqualTo(200);
            JsonNode policy = created.json();
            assertPolicy(policy);
            assertThat(policy.path("name").asText()).isEqualTo("snake policy");
            assertAmount(policy.path("max_per_tx"), "50.00");
            assertAmount(policy.path("max_per_day"), "200.50");
            assertAmount(policy.path("max_per_month"), "1000.000001");
            assertThat(policy.path("velocity_cap").asInt()).isEqualTo(10);
            assertThat(texts(policy.path("allowed_recipients"))).containsExactly(recipient);
            assertThat(texts(policy.path("blocked_categories"))).containsExactly("gambling");
            assertThat(policy.path("expiry").asText()).isEqualTo("2099-01-01T00:00:00.000Z");
            assertAmount(policy.path("require_co_sign"), "40.00");
            assertThat(policy.path("co_signer").asText()).isEqualTo(fx.coSignerPublicKey());
        }

        @Test
        void createWithCamelCaseFields() {
            ApiResponse created = client.post("/policies", org.adminKey(), body("name", "camel policy",
                    "maxPerTx", "25.00", "maxPerDay", "100.00", "velocityCap", 3,
                    "allowedRecipients", List.of(), "blockedCategories", List.of("adult", "gambling")));

            assertThat(created.status()).as(created.toString()).isEqualTo(200);
            JsonNode policy = created.json();
            assertPolicy(policy);
            assertAmount(policy.path("max_per_tx"), "25.00");
            assertAmount(policy.path("max_per_day"), "100.00");
            assertThat(policy.path("max_per_month").isNull()).isTrue();
            assertThat(policy.path("velocity_cap").asInt()).isEqualTo(3);
            assertThat(texts(policy.path("blocked_categories"))).containsExactlyInAnyOrder("adult", "gambling");
            assertThat(policy.path("expiry").isNull()).isTrue();
            assertThat(policy.path("require_co_sign").isNull()).isTrue();
        }

        @Test
        void getOne() {
            JsonNode created = fx.createPolicy(body("max_per_tx", "10.00"));

            ApiResponse read = client.get("/policies/" + created.path("id").asText(), org.viewerKey());

            assertThat(read.status()).as(read.toString()).isEqualTo(200);
            assertPolicy(read.json());
            assertThat(read.json()).isEqualTo(created);
        }

        @Test
        void listPagesWithLimitAndCursor() {
            String first = fx.openPolicy();
            String second = fx.openPolicy();

            ApiResponse all = client.get("/policies", org.viewerKey());
            assertThat(all.status()).as(all.toString()).isEqualTo(200);
            assertList(all.json());
            all.json().path("data").forEach(ApiAssertions::assertPolicy);

            ApiResponse page1 = client.get("/policies?limit=1", org.viewerKey());
            assertThat(page1.status()).as(page1.toString()).isEqualTo(200);
            assertList(page1.json());
            assertThat(page1.json().path("data")).hasSize(1);
            assertThat(page1.json().path("has_more").asBoolean()).isTrue();
            String cursor = page1.text("next_cursor");
            assertThat(cursor).isNotBlank();

            ApiResponse page2 = client.get("/policies?limit=1&cursor=" + cursor, org.viewerKey());
            assertThat(page2.status()).as(page2.toString()).isEqualTo(200);
            assertList(page2.json());
            assertThat(page2.json().path("data")).hasSize(1);
            assertThat(page2.json().path("data").get(0).path("id").asText())
                    .isNotEqualTo(page1.json().path("data").get(0).path("id").asText());

            // newest first: the later of two policies comes before the earlier one
            List<String> ids = field(fx.all("/policies?limit=100"), "id");
            assertThat(ids).contains(first, second);
            assertThat(ids.indexOf(second)).isLessThan(ids.indexOf(first));
        }

        @Test
        void patchChangesAFieldAndNullClearsOne() {
            JsonNode created = fx.createPolicy(body("max_per_tx", "10.00", "max_per_day", "100.00"));
            String id = created.path("id").asText();

            ApiResponse patched = client.patch("/policies/" + id, org.adminKey(),
                    body("name", "renamed", "maxPerTx", "20.5", "max_per_day", null));

            assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
            JsonNode policy = patched.json();
            assertPolicy(policy);
            assertThat(policy.path("id").asText()).isEqualTo(id);
            assertThat(policy.path("name").asText()).isEqualTo("renamed");
            assertAmount(policy.path("max_per_tx"), "20.50");
            assertThat(policy.path("max_per_day").isNull()).as("max_per_day cleared").isTrue();
            assertThat(policy.path("version").asLong()).isGreaterThan(created.path("version").asLong());
            assertThat(client.get("/policies/" + id, org.viewerKey()).json()).isEqualTo(policy);
        }

        @Test
        void cloneWithOverrides() {
            JsonNode original = fx.createPolicy(body("max_per_tx", "10.00", "velocity_cap", 7,
                    "blocked_categories", List.of("gambling")));
            String recipient = randomAddress();

            ApiResponse cloned = client.post("/policies/" + original.path("id").asText() + "/clone", org.adminKey(),
                    body("name", "the clone", "allowedRecipients", List.of(recipient)));

            assertThat(cloned.status()).as(cloned.toString()).isEqualTo(200);
            JsonNode clone = cloned.json();
            assertPolicy(clone);
            assertThat(clone.path("id").asText()).isNotEqualTo(original.path("id").asText());
            assertThat(clone.path("name").asText()).isEqualTo("the clone");
            assertThat(texts(clone.path("allowed_recipients"))).containsExactly(recipient);
            assertAmount(clone.path("max_per_tx"), "10.00");
            assertThat(clone.path("velocity_cap").asInt()).isEqualTo(7);
            assertThat(texts(clone.path("blocked_categories"))).containsExactly("gambling");
            // the original is untouched
            JsonNode again = client.get("/policies/" + original.path("id").asText(), org.viewerKey()).json();
            assertThat(again.path("name").asText()).isEqualTo(original.path("name").asText());
            assertThat(again.path("allowed_recipients")).isEmpty();
        }

        @Test
        void auditLogListsChangesWithTheirDiff() {
            JsonNode created = fx.createPolicy(body("max_per_tx", "10.00", "max_per_day", "100.00"));
            String id = created.path("id").asText();
            ApiResponse patched = client.patch("/policies/" + id, org.adminKey(),
                    body("name", "audited", "max_per_day", null));
            assertThat(patched.status()).as(patched.toString()).isEqualTo(200);

            ApiResponse log = client.get("/policies/" + id + "/audit-log", org.viewerKey());

            assertThat(log.status()).as(log.toString()).isEqualTo(200);
            assertList(log.json());
            JsonNode entries = log.json().path("data");
            assertThat(entries).hasSize(2);
            JsonNode update = entries.get(0);
            assertThat(update.path("object").asText()).isEqualTo("policy_audit_entry");
            assertThat(update.path("policy_id").asText()).isEqualTo(id);
            assertThat(update.path("action").asText()).isEqualTo("updated");
            assertThat(update.path("actor").asText()).isNotBlank();
            assertTimestamp(update.path("created_at"));
            JsonNode changes = update.path("changes");
            assertThat(changes.path("name").path("old").asText()).isEqualTo(created.path("name").asText());
            assertThat(changes.path("name").path("new").asText()).isEqualTo("audited");
            assertThat(changes.path("max_per_day").path("old").asText()).isEqualTo("100.00");
            assertThat(changes.path("max_per_day").path("new").isNull()).isTrue();
            assertThat(changes.has("max_per_tx")).as("unchanged fields are not in the diff").isFalse();
            assertThat(entries.get(1).path("action").asText()).isEqualTo("created");
            assertThat(update.path("version").asLong()).isGreaterThan(entries.get(1).path("version").asLong());
        }

        @Test
        void deleteAnUnusedPolicy() {
            String id = fx.openPolicy();

            ApiResponse deleted = deleteThenAssertGone("/policies/" + id);

            assertThat(deleted.text("id")).isEqualTo(id);
        }
    }

    // ================================================================================== recipients
    @Nested
    class Recipients {

        @Test
        void categoriseAndReadARecipient() {
            String address = randomAddress();

            ApiResponse put = client.put("/recipients/" + address, org.adminKey(), body("category", "gambling"));

            assertThat(put.status()).as(put.toString()).isEqualTo(200);
            assertThat(put.text("object")).isEqualTo("recipient");
            assertThat(put.text("address")).isEqualTo(address);
            assertThat(put.text("category")).isEqualTo("gambling");

            ApiResponse read = client.get("/recipients/" + address, org.viewerKey());
            assertThat(read.status()).as(read.toString()).isEqualTo(200);
            assertThat(read.json()).isEqualTo(put.json());

            ApiResponse recategorised = client.put("/recipients/" + address, org.adminKey(), body("category", "games"));
            assertThat(recategorised.status()).as(recategorised.toString()).isEqualTo(200);
            assertThat(client.get("/recipients/" + address, org.viewerKey()).text("category")).isEqualTo("games");
        }

        @Test
        void aPaymentToABlockedCategoryIsAPolicyViolation() {
            String casino = randomAddress();
            assertThat(client.put("/recipients/" + casino, org.adminKey(), body("category", "gambling")).status())
                    .isEqualTo(200);
            String policy = fx.createPolicy(body("blocked_categories", List.of("gambling"))).path("id").asText();
            Wallet agent = fx.wallet(policy);
            fx.fund(agent.id(), "100.00");

            ApiResponse refused = fx.pay(agent, casino, "5.00");

            assertThat(assertPolicyViolation(refused).path("rule").asText()).isEqualTo("blocked_category");
            assertThat(fx.balance(agent.id())).isEqualTo("100.00");
            // another recipient is fine
            fx.confirmedPayment(agent, randomAddress(), "5.00");
        }
    }

    // ===================================================================================== wallets
    @Nested
    class Wallets {

        @Test
        void createReturnsASessionTokenAndAnEmptyBalance() {
            String policy = fx.openPolicy();
            String agentId = unique("agent-create");

            ApiResponse created = client.post("/wallets", org.adminKey(), body("agentId", agentId, "label", "Buyer bot",
                    "policyId", policy, "tags", List.of("alpha", "beta"), "ownerOrg", org.id()));

            assertThat(created.status()).as(created.toString()).isEqualTo(200);
            JsonNode wallet = created.json();
            assertWallet(wallet);
            assertThat(wallet.path("agent_id").asText()).isEqualTo(agentId);
            assertThat(wallet.path("label").asText()).isEqualTo("Buyer bot");
            assertThat(wallet.path("policy_id").asText()).isEqualTo(policy);
            assertThat(wallet.path("owner_org").asText()).isEqualTo(org.id());
            assertThat(texts(wallet.path("tags"))).containsExactly("alpha", "beta");
            assertThat(wallet.path("status").asText()).isEqualTo("active");
            assertAmount(wallet.path("usdc_balance"), "0.00");
            assertThat(wallet.path("session_token").asText()).matches("^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$");
            assertTimestamp(wallet.path("session_token_expires_at"));
            Instant expires = Instant.parse(wallet.path("session_token_expires_at").asText());
            assertThat(expires).isBetween(Instant.now().plusSeconds(3000), Instant.now().plusSeconds(3700));
        }

        @Test
        void getOneShowsNoSessionToken() {
            Wallet agent = fx.wallet(fx.openPolicy());

            ApiResponse read = client.get("/wallets/" + agent.id(), org.viewerKey());

            assertThat(read.status()).as(read.toString()).isEqualTo(200);
            assertWallet(read.json());
            assertThat(read.text("id")).isEqualTo(agent.id());
            assertThat(read.text("solana_address")).isEqualTo(agent.address());
            assertThat(read.json().has("session_token")).isFalse();
        }

        @Test
        void listFiltersByTagsAndStatus() {
            String tag = unique("tag");
            String policy = fx.openPolicy();
            Wallet first = fx.wallet(policy, tag, "common");
            Wallet second = fx.wallet(policy, tag);
            fx.wallet(policy, "common");
            ApiResponse frozen = client.patch("/wallets/" + second.id(), org.operatorKey(), body("status", "frozen"));
            assertThat(frozen.status()).as(frozen.toString()).isEqualTo(200);

            ApiResponse byTag = client.get("/wallets?tags=" + tag, org.viewerKey());
            assertThat(byTag.status()).as(byTag.toString()).isEqualTo(200);
            assertList(byTag.json());
            byTag.json().path("data").forEach(ApiAssertions::assertWallet);
            assertThat(field(items(byTag), "id")).containsExactly(second.id(), first.id());

            ApiResponse bothTags = client.get("/wallets?tags=" + tag + ",common", org.viewerKey());
            assertThat(bothTags.status()).as(bothTags.toString()).isEqualTo(200);
            assertThat(field(items(bothTags), "id")).containsExactly(first.id());

            ApiResponse frozenOnes = client.get("/wallets?status=frozen&tags=" + tag, org.viewerKey());
            assertThat(frozenOnes.status()).as(frozenOnes.toString()).isEqualTo(200);
            assertThat(field(items(frozenOnes), "id")).containsExactly(second.id());

            ApiResponse activeOnes = client.get("/wallets?status=active&limit=100", org.viewerKey());
            assertThat(activeOnes.status()).as(activeOnes.toString()).isEqualTo(200);
            assertThat(field(items(activeOnes), "status")).containsOnly("active");
        }

        @Test
        void patchLabelAndPolicyAsAdmin() {
            Wallet agent = fx.wallet(fx.openPolicy());
            String other = fx.openPolicy();

            ApiResponse patched = client.patch("/wallets/" + agent.id(), org.adminKey(),
                    body("label", "relabelled", "policyId", other));

            assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
            assertWallet(patched.json());
            assertThat(patched.text("label")).isEqualTo("relabelled");
            assertThat(patched.text("policy_id")).isEqualTo(other);
            assertThat(client.get("/wallets/" + agent.id(), org.viewerKey()).text("policy_id")).isEqualTo(other);
        }

        @Test
        void freezeAndUnfreezeAsOperator() {
            Wallet agent = fx.wallet(fx.openPolicy());
            fx.fund(agent.id(), "10.00");

            ApiResponse frozen = client.patch("/wallets/" + agent.id(), org.operatorKey(), body("status", "frozen"));
            assertThat(frozen.status()).as(frozen.toString()).isEqualTo(200);
            assertThat(frozen.text("status")).isEqualTo("frozen");
            ApiResponse refused = fx.pay(agent, randomAddress(), "1.00");
            assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
            assertThat(refused.errorCode()).isEqualTo("invalid_state");

            ApiResponse active = client.patch("/wallets/" + agent.id(), org.operatorKey(), body("status", "active"));
            assertThat(active.status()).as(active.toString()).isEqualTo(200);
            assertThat(active.text("status")).isEqualTo("active");
            fx.confirmedPayment(agent, randomAddress(), "1.00");
        }

        @Test
        void fundGrowsTheBalance() {
            Wallet agent = fx.wallet(fx.openPolicy());

            ApiResponse funded = client.post("/wallets/" + agent.id() + "/fund", org.adminKey(),
                    body("amount", "100", "currency", "USDC"));

            assertThat(funded.status()).as(funded.toString()).isEqualTo(200);
            assertWallet(funded.json());
            assertAmount(funded.json().path("usdc_balance"), "100.00");
            assertAmount(fx.fund(agent.id(), "0.000001").path("usdc_balance"), "100.000001");
            assertThat(fx.balance(agent.id())).isEqualTo("100.000001");
        }

        private ApiResponse fundBatch(Object... lines) {
            return client.post("/wallets/fund-batch", org.adminKey(), List.of(lines));
        }

        @Test
        void fundBatchFundsEveryLine() {
            Wallet a = fx.wallet(fx.openPolicy());
            Wallet b = fx.wallet(fx.openPolicy());

            ApiResponse funded = fundBatch(body("wallet_id", a.id(), "amount", "10.00", "currency", "USDC"),
                    body("walletId", b.id(), "amount", "20.50"));

            assertThat(funded.status()).as(funded.toString()).isEqualTo(200);
            assertList(funded.json());
            JsonNode data = funded.json().path("data");
            assertThat(data).hasSize(2);
            data.forEach(ApiAssertions::assertWallet);
            assertThat(data.get(0).path("id").asText()).isEqualTo(a.id());
            assertAmount(data.get(0).path("usdc_balance"), "10.00");
            assertThat(data.get(1).path("id").asText()).isEqualTo(b.id());
            assertAmount(data.get(1).path("usdc_balance"), "20.50");
            assertThat(fx.balance(a.id())).isEqualTo("10.00");
            assertThat(fx.balance(b.id())).isEqualTo("20.50");
        }

        @Test
        void fundBatchIsAllOrNothing() {
            Wallet a = fx.wallet(fx.openPolicy());
            Wallet b = fx.wallet(fx.openPolicy());

            ApiResponse refused = fundBatch(body("wallet_id", a.id(), "amount", "10.00"),
                    body("wallet_id", unknownId("wal_"), "amount", "10.00"), body("wallet_id", b.id(), "amount", "10.00"));

            assertThat(refused.status()).as(refused.toString()).isEqualTo(404);
            assertThat(refused.errorCode()).isEqualTo("not_found");
            assertThat(fx.balance(a.id())).isEqualTo("0.00");
            assertThat(fx.balance(b.id())).isEqualTo("0.00");
            assertThat(fx.transactions(a.id(), "")).isEmpty();

            ApiResponse tooMuch = fundBatch(body("wallet_id", a.id(), "amount", "10.00"),
                    body("wallet_id", b.id(), "amount", "999999999.00"));
            assertThat(tooMuch.status()).as(tooMuch.toString()).isEqualTo(422);
            assertThat(tooMuch.errorCode()).isEqualTo("insufficient_funds");
            assertThat(fx.balance(a.id())).isEqualTo("0.00");
            assertThat(fx.balance(b.id())).isEqualTo("0.00");
        }

        @Test
        void withdrawAnAmountThenAll() {
            Wallet agent = fx.wallet(fx.openPolicy());
            fx.fund(agent.id(), "100.00");

            ApiResponse part = client.post("/wallets/" + agent.id() + "/withdraw", org.adminKey(), body("amount", "30.25"));
            assertThat(part.status()).as(part.toString()).isEqualTo(200);
            assertWallet(part.json());
            assertAmount(part.json().path("usdc_balance"), "69.75");

            ApiResponse rest = client.post("/wallets/" + agent.id() + "/withdraw", org.adminKey(),
                    body("amount", "all", "currency", "USDC"));
            assertThat(rest.status()).as(rest.toString()).isEqualTo(200);
            assertAmount(rest.json().path("usdc_balance"), "0.00");
            assertThat(fx.balance(agent.id())).isEqualTo("0.00");

            List<JsonNode> withdrawals = fx.all("/wallets/" + agent.id() + "/transactions?type=withdrawal");
            assertThat(field(withdrawals, "amount")).containsExactly("69.75", "30.25");
        }

        @Test
        void autoTopupIsSetUsedAndTurnedOff() {
            Wallet agent = fx.wallet(fx.openPolicy());
            fx.fund(agent.id(), "20.00");

            ApiResponse set = client.put("/wallets/" + agent.id() + "/auto-topup", org.adminKey(),
                    body("enabled", true, "triggerBelow", "10.00", "topup_amount", "50"));

            assertThat(set.status()).as(set.toString()).isEqualTo(200);
            assertWallet(set.json());
            JsonNode rule = set.json().path("auto_topup");
            assertThat(rule.path("enabled").asBoolean()).isTrue();
            assertAmount(rule.path("trigger_below"), "10.00");
            assertAmount(rule.path("topup_amount"), "50.00");

            // a payment that takes the balance below the trigger tops it up
            fx.confirmedPayment(agent, randomAddress(), "15.00");
            assertThat(fx.balance(agent.id())).isEqualTo("55.00");

            ApiResponse off = client.put("/wallets/" + agent.id() + "/auto-topup", org.adminKey(), body("enabled", false));
            assertThat(off.status()).as(off.toString()).isEqualTo(200);
            assertThat(off.json().path("auto_topup").isNull()).as(off.toString()).isTrue();
        }

        @Test
        void rotateTokenIssuesANewOneAndRetiresTheOld() {
            Wallet agent = fx.wallet(fx.openPolicy());
            fx.fund(agent.id(), "10.00");

            ApiResponse rotated = client.post("/wallets/" + agent.id() + "/rotate-token", org.adminKey(),
                    body("ttlSeconds", 600));

            assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
            assertSnakeCaseKeys(rotated.json());
            assertThat(rotated.text("object")).isEqualTo("session_token");
            assertThat(rotated.text("wallet_id")).isEqualTo(agent.id());
            String token = rotated.text("session_token");
            assertThat(token).isNotBlank().isNotEqualTo(agent.token());
            assertTimestamp(rotated.json().path("expires_at"));
            assertThat(Instant.parse(rotated.text("expires_at")))
                    .isBetween(Instant.now().plusSeconds(500), Instant.now().plusSeconds(700));

            ApiResponse withNew = fx.pay(token, payment(agent.id(), randomAddress(), "1.00"));
            assertThat(withNew.status()).as(withNew.toString()).isEqualTo(200);
            assertThat(withNew.text("status")).isEqualTo("confirmed");

            ApiResponse withOld = fx.pay(agent, randomAddress(), "1.00");
            assertSessionTokenRefused(withOld);
            assertThat(fx.balance(agent.id())).isEqualTo("9.00");
        }

        @Test
        void deleteArchivesTheWallet() {
            Wallet agent = fx.wallet(fx.openPolicy());
            fx.fund(agent.id(), "25.00");

            ApiResponse archived = client.delete("/wallets/" + agent.id(), org.adminKey());

            assertThat(archived.status()).as(archived.toString()).isEqualTo(200);
            assertWallet(archived.json());
            assertThat(archived.text("status")).isEqualTo("archived");
            assertAmount(archived.json().path("usdc_balance"), "0.00");

            ApiResponse read = client.get("/wallets/" + agent.id(), org.viewerKey());
            assertThat(read.status()).as(read.toString()).isEqualTo(200);
            assertThat(read.text("status")).isEqualTo("archived");

            ApiResponse refused = fx.pay(agent, randomAddress(), "1.00");
            assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
            assertThat(refused.errorCode()).isEqualTo("invalid_state");
        }

        @Test
        void transactionsOfAWalletHoldFundingAndPayments() {
            Wallet agent = fx.wallet(fx.openPolicy());
            fx.fund(agent.id(), "50.00");
            JsonNode payment = fx.confirmedPayment(agent, randomAddress(), "7.50");

            ApiResponse history = client.get("/wallets/" + agent.id() + "/transactions", org.viewerKey());

            assertThat(history.status()).as(history.toString()).isEqualTo(200);
            assertList(history.json());
            List<JsonNode> txs = items(history);
            txs.forEach(ApiAssertions::assertTransaction);
            assertThat(field(txs, "type")).containsExactly("payment", "funding");
            assertThat(field(txs, "wallet_id")).containsOnly(agent.id());
            assertThat(txs.get(0).path("tx_id").asText()).isEqualTo(payment.path("tx_id").asText());
            assertAmount(txs.get(0).path("amount"), "7.50");
            assertAmount(txs.get(1).path("amount"), "50.00");
            assertThat(txs.get(1).path("status").asText()).isEqualTo("confirmed");

            ApiResponse paged = client.get("/wallets/" + agent.id() + "/transactions?limit=1", org.viewerKey());
            assertThat(paged.json().path("data")).hasSize(1);
            assertThat(paged.json().path("has_more").asBoolean()).isTrue();
            ApiResponse next = client.get("/wallets/" + agent.id() + "/transactions?limit=1&cursor="
                    + paged.text("next_cursor"), org.viewerKey());
            assertThat(field(items(next), "type")).containsExactly("funding");
            assertThat(next.json().path("has_more").asBoolean()).isFalse();
        }
    }

    // ==================================================================================== payments
    @Nested
    class Payments {

        @Test
        void payWithASessionTokenIsConfirmedOnTheLedger() {
            Wallet agent = fx.fundedWallet("100.00");
            String to = randomAddress();

            ApiResponse paid = fx.pay(agent, to, "12.5", body("memo", "api credits"));

            assertThat(paid.status()).as(paid.toString()).isEqualTo(200);
            JsonNode tx = paid.json();
            assertTransaction(tx);
            assertThat(tx.path("type").asText()).isEqualTo("payment");
            assertThat(tx.path("status").asText()).isEqualTo("confirmed");
            assertThat(tx.path("wallet_id").asText()).isEqualTo(agent.id());
            assertThat(tx.path("recipient").asText()).isEqualTo(to);
            assertAmount(tx.path("amount"), "12.50");
            assertThat(tx.path("memo").asText()).isEqualTo("api credits");
            assertThat(tx.path("policy_triggered").asBoolean()).isFalse();
            assertThat(tx.path("tx_signature").asText()).isNotBlank();
            assertThat(tx.path("on_chain_slot").isIntegralNumber()).as("on_chain_slot is an integer").isTrue();
            assertThat(tx.path("on_chain_slot").asLong()).isPositive();
            assertThat(tx.path("co_sign_payload").isNull()).isTrue();
            assertThat(fx.balance(agent.id())).isEqualTo("87.50");
        }

        @Test
        void camelCaseRequestIsAcceptedToo() {
            Wallet agent = fx.fundedWallet("10.00");

            ApiResponse paid = fx.pay(agent.token(), body("walletId", agent.id(), "to", randomAddress(),
                    "amount", "1.000001", "idempotencyKey", unique("idem")));

            assertThat(paid.status()).as(paid.toString()).isEqualTo(200);
            assertThat(paid.text("status")).isEqualTo("confirmed");
            assertAmount(paid.json().path("amount"), "1.000001");
        }

        @Test
        void getPaymentAndTransactionById() {
            Wallet agent = fx.fundedWallet("100.00");
            JsonNode paid = fx.confirmedPayment(agent, randomAddress(), "3.00");
            String txId = paid.path("tx_id").asText();

            ApiResponse payment = client.get("/payments/" + txId, org.viewerKey());
            assertThat(payment.status()).as(payment.toString()).isEqualTo(200);
            assertTransaction(payment.json());
            assertThat(payment.text("tx_id")).isEqualTo(txId);
            assertThat(payment.text("status")).isEqualTo("confirmed");
            assertThat(payment.text("tx_signature")).isEqualTo(paid.path("tx_signature").asText());
            assertThat(payment.json().path("on_chain_slot").asLong()).isEqualTo(paid.path("on_chain_slot").asLong());

            ApiResponse transaction = client.get("/transactions/" + txId, org.viewerKey());
            assertThat(transaction.status()).as(transaction.toString()).isEqualTo(200);
            assertThat(transaction.json()).isEqualTo(payment.json());
        }

        @Test
        void transactionListAndItsFilters() {
            Instant before = Instant.now().minusSeconds(2).truncatedTo(ChronoUnit.MILLIS);
            Wallet agent = fx.fundedWallet("100.00");
            JsonNode paid = fx.confirmedPayment(agent, randomAddress(), "4.00");
            Instant after = Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.MILLIS);

            ApiResponse all = client.get("/transactions", org.viewerKey());
            assertThat(all.status()).as(all.toString()).isEqualTo(200);
            assertList(all.json());
            all.json().path("data").forEach(ApiAssertions::assertTransaction);

            List<JsonNode> mine = fx.all("/transactions?wallet_id=" + agent.id());
            assertThat(field(mine, "type")).containsExactly("payment", "funding");

            List<JsonNode> payments = fx.all("/transactions?walletId=" + agent.id() + "&type=payment");
            assertThat(field(payments, "tx_id")).containsExactly(paid.path("tx_id").asText());

            List<JsonNode> fundings = fx.all("/transactions?wallet_id=" + agent.id() + "&type=funding&status=confirmed");
            assertThat(fundings).hasSize(1);
            assertAmount(fundings.get(0).path("amount"), "100.00");

            List<JsonNode> confirmed = fx.all("/transactions?status=confirmed&type=payment&limit=100&wallet_id="
                    + agent.id());
            assertThat(field(confirmed, "status")).containsOnly("confirmed");
            assertThat(fx.all("/transactions?status=blocked&wallet_id=" + agent.id())).isEmpty();

            assertThat(fx.all("/transactions?wallet_id=" + agent.id() + "&from=" + before + "&to=" + after))
                    .hasSize(2);
            assertThat(fx.all("/transactions?wallet_id=" + agent.id() + "&to=" + before)).isEmpty();
            assertThat(fx.all("/transactions?wallet_id=" + agent.id() + "&from=" + after)).isEmpty();

            ApiResponse statusOnly = client.get("/transactions?status=confirmed&limit=5", org.viewerKey());
            assertThat(statusOnly.status()).as(statusOnly.toString()).isEqualTo(200);
            assertThat(field(items(statusOnly), "status")).containsOnly("confirmed");
        }
    }

    // ===================================================================================== co-sign
    @Nested
    class CoSigning {
        private Wallet coSignedWallet() {
            String policy = fx.createPolicy(body("require_co_sign", "100.00", "co_signer", fx.coSignerPublicKey()))
                    .path("id").asText();
            Wallet agent = fx.wallet(policy);
            fx.fund(agent.id(), "1000.00");
            return agent;
        }

        @Test
        void aPaymentAtTheThresholdWaitsForTheOperatorsSignature() {
            Wallet agent = coSignedWallet();

            ApiResponse held = fx.pay(agent, randomAddress(), "100.00");

            assertThat(held.status()).as(held.toString()).isEqualTo(200);
            assertTransaction(held.json());
            assertThat(held.text("status")).isEqualTo("pending_co_sign");
            String payload = held.text("co_sign_payload");
            assertThat(Base64.getDecoder().decode(payload)).isNotEmpty();
            assertTimestamp(held.json().path("co_sign_expires_at"));
            assertThat(fx.balance(agent.id())).as("the hold takes the amount at once").isEqualTo("900.00");
            String txId = held.text("tx_id");
            assertThat(client.get("/payments/" + txId, org.viewerKey()).text("co_sign_payload")).isEqualTo(payload);

            ApiResponse signed = client.post("/payments/" + txId + "/co-sign", org.operatorKey(),
                    body("signature", fx.coSign(payload)));

            assertThat(signed.status()).as(signed.toString()).isEqualTo(200);
            assertTransaction(signed.json());
            assertThat(signed.text("tx_id")).isEqualTo(txId);
            assertThat(signed.text("status")).isEqualTo("confirmed");
            assertThat(signed.text("tx_signature")).isNotBlank();
            assertThat(signed.json().path("on_chain_slot").asLong()).isPositive();
            assertThat(signed.json().path("co_sign_payload").isNull()).isTrue();
            assertThat(fx.balance(agent.id())).isEqualTo("900.00");
        }

        @Test
        void aRejectedPaymentGivesTheHoldBack() {
            Wallet agent = coSignedWallet();
            ApiResponse held = fx.pay(agent, randomAddress(), "150.00");
            assertThat(held.text("status")).as(held.toString()).isEqualTo("pending_co_sign");
            assertThat(fx.balance(agent.id())).isEqualTo("850.00");

            ApiResponse rejected = client.post("/payments/" + held.text("tx_id") + "/reject", org.operatorKey(),
                    body("reason", "not today"));

            assertThat(rejected.status()).as(rejected.toString()).isEqualTo(200);
            assertTransaction(rejected.json());
            assertThat(rejected.text("status")).isEqualTo("rejected");
            assertThat(fx.balance(agent.id())).isEqualTo("1000.00");
            assertThat(client.get("/payments/" + held.text("tx_id"), org.viewerKey()).text("status")).isEqualTo("rejected");
        }

        @Test
        void belowTheThresholdAPaymentIsConfirmedAtOnce() {
            Wallet agent = coSignedWallet();

            JsonNode paid = fx.confirmedPayment(agent, randomAddress(), "99.99");

            assertThat(paid.path("co_sign_payload").isNull()).isTrue();
            assertThat(fx.balance(agent.id())).isEqualTo("900.01");
        }

        @Test
        void aCoSignIntentBelowTheThresholdAsksForTheSignatureToo() {
            Wallet agent = coSignedWallet();

            ApiResponse held = fx.pay(agent, randomAddress(), "5.00", body("require_co_sign", true));

            assertThat(held.status()).as(held.toString()).isEqualTo(200);
            assertThat(held.text("status")).isEqualTo("pending_co_sign");
            assertThat(held.text("co_sign_payload")).isNotBlank();

            ApiResponse signed = client.post("/payments/" + held.text("tx_id") + "/co-sign", org.operatorKey(),
                    body("signature", fx.coSign(held.text("co_sign_payload"))));
            assertThat(signed.status()).as(signed.toString()).isEqualTo(200);
            assertThat(signed.text("status")).isEqualTo("confirmed");
            assertThat(fx.balance(agent.id())).isEqualTo("995.00");
        }
    }

    // ====================================================================================== escrow
    @Nested
    class Escrows {
        @Test
        void lockReadListAndComplete() {
            Wallet payer = fx.fundedWallet("100.00");
            Wallet worker = fx.wallet(fx.openPolicy());

            ApiResponse locked = fx.lockEscrow(payer, worker.id(), "30",
                    body("task_description", "summarise 10 papers"));

            assertThat(locked.status()).as(locked.toString()).isEqualTo(200);
            JsonNode escrow = locked.json();
            assertEscrow(escrow);
            String id = escrow.path("id").asText();
            assertThat(escrow.path("status").asText()).isEqualTo("locked");
            assertThat(escrow.path("from_wallet").asText()).isEqualTo(payer.id());
            assertThat(escrow.path("to_wallet").asText()).isEqualTo(worker.id());
            assertThat(escrow.path("recipient").asText()).isEqualTo(worker.address());
            assertAmount(escrow.path("amount"), "30.00");
            assertThat(escrow.path("task_description").asText()).isEqualTo("summarise 10 papers");
            assertThat(escrow.path("timeout_seconds").asLong()).isEqualTo(3600);
            assertId(escrow.path("lock_tx_id"), "tx_");
            assertThat(fx.balance(payer.id())).isEqualTo("70.00");

            ApiResponse read = client.get("/payments/a2a/" + id, org.viewerKey());
            assertThat(read.status()).as(read.toString()).isEqualTo(200);
            assertEscrow(read.json());
            assertThat(read.text("id")).isEqualTo(id);
            assertThat(read.text("status")).isEqualTo("locked");

            ApiResponse list = client.get("/payments/a2a?wallet_id=" + payer.id() + "&status=locked", org.viewerKey());
            assertThat(list.status()).as(list.toString()).isEqualTo(200);
            assertList(list.json());
            assertThat(field(items(list), "id")).containsExactly(id);
            ApiResponse none = client.get("/payments/a2a?walletId=" + payer.id() + "&status=released", org.viewerKey());
            assertThat(none.status()).as(none.toString()).isEqualTo(200);
            assertThat(none.json().path("data")).isEmpty();

            String proof = sha256Hex("the summaries");
            ApiResponse completed = client.post("/payments/a2a/" + id + "/complete", org.adminKey(),
                    body("proofType", "output_hash", "proof", proof));

            assertThat(completed.status()).as(completed.toString()).isEqualTo(200);
            assertEscrow(completed.json());
            assertThat(completed.text("status")).isEqualTo("released");
            assertThat(completed.text("proof_type")).isEqualTo("output_hash");
            assertThat(completed.text("proof")).isEqualTo(proof);
            assertThat(fx.balance(worker.id())).isEqualTo("30.00");
            assertThat(fx.balance(payer.id())).isEqualTo("70.00");
            assertThat(field(fx.all("/payments/a2a?wallet_id=" + payer.id() + "&status=released"), "id"))
                    .containsExactly(id);
            assertThat(field(fx.transactions(payer.id(), ""), "type")).contains("escrow_lock");
        }

        @Test
        void aWrongProofAgainstTheExpectedOneMovesNothing() {
            Wallet payer = fx.fundedWallet("100.00");
            String expected = sha256Hex("the right output");

            ApiResponse locked = fx.lockEscrow(payer, randomAddress(), "10.00", body("expected_proof", expected));
            assertThat(locked.status()).as(locked.toString()).isEqualTo(200);
            assertThat(locked.text("expected_proof")).isEqualTo(expected);
            String id = locked.text("id");

            ApiResponse mismatch = client.post("/payments/a2a/" + id + "/complete", org.adminKey(),
                    body("proof_type", "output_hash", "proof", sha256Hex("some other output")));

            assertThat(mismatch.status()).as(mismatch.toString()).isEqualTo(422);
            assertThat(mismatch.errorCode()).isEqualTo("proof_mismatch");
            assertThat(client.get("/payments/a2a/" + id, org.viewerKey()).text("status")).isEqualTo("locked");
            assertThat(fx.balance(payer.id())).isEqualTo("90.00");

            ApiResponse right = client.post("/payments/a2a/" + id + "/complete", org.adminKey(),
                    body("proof_type", "output_hash", "proof", expected));
            assertThat(right.status()).as(right.toString()).isEqualTo(200);
            assertThat(right.text("status")).isEqualTo("released");
        }

        @Test
        void disputeThenResolveWithARefund() {
            Wallet payer = fx.fundedWallet("100.00");
            Wallet worker = fx.wallet(fx.openPolicy());
            String id = fx.lockEscrow(payer, worker.id(), "40.00", Map.of()).text("id");
            assertThat(fx.balance(payer.id())).isEqualTo("60.00");
            String evidence = sha256Hex("the bad output");

            ApiResponse disputed = client.post("/payments/a2a/" + id + "/dispute", org.adminKey(),
                    body("reason", "output was empty", "evidence", evidence));

            assertThat(disputed.status()).as(disputed.toString()).isEqualTo(200);
            assertEscrow(disputed.json());
            assertThat(disputed.text("status")).isEqualTo("disputed");
            assertThat(disputed.json().path("dispute").path("reason").asText()).isEqualTo("output was empty");
            assertThat(disputed.json().path("dispute").path("evidence").asText()).isEqualTo(evidence);
            assertTimestamp(disputed.json().path("dispute").path("raised_at"));

            ApiResponse resolved = client.post("/payments/a2a/" + id + "/resolve", org.operatorKey(),
                    body("outcome", "refund"));

            assertThat(resolved.status()).as(resolved.toString()).isEqualTo(200);
            assertEscrow(resolved.json());
            assertThat(resolved.text("status")).isEqualTo("refunded");
            assertThat(fx.balance(payer.id())).isEqualTo("100.00");
            assertThat(fx.balance(worker.id())).isEqualTo("0.00");
            assertThat(field(fx.transactions(payer.id(), ""), "type")).contains("escrow_lock", "escrow_refund");
        }
    }

    // ==================================================================================== webhooks
    @Nested
    class Webhooks {
        private final List<String> made = new ArrayList<>();

        @AfterEach
        void deleteTheWebhooksOfTheTest() {
            made.forEach(id -> client.delete("/webhooks/" + id, org.adminKey()));
        }

        private ApiResponse create(Object events) {
            ApiResponse created = client.post("/webhooks", org.adminKey(), body("url", "https://localhost:9/hook",
                    "events", events));
            if (created.status() == 200) {
                made.add(created.text("webhook_id"));
            }
            return created;
        }

        @Test
        void createShowsTheSigningSecretOnce() {
            ApiResponse created = create(List.of("transaction.completed"));

            assertThat(created.status()).as(created.toString()).isEqualTo(200);
            JsonNode webhook = created.json();
            assertWebhook(webhook);
            assertThat(webhook.path("url").asText()).isEqualTo("https://localhost:9/hook");
            assertThat(texts(webhook.path("events"))).containsExactly("transaction.completed");
            assertThat(webhook.path("signing_secret").asText()).matches("^whsec_.{16,}$");
            assertThat(webhook.path("status").asText()).isEqualTo("active");

            ApiResponse read = client.get("/webhooks/" + webhook.path("webhook_id").asText(), org.viewerKey());
            assertThat(read.status()).as(read.toString()).isEqualTo(200);
            assertWebhook(read.json());
            assertThat(read.text("webhook_id")).isEqualTo(webhook.path("webhook_id").asText());
            assertThat(read.json().has("signing_secret")).isFalse();
        }

        @Test
        void allEventsAsAStringOrAnArray() {
            ApiResponse asString = create("*");
            assertThat(asString.status()).as(asString.toString()).isEqualTo(200);
            assertThat(texts(asString.json().path("events"))).containsExactly("*");

            ApiResponse asArray = create(List.of("*"));
            assertThat(asArray.status()).as(asArray.toString()).isEqualTo(200);
            assertThat(texts(asArray.json().path("events"))).containsExactly("*");
        }

        @Test
        void listShowsTheWebhooksWithoutSecrets() {
            String id = create(List.of("wallet.created", "escrow.released")).text("webhook_id");

            ApiResponse list = client.get("/webhooks?limit=100", org.viewerKey());

            assertThat(list.status()).as(list.toString()).isEqualTo(200);
            assertList(list.json());
            List<JsonNode> all = fx.all("/webhooks?limit=100");
            all.forEach(ApiAssertions::assertWebhook);
            assertThat(field(all, "webhook_id")).contains(id);
            assertThat(all).allSatisfy(webhook -> assertThat(webhook.has("signing_secret")).isFalse());
        }

        @Test
        void patchUrlEventsAndStatus() {
            String id = create(List.of("transaction.completed")).text("webhook_id");

            ApiResponse patched = client.patch("/webhooks/" + id, org.adminKey(), body("url", "https://localhost:9/other",
                    "events", List.of("transaction.blocked", "policy.updated")));

            assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
            assertWebhook(patched.json());
            assertThat(patched.text("url")).isEqualTo("https://localhost:9/other");
            assertThat(texts(patched.json().path("events")))
                    .containsExactlyInAnyOrder("transaction.blocked", "policy.updated");
            assertThat(patched.json().has("signing_secret")).isFalse();

            ApiResponse active = client.patch("/webhooks/" + id, org.adminKey(), body("status", "active"));
            assertThat(active.status()).as(active.toString()).isEqualTo(200);
            assertThat(active.text("status")).isEqualTo("active");
            assertThat(active.text("url")).isEqualTo("https://localhost:9/other");

            assertThat(client.get("/webhooks/" + id, org.viewerKey()).json()).isEqualTo(active.json());
        }

        @Test
        void testQueuesAPingAndDeliveriesAreListed() {
            String id = create(List.of("transaction.completed")).text("webhook_id");

            ApiResponse ping = client.call("POST", "/webhooks/" + id + "/test").key(org.adminKey()).send();

            assertThat(ping.status()).as(ping.toString()).isEqualTo(200);
            assertSnakeCaseKeys(ping.json());
            assertThat(ping.text("object")).isEqualTo("webhook_test");
            assertThat(ping.text("webhook_id")).isEqualTo(id);
            assertThat(ping.text("event")).isEqualTo("ping");
            assertId(ping.json().path("event_id"), "evt_");

            ApiResponse deliveries = client.get("/webhooks/" + id + "/deliveries", org.viewerKey());
            assertThat(deliveries.status()).as(deliveries.toString()).isEqualTo(200);
            assertList(deliveries.json());
            deliveries.json().path("data").forEach(attempt -> {
                assertThat(attempt.path("object").asText()).isEqualTo("webhook_delivery");
                assertId(attempt.path("event_id"), "evt_");
                assertTimestamp(attempt.path("attempted_at"));
            });
        }

        @Test
        void deleteThenGetIsNotFound() {
            ApiResponse created = create(List.of("transaction.completed"));
            String id = created.text("webhook_id");

            ApiResponse deleted = deleteThenAssertGone("/webhooks/" + id);

            assertThat(deleted.text("webhook_id")).isEqualTo(id);
            assertThat(field(fx.all("/webhooks?limit=100"), "webhook_id")).doesNotContain(id);
        }
    }

    // ===================================================================================== exports
    @Nested
    class Exports {

        @Test
        void requestReadAndDownloadBeforeReady() {
            Wallet agent = fx.fundedWallet("10.00");
            String from = "2020-01-01T00:00:00Z";

            ApiResponse requested = client.post("/transactions/export", org.viewerKey(),
                    body("format", "csv", "walletId", agent.id(), "from", from));

            assertThat(requested.status()).as(requested.toString()).isEqualTo(202);
            JsonNode job = requested.json();
            assertSnakeCaseKeys(job);
            assertThat(job.path("object").asText()).isEqualTo("export");
            assertId(job.path("id"), "exp_");
            assertThat(job.path("status").asText()).isEqualTo("pending");
            assertThat(job.path("format").asText()).isEqualTo("csv");
            assertThat(job.path("wallet_id").asText()).isEqualTo(agent.id());
            assertThat(job.path("from").asText()).isEqualTo("2020-01-01T00:00:00.000Z");
            assertThat(job.path("to").isNull()).isTrue();
            assertTimestamp(job.path("created_at"));
            String id = job.path("id").asText();

            ApiResponse read = client.get("/transactions/exports/" + id, org.viewerKey());
            assertThat(read.status()).as(read.toString()).isEqualTo(200);
            assertThat(read.text("id")).isEqualTo(id);
            assertThat(read.text("format")).isEqualTo("csv");
            assertThat(read.text("status")).isIn("pending", "ready");

            // the file is made in the background: before it is there the download is a 409; should a
            // generator have finished already, the download is the CSV with its header row
            ApiResponse download = client.get("/transactions/exports/" + id + "/download", org.viewerKey());
            if (read.text("status").equals("pending") && download.status() == 409) {
                assertThat(download.errorCode()).as(download.toString()).isEqualTo("invalid_state");
            } else {
                assertThat(download.status()).as(download.toString()).isEqualTo(200);
                assertThat(download.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/csv"));
                assertThat(download.raw()).isNotBlank();
            }
        }

        @Test
        void jsonExportOfTheWholeHistory() {
            ApiResponse requested = client.post("/transactions/export", org.adminKey(), body("format", "json"));

            assertThat(requested.status()).as(requested.toString()).isEqualTo(202);
            assertThat(requested.text("format")).isEqualTo("json");
            assertThat(requested.json().path("wallet_id").isNull()).isTrue();
        }
    }

    // ===================================================================================== dry run
    @Nested
    class DryRun {
        @Test
        void decisionsAreAnsweredAndNothingIsRecorded() {
            String policy = fx.createPolicy(body("max_per_tx", "50.00", "require_co_sign", "20.00",
                    "co_signer", fx.coSignerPublicKey())).path("id").asText();
            Wallet agent = fx.wallet(policy);
            fx.fund(agent.id(), "100.00");
            int before = fx.transactions(agent.id(), "").size();

            ApiResponse allowed = fx.dryRun(agent.token(), payment(agent.id(), randomAddress(), "5.00"));
            assertThat(allowed.status()).as(allowed.toString()).isEqualTo(200);
            assertSnakeCaseKeys(allowed.json());
            assertThat(allowed.text("object")).isEqualTo("payment_decision");
            assertThat(allowed.text("decision")).isEqualTo("allowed");
            assertThat(allowed.json().has("violation")).isTrue();
            assertThat(allowed.json().path("violation").isNull()).isTrue();

            ApiResponse coSign = fx.dryRun(agent.token(), payment(agent.id(), randomAddress(), "20.00"));
            assertThat(coSign.status()).as(coSign.toString()).isEqualTo(200);
            assertThat(coSign.text("decision")).isEqualTo("needs_co_sign");
            assertThat(coSign.json().path("violation").isNull()).isTrue();

            ApiResponse blocked = fx.dryRun(agent.token(), payment(agent.id(), randomAddress(), "60.00"));
            assertThat(blocked.status()).as(blocked.toString()).isEqualTo(200);
            assertThat(blocked.text("decision")).isEqualTo("blocked");
            JsonNode violation = blocked.json().path("violation");
            assertThat(violation.path("rule").asText()).isEqualTo("max_per_tx");
            assertAmount(violation.path("limit"), "50.00");
            assertAmount(violation.path("attempted"), "60.00");

            assertThat(fx.transactions(agent.id(), "")).hasSize(before);
            assertThat(fx.balance(agent.id())).isEqualTo("100.00");
        }

        @Test
        void aDryRunDoesNotConsumeTheIdempotencyKey() {
            Wallet agent = fx.fundedWallet("100.00");
            String key = unique("idem-dry");
            Map<String, Object> request = with(payment(agent.id(), randomAddress(), "5.00"), "idempotency_key", key);

            ApiResponse dry = fx.dryRun(agent.token(), request);
            assertThat(dry.status()).as(dry.toString()).isEqualTo(200);
            assertThat(dry.text("decision")).isEqualTo("allowed");
            assertThat(fx.balance(agent.id())).isEqualTo("100.00");

            ApiResponse real = fx.pay(agent.token(), request);
            assertThat(real.status()).as(real.toString()).isEqualTo(200);
            assertThat(real.text("status")).isEqualTo("confirmed");
            assertThat(real.header("Idempotent-Replayed")).isEmpty();
            assertThat(fx.balance(agent.id())).isEqualTo("95.00");
        }
    }

    /** Deletes what {@code path} names and checks that reading it afterwards is a 404; answers the deletion. */
    private ApiResponse deleteThenAssertGone(String path) {
        ApiResponse deleted = client.delete(path, org.adminKey());
        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(200);
        ApiResponse gone = client.get(path, org.viewerKey());
        assertThat(gone.status()).as(gone.toString()).isEqualTo(404);
        assertThat(gone.errorCode()).isEqualTo("not_found");
        return deleted;
    }
}
