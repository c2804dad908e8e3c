package com.agentwallet.bootstrap.api;

import com.agentwallet.core.testing.MutableClock;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertError;
import static com.agentwallet.bootstrap.api.ApiAssertions.assertWellFormedError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The token buckets, on a server of its own with a burst of 5 refilled at 1 per second: the headers
 * on every answer, 429 with {@code Retry-After} when a bucket is empty, one bucket per organisation
 * and one per client address for requests without a valid key. Also the {@code Request-Id} of every
 * answer. The server runs on a clock that stands still until the test moves it to refill the buckets.
 */
class RateLimitTest {
    private static final int BURST = 5;
    private static final MutableClock CLOCK = new MutableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));

    private static ApiServer limited;

    @BeforeAll
    static void startLimitedServer() {
        limited = ApiServer.start(CLOCK, ApiServer.newDataDirectory(),
                ConfigOverride.config("api.rateLimit.perSecond", "1"),
                ConfigOverride.config("api.rateLimit.burst", String.valueOf(BURST)));
    }

    @AfterAll
    static void stopLimitedServer() {
        if (limited != null) {
            limited.stop();
        }
    }

    /** Every bucket of the server is full again after burst / rate seconds. */
    @BeforeEach
    void letTheBucketsRefill() {
        CLOCK.advance(Duration.ofSeconds(BURST + 1));
    }

    @Test
    void everyAnswerCarriesTheHeadersAndAnEmptyBucketIs429() {
        ApiClient client = limited.client();
        String admin = limited.org().adminKey();
        List<Supplier<ApiResponse>> requests = List.of(
                () -> client.get("/wallets", admin),
                () -> client.get("/wallets/wal_000000000000000000000000", admin),
                () -> client.post("/policies", admin, "{not json"),
                () -> client.get("/policies?limit=1", admin),
                () -> client.call("POST", "/payments").key(admin).body(Map.of("foo", 1)).send());
        List<Integer> expectedStatuses = List.of(200, 404, 400, 200, 400);

        long previousRemaining = Long.MAX_VALUE;
        for (int i = 0; i < requests.size(); i++) {
            long nowSeconds = CLOCK.millis() / 1000;
            ApiResponse answer = requests.get(i).get();
            assertThat(answer.status()).as(answer.toString()).isEqualTo(expectedStatuses.get(i));
            long remaining = assertRateHeaders(answer, nowSeconds);
            assertThat(remaining).as("each request takes a token").isLessThan(previousRemaining);
            previousRemaining = remaining;
        }

        ApiResponse limitedAnswer = null;
        for (int i = 0; i < 10 && limitedAnswer == null; i++) {
            ApiResponse answer = client.get("/wallets", admin);
            if (answer.status() == 429) {
                limitedAnswer = answer;
            }
        }
        assertThat(limitedAnswer).as("the bucket of 5 runs dry").isNotNull();
        assertTooManyRequests(limitedAnswer);
    }

    @Test
    void bucketsBelongToOneOrganisation() {
        ApiClient client = limited.client();
        String mine = limited.org().viewerKey();
        String mineToo = limited.org().adminKey();
        String theirs = limited.otherOrg().viewerKey();

        ApiResponse limitedAnswer = drain(() -> client.get("/wallets", mine));
        assertTooManyRequests(limitedAnswer);
        ApiResponse sameOrgOtherKey = client.get("/policies", mineToo);
        assertThat(sameOrgOtherKey.status()).as("the bucket is the organisation's, not the key's: " + sameOrgOtherKey)
                .isEqualTo(429);

        long nowSeconds = CLOCK.millis() / 1000;
        ApiResponse otherOrg = client.get("/wallets", theirs);
        assertThat(otherOrg.status()).as("org B is still served: " + otherOrg).isEqualTo(200);
        assertThat(assertRateHeaders(otherOrg, nowSeconds)).isGreaterThanOrEqualTo(BURST - 2L);
    }

    @Test
    void anAgentsTokenDrawsFromItsOrganisationsBucket() {
        ApiClient client = limited.client();
        ApiFixtures fx = new ApiFixtures(limited);
        ApiFixtures.Wallet wallet = fx.wallet(fx.openPolicy());

        ApiResponse limitedAnswer = drain(() -> client.get("/wallets/" + wallet.id(), wallet.token()));
        assertTooManyRequests(limitedAnswer);
        ApiResponse sameOrgKey = client.get("/wallets", limited.org().viewerKey());
        assertThat(sameOrgKey.status()).as("the agent used up its organisation's bucket: " + sameOrgKey)
                .isEqualTo(429);
        assertThat(client.get("/wallets", limited.otherOrg().viewerKey()).status()).as("org B is still served")
                .isEqualTo(200);
    }

    @Test
    void requestsWithoutAValidKeyAreLimitedPerAddress() {
        ApiClient client = limited.client();
        long nowSeconds = CLOCK.millis() / 1000;

        ApiResponse first = client.get("/wallets", "sk_not_a_real_key_at_all_000000");
        assertError(first, 401, "authentication_failed");
        assertRateHeaders(first, nowSeconds);
        ApiResponse noKey = client.call("GET", "/wallets").send();
        assertThat(noKey.status()).isEqualTo(401);
        assertRateHeaders(noKey, nowSeconds);
        ApiResponse plainHttp = client.call("GET", "/wallets").overPlainHttp().send();
        assertError(plainHttp, 403, "https_required");
        assertRateHeaders(plainHttp, nowSeconds);

        ApiResponse limitedAnswer = drain(() -> client.get("/wallets", "sk_not_a_real_key_at_all_000000"));
        assertTooManyRequests(limitedAnswer);
        ApiResponse anotherBadKey = client.get("/policies", "sk_yet_another_unknown_key_0000");
        assertThat(anotherBadKey.status()).as("the address's bucket, whatever the bad key").isEqualTo(429);

        ApiResponse valid = client.get("/wallets", limited.org().viewerKey());
        assertThat(valid.status()).as("a valid key uses its organisation's bucket: " + valid).isEqualTo(200);
    }

    @Test
    void everyAnswerHasItsOwnRequestId() {
        ApiServer shared = ApiServer.shared();
        ApiClient client = shared.client();
        String admin = shared.org().adminKey();
        List<ApiResponse> answers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            answers.add(client.get("/wallets?limit=1", admin));
        }
        answers.add(client.get("/wallets/wal_000000000000000000000000", admin));
        answers.add(client.get("/wallets", "sk_unknown_key_for_request_ids_00"));
        answers.add(client.post("/policies", admin, "[]"));
        answers.add(client.call("GET", "/wallets").key(admin).overPlainHttp().send());
        answers.add(client.call("GET", "/no-such-endpoint").key(admin).send());
        answers.add(client.call("DELETE", "/transactions").key(admin).send());

        Set<String> ids = new HashSet<>();
        for (ApiResponse answer : answers) {
            String id = answer.header("Request-Id").orElseThrow(() -> new AssertionError("no Request-Id: " + answer));
            assertThat(id).matches("req_[0-9A-Za-z]{24}");
            ids.add(id);
            if (answer.status() >= 400) {
                assertWellFormedError(answer);
            }
        }
        assertThat(ids).as("one id per request").hasSize(answers.size());
    }

    /** Sends until a 429 (at most 3 bursts), which it answers. */
    private static ApiResponse drain(Supplier<ApiResponse> request) {
        for (int i = 0; i < 3 * BURST; i++) {
            ApiResponse answer = request.get();
            if (answer.status() == 429) {
                return answer;
            }
        }
        throw new AssertionError("no 429 after " + 3 * BURST + " requests");
    }

    /** Checks the three headers and answers X-RateLimit-Remaining. */
    private static long assertRateHeaders(ApiResponse answer, long nowSeconds) {
        assertThat(answer.header("Request-Id")).as(answer.toString()).isPresent();
        assertThat(answer.header("X-RateLimit-Limit")).as("X-RateLimit-Limit on " + answer).hasValue(String.valueOf(BURST));
        long remaining = Long.parseLong(answer.header("X-RateLimit-Remaining")
                .orElseThrow(() -> new AssertionError("no X-RateLimit-Remaining on " + answer)));
        assertThat(remaining).isBetween(0L, (long) BURST);
        long reset = Long.parseLong(answer.header("X-RateLimit-Reset")
                .orElseThrow(() -> new AssertionError("no X-RateLimit-Reset on " + answer)));
        assertThat(reset).as("unix seconds when the bucket is full again").isGreaterThanOrEqualTo(nowSeconds)
                .isLessThanOrEqualTo(nowSeconds + BURST + 2);
        return remaining;
    }

    private static void assertTooManyRequests(ApiResponse answer) {
        long nowSeconds = CLOCK.millis() / 1000;
        assertError(answer, 429, "rate_limit_exceeded");
        long retryAfter = Long.parseLong(answer.header("Retry-After")
                .orElseThrow(() -> new AssertionError("no Retry-After on " + answer)));
        assertThat(retryAfter).isBetween(1L, (long) BURST);
        assertThat(answer.header("X-RateLimit-Remaining")).hasValue("0");
        assertThat(answer.header("X-RateLimit-Limit")).hasValue(String.valueOf(BURST));
        assertThat(Long.parseLong(answer.header("X-RateLimit-Reset").orElseThrow()))
                .isGreaterThan(nowSeconds - 1);
    }
}
