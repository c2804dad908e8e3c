package com.agentwallet.adapters.mcp;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.core.port.StorageUnavailableException;
import com.agentwallet.edge.error.ErrorDocs;
import com.agentwallet.edge.limit.BucketStore;
import com.agentwallet.edge.limit.MemoryBuckets;
import com.agentwallet.edge.limit.RateLimit;
import com.agentwallet.edge.limit.RateLimits;
import com.agentwallet.edge.log.RequestLogContext;
import com.agentwallet.edge.session.SessionTokens;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The gate before the MCP server: HTTPS, the session token, its liveness and the buckets, as /v1 has them. */
class AgentGateTest {
    private static final Instant NOW = Instant.parse("2026-04-01T12:00:00Z");
    private static final OrgId ORG = new OrgId("org_aaaaaaaaaaaaaaaaaaaaaaaa");
    private static final SessionGrant GRANT =
            new SessionGrant(new WalletId("wal_aaaaaaaaaaaaaaaaaaaaaaaa"), 3, NOW.plusSeconds(3600));

    private final SessionTokens tokens = new SessionTokens(new byte[32], List.of(), "agent-wallet", "agents");
    private final String token = tokens.issue(ORG, GRANT);
    private final ObjectMapper wireJson =
            new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
    private boolean live = true;

    /** The server's outermost filter takes the id out after each request; here, after each test. */
    @AfterEach
    void leaveTheLoggingContext() {
        RequestLogContext.leave();
    }

    private AgentGate gate(RateLimit limit) {
        return gate(limit, new MemoryBuckets(10));
    }

    private AgentGate gate(RateLimit limit, BucketStore buckets) {
        return new AgentGate(tokens, (org, grant) -> live, new RateLimits(limit, Map.of(),
                Clock.fixed(NOW, ZoneOffset.UTC), buckets), new RandomIdGenerator(new Random(1)), wireJson, false, ErrorDocs.SERVED);
    }

    @Test
    void aBucketTheDatabaseCannotBeAskedForIsA503ToRetry() throws Exception {
        AgentGate gate = gate(RateLimit.DEFAULT, (bucket, limit, now) -> {
            throw new StorageUnavailableException("The database connection failed",
                    new IllegalStateException("connection refused"));
        });

        Passage passage = send(gate, true, "Bearer " + token);

        assertThat(passage.status()).isEqualTo(503);
        assertThat(passage.body().path("error").path("code").asText()).isEqualTo("service_unavailable");
        assertThat(passage.body().path("error").path("docs").asText()).isEqualTo("/docs/errors#service_unavailable");
        assertThat(passage.headers()).containsEntry("Retry-After", "1").containsKey("Request-Id")
                .containsEntry("X-RateLimit-Limit", "200").containsEntry("X-RateLimit-Remaining", "199");
        assertThat(passage.agent()).isNull();
    }

    /**
     * What the gate answered, the agent it passed on (null when it refused) and the request id the
     * MCP server's lines were logged under.
     */
    private record Passage(int status, Map<String, String> headers, JsonNode body, Agent agent, String loggedUnder) {
    }

    private Passage send(AgentGate gate, boolean secure, String authorization) throws Exception {
        Map<String, Object> attributes = new HashMap<>();
        Map<String, String> requestHeaders = new HashMap<>(Map.of("Host", "wallet.example:8443"));
        if (authorization != null) {
            requestHeaders.put("Authorization", authorization);
        }
        HttpServletRequest request = fake(HttpServletRequest.class, (method, args) -> switch (method) {
            case "isSecure" -> secure;
            case "getHeader" -> requestHeaders.get((String) args[0]);
            case "getRemoteAddr" -> "192.0.2.1";
            case "setAttribute" -> attributes.put((String) args[0], args[1]);
            default -> throw new UnsupportedOperationException(method);
        });
        int[] status = {200};
        Map<String, String> headers = new HashMap<>();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        HttpServletResponse response = fake(HttpServletResponse.class, (method, args) -> switch (method) {
            case "setHeader" -> headers.put((String) args[0], (String) args[1]);
            case "setStatus" -> status[0] = (int) args[0];
            case "setContentType" -> null;
            case "getOutputStream" -> new Captured(body);
            default -> throw new UnsupportedOperationException(method);
        });
        AtomicReference<Agent> passed = new AtomicReference<>();
        AtomicReference<String> loggedUnder = new AtomicReference<>();
        gate.doFilter(request, response, (req, res) -> {
            passed.set((Agent) attributes.get(AgentGate.AGENT_ATTRIBUTE));
            loggedUnder.set(MDC.get(RequestLogContext.REQUEST_ID));
        });
        return new Passage(status[0], headers, body.size() == 0 ? null : wireJson.readTree(body.toByteArray()),
                passed.get(), loggedUnder.get());
    }

