package com.agentwallet.bootstrap.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertPolicyViolation;
import static com.agentwallet.bootstrap.api.ApiFixtures.payment;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static com.agentwallet.bootstrap.api.ApiFixtures.unique;
import static com.agentwallet.bootstrap.api.ApiFixtures.usdc;
import static com.agentwallet.bootstrap.api.ApiFixtures.with;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code idempotency_key} on {@code POST /payments}: a replay answers the first response again and
 * debits nothing, a different request under the same key is a 409, keys belong to one organisation,
 * a blocked payment replays its refusal, a dry run leaves the key unused, and racing duplicates book
 * one payment.
 */
class PaymentIdempotencyTest {
    private static final String REPLAYED = "Idempotent-Replayed";

    private final ApiServer server = ApiServer.shared();
    private final ApiFixtures fx = new ApiFixtures(server);

    @Test
    void sameKeyAndSameBodyAnswersTheFirstResponseAgainWithoutASecondDebit() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("100.00");
        Map<String, Object> body = keyedPayment(wallet, "12.50");

        ApiResponse first = fx.pay(wallet.token(), body);
        ApiResponse second = fx.pay(wallet.token(), body);
        ApiResponse third = fx.pay(wallet.token(), body);

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(first.text("object")).isEqualTo("transaction");
        assertThat(first.text("tx_id")).startsWith("tx_");
        assertThat(first.header(REPLAYED)).as("the first answer is no replay").isEmpty();
        for (ApiResponse replay : List.of(second, third)) {
            assertThat(replay.status()).isEqualTo(first.status());
            assertThat(replay.raw()).as("a replay is byte-identical to the first answer").isEqualTo(first.raw());
            assertThat(replay.header(REPLAYED)).hasValue("true");
            assertThat(replay.header("Request-Id")).isPresent().isNotEqualTo(first.header("Request-Id"));
        }
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("87.50"));
        assertThat(fx.txIds(wallet.id(), "type=payment")).containsExactly(first.text("tx_id"));
        ApiResponse orgWide = server.client().get("/transactions?type=payment&wallet_id=" + wallet.id(),
                server.org().adminKey());
        assertThat(orgWide.json().path("data")).hasSize(1);
    }

    @Test
    void sameKeyWithADifferentRequestIsAConflictAndChangesNothing() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("100.00");
        ApiFixtures.Wallet otherWallet = fx.fundedWallet("100.00");
        String key = unique("idem");
        String to = randomAddress();
        Map<String, Object> body = with(payment(wallet.id(), to, "10.00"), "idempotency_key", key);
        ApiResponse first = fx.pay(wallet.token(), body);
        assertThat(first.status()).as(first.toString()).isEqualTo(200);

        List<ApiResponse> conflicts = List.of(
                fx.pay(wallet.token(), with(body, "amount", "11.00")),
                fx.pay(wallet.token(), with(body, "to", randomAddress())),
                fx.pay(wallet.token(), with(body, "memo", "a different memo")),
                fx.pay(otherWallet.token(), with(body, "wallet_id", otherWallet.id())));

        for (ApiResponse conflict : conflicts) {
            assertThat(conflict.status()).as(conflict.toString()).isEqualTo(409);
            assertThat(conflict.errorCode()).isEqualTo("idempotency_conflict");
            assertThat(conflict.header(REPLAYED)).isEmpty();
        }
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("90.00"));
        assertThat(usdc(fx.balance(otherWallet.id()))).isEqualByComparingTo(usdc("100.00"));
        assertThat(fx.txIds(wallet.id(), "type=payment")).containsExactly(first.text("tx_id"));
        assertThat(fx.transactions(otherWallet.id(), "type=payment")).isEmpty();

        ApiResponse replay = fx.pay(wallet.token(), body);
        assertThat(replay.raw()).as("the conflicts left the key's first answer as it was").isEqualTo(first.raw());
        assertThat(replay.header(REPLAYED)).hasValue("true");
    }

    @Test
    void keysAreScopedToTheOrganisation() {
        ApiFixtures otherFixtures = new ApiFixtures(server, server.otherOrg());
        ApiFixtures.Wallet mine = fx.fundedWallet("50.00");
        ApiFixtures.Wallet theirs = otherFixtures.fundedWallet("50.00");
        String key = unique("shared-key");
        Map<String, Object> myBody = with(payment(mine.id(), randomAddress(), "5.00"), "idempotency_key", key);
        Map<String, Object> theirBody = with(payment(theirs.id(), randomAddress(), "7.00"), "idempotency_key", key);

        ApiResponse myFirst = fx.pay(mine.token(), myBody);
        ApiResponse theirFirst = otherFixtures.pay(theirs.token(), theirBody);

        assertThat(myFirst.status()).as(myFirst.toString()).isEqualTo(200);
        assertThat(theirFirst.status()).as("org B may use org A's key for a payment of its own: " + theirFirst)
                .isEqualTo(200);
        assertThat(theirFirst.header(REPLAYED)).isEmpty();
        assertThat(theirFirst.text("tx_id")).isNotEqualTo(myFirst.text("tx_id"));
        assertThat(theirFirst.text("wallet_id")).isEqualTo(theirs.id());
        assertThat(usdc(fx.balance(mine.id()))).isEqualByComparingTo(usdc("45.00"));
        assertThat(usdc(otherFixtures.balance(theirs.id()))).isEqualByComparingTo(usdc("43.00"));

        ApiResponse myReplay = fx.pay(mine.token(), myBody);
        ApiResponse theirReplay = otherFixtures.pay(theirs.token(), theirBody);
        assertThat(myReplay.raw()).isEqualTo(myFirst.raw());
        assertThat(theirReplay.raw()).isEqualTo(theirFirst.raw());
        assertThat(theirReplay.header(REPLAYED)).hasValue("true");
        assertThat(usdc(otherFixtures.balance(theirs.id()))).isEqualByComparingTo(usdc("43.00"));
        ApiResponse crossRead = server.client().get("/payments/" + myFirst.text("tx_id"), server.otherOrg().adminKey());
        assertThat(crossRead.status()).as("org B never sees org A's payment").isEqualTo(404);
    }

    @Test
    void aBlockedPaymentReplaysTheSameViolationAndStaysOneBlockedTransaction() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("100.00", Map.of("max_per_tx", "10.00"));
        Map<String, Object> body = keyedPayment(wallet, "25.00");

        ApiResponse first = fx.pay(wallet.token(), body);
        ApiResponse replay = fx.pay(wallet.token(), body);

        JsonNode violation = assertPolicyViolation(first);
        assertThat(violation.path("rule").asText()).isEqualTo("max_per_tx");
        assertThat(usdc(violation.path("limit").asText())).isEqualByComparingTo(usdc("10.00"));
        assertThat(usdc(violation.path("attempted").asText())).isEqualByComparingTo(usdc("25.00"));

        assertThat(replay.status()).as(replay.toString()).isEqualTo(422);
        assertThat(withoutRequestId(replay.json())).as("the same refusal, apart from the request id")
                .isEqualTo(withoutRequestId(first.json()));
        List<JsonNode> payments = fx.transactions(wallet.id(), "type=payment");
        assertThat(payments).hasSize(1);
        assertThat(payments.get(0).path("status").asText()).isEqualTo("blocked");
        assertThat(payments.get(0).path("violation").path("rule").asText()).isEqualTo("max_per_tx");
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("100.00"));

        ApiResponse otherRequest = fx.pay(wallet.token(), with(body, "amount", "5.00"));
        assertThat(otherRequest.status()).as("the key stays bound to the blocked request: " + otherRequest)
                .isEqualTo(409);
        assertThat(otherRequest.errorCode()).isEqualTo("idempotency_conflict");
        assertThat(fx.transactions(wallet.id(), "type=payment")).hasSize(1);
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("100.00"));
    }

    @Test
    void aDryRunWithAKeyDoesNotConsumeIt() {
        ApiFixtures.Wallet wallet = fx.fundedWallet("100.00");
        Map<String, Object> body = keyedPayment(wallet, "12.50");

        ApiResponse dryRun = fx.dryRun(wallet.token(), body);

        assertThat(dryRun.status()).as(dryRun.toString()).isEqualTo(200);
        assertThat(dryRun.text("object")).isEqualTo("payment_decision");
        assertThat(dryRun.text("decision")).isEqualTo("allowed");
        assertThat(dryRun.json().path("violation").isNull()).isTrue();
        ApiResponse dryRunAgain = fx.dryRun(wallet.token(), body);
        assertThat(dryRunAgain.header(REPLAYED)).isEmpty();
        assertThat(fx.transactions(wallet.id(), "type=payment")).isEmpty();
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("100.00"));

        ApiResponse real = fx.pay(wallet.token(), body);
        assertThat(real.status()).as(real.toString()).isEqualTo(200);
        assertThat(real.text("object")).as("a real payment, not a replayed decision").isEqualTo("transaction");
        assertThat(real.header(REPLAYED)).isEmpty();
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("87.50"));
        assertThat(fx.txIds(wallet.id(), "type=payment")).containsExactly(real.text("tx_id"));

        ApiResponse dryRunAfter = fx.dryRun(wallet.token(), body);
        assertThat(dryRunAfter.status()).as(dryRunAfter.toString()).isEqualTo(200);
        assertThat(dryRunAfter.text("object")).isEqualTo("payment_decision");
        ApiResponse replay = fx.pay(wallet.token(), body);
        assertThat(replay.raw()).isEqualTo(real.raw());
        assertThat(replay.header(REPLAYED)).hasValue("true");
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("87.50"));
    }

    @Test
    void concurrentRequestsWithOneKeyBookOnePayment() throws Exception {
        ApiFixtures.Wallet wallet = fx.fundedWallet("100.00");
        Map<String, Object> body = keyedPayment(wallet, "5.00");
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<ApiResponse> answers = new ArrayList<>();
        try {
            List<Future<ApiResponse>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Callable<ApiResponse> request = () -> {
                    start.await();
                    return fx.pay(wallet.token(), body);
                };
                futures.add(pool.submit(request));
            }
            start.countDown();
            for (Future<ApiResponse> future : futures) {
                answers.add(future.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(answers).allSatisfy(answer -> assertThat(answer.status()).as(answer.toString()).isEqualTo(200));
        Set<String> txIds = answers.stream().map(answer -> answer.text("tx_id")).collect(Collectors.toSet());
        assertThat(txIds).hasSize(1);
        assertThat(answers.stream().filter(answer -> answer.header(REPLAYED).isEmpty()).count())
                .as("exactly one answer is the original").isEqualTo(1);
        assertThat(usdc(fx.balance(wallet.id()))).isEqualByComparingTo(usdc("95.00"));
        assertThat(fx.txIds(wallet.id(), "type=payment")).containsExactlyElementsOf(txIds);
        ApiResponse afterwards = fx.pay(wallet.token(), body);
        assertThat(afterwards.header(REPLAYED)).hasValue("true");
        String original = answers.stream().filter(answer -> answer.header(REPLAYED).isEmpty()).findFirst()
                .orElseThrow().raw();
        assertThat(answers.stream().map(ApiResponse::raw).collect(Collectors.toSet()))
                .as("every racing replay answers the first response again, byte for byte")
                .containsExactly(original);
        assertThat(afterwards.raw()).isEqualTo(original);
    }

    /** A payment of {@code amount} to a fresh recipient under a fresh idempotency key. */
    private static Map<String, Object> keyedPayment(ApiFixtures.Wallet from, String amount) {
        return with(payment(from.id(), randomAddress(), amount), "idempotency_key", unique("idem"));
    }

    private static JsonNode withoutRequestId(JsonNode body) {
        ObjectNode copy = body.deepCopy();
        ((ObjectNode) copy.path("error")).remove("request_id");
        return copy;
    }
}