    @Test
    void aLiveTokenPassesAsItsAgentWithTheOrganisationsRateLimitHeaders() throws Exception {
        Passage passage = send(gate(RateLimit.DEFAULT), true, "Bearer " + token);

        assertThat(passage.agent()).isEqualTo(new Agent(ORG, GRANT, "https://wallet.example:8443"));
        assertThat(passage.headers()).containsEntry("X-RateLimit-Limit", "200")
                .containsEntry("X-RateLimit-Remaining", "199").containsKey("Request-Id");
    }

    @Test
    void theMcpServerLogsUnderTheRequestIdTheAgentIsAnsweredWith() throws Exception {
        Passage passage = send(gate(RateLimit.DEFAULT), true, "Bearer " + token);

        assertThat(passage.loggedUnder()).startsWith("req_").isEqualTo(passage.headers().get("Request-Id"));
    }

    @Test
    void aRotatedOrExpiredTokenIsA401WithTheContractsBody() throws Exception {
        live = false;
        Passage passage = send(gate(RateLimit.DEFAULT), true, "Bearer " + token);

        assertThat(passage.agent()).isNull();
        assertThat(passage.status()).isEqualTo(401);
        assertThat(passage.headers()).containsEntry("WWW-Authenticate", "Bearer error=\"invalid_token\"");
        assertThat(passage.body().at("/error/code").asText()).isEqualTo("authentication_failed");
        assertThat(passage.body().at("/error/request_id").asText()).isEqualTo(passage.headers().get("Request-Id"));
    }

    @Test
    void noTokenAnApiKeyOrAForgedOneIsA401() throws Exception {
        for (String authorization : new String[] {null, "Bearer sk_live_key", "Bearer " + token + "x"}) {
            Passage passage = send(gate(RateLimit.DEFAULT), true, authorization);

            assertThat(passage.status()).as(authorization).isEqualTo(401);
            assertThat(passage.agent()).isNull();
        }
    }

    @Test
    void plainHttpIsRefused() throws Exception {
        Passage passage = send(gate(RateLimit.DEFAULT), false, "Bearer " + token);

        assertThat(passage.status()).isEqualTo(403);
        assertThat(passage.body().at("/error/code").asText()).isEqualTo("https_required");
    }

    @Test
    void anEmptyOrganisationBucketIsA429WithRetryAfter() throws Exception {
        AgentGate gate = gate(new RateLimit(1, 1));
        send(gate, true, "Bearer " + token);

        Passage passage = send(gate, true, "Bearer " + token);

        assertThat(passage.status()).isEqualTo(429);
        assertThat(passage.agent()).isNull();
        assertThat(passage.headers()).containsEntry("Retry-After", "1").containsEntry("X-RateLimit-Remaining", "0");
        assertThat(passage.body().at("/error/code").asText()).isEqualTo("rate_limit_exceeded");
    }

    private interface Answer {
        Object apply(String method, Object[] args);
    }

    /** A servlet interface answering only the methods the gate calls; any other is a test failure. */
    private static <T> T fake(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> answer.apply(method.getName(), args == null ? new Object[0] : args)));
    }

    private static final class Captured extends ServletOutputStream {
        private final ByteArrayOutputStream bytes;

        Captured(ByteArrayOutputStream bytes) {
            this.bytes = bytes;
        }

        @Override
        public void write(int b) {
            bytes.write(b);
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            throw new UnsupportedOperationException("blocking only");
        }
    }
}
