package com.agentwallet.adapters.mcp;

import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.core.port.StorageUnavailableException;
import com.agentwallet.edge.error.ErrorDocs;
import com.agentwallet.edge.error.ErrorJson;
import com.agentwallet.edge.limit.RateLimits;
import com.agentwallet.edge.log.RequestLogContext;
import com.agentwallet.edge.session.SessionTokens;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.Optional;
import java.util.function.BiPredicate;

import static java.util.Objects.requireNonNull;

/**
 * What every request to /mcp meets before the MCP server reads it, with /v1's rules: HTTPS only;
 * {@code Authorization: Bearer <session token>}, verified by the same {@link SessionTokens} and
 * refused with 401 when it is malformed, forged, rotated or expired (an API key too: agents hold
 * tokens); the same token buckets, the organisation's once the token verifies, else the client
 * address's. Refusals carry the contract's error body, a {@code Request-Id} and the rate-limit
 * headers, so a client of /mcp handles them as it would /v1's. The id is in the logging context
 * ({@link RequestLogContext}) from here on, as /v1's is.
 */
public final class AgentGate implements Filter {
    static final String AGENT_ATTRIBUTE = Agent.class.getName();
    private static final String BEARER = "Bearer ";

    private final SessionTokens sessionTokens;
    private final BiPredicate<OrgId, SessionGrant> liveSession;
    private final RateLimits limits;
    private final IdGenerator ids;
    private final ObjectMapper wireJson;
    private final boolean trustForwardedProto;
    private final ErrorDocs docs;

    /**
     * {@code liveSession} tells whether a verified token's wallet still accepts it (not rotated, not
     * expired); {@code wireJson} writes error bodies by the contract's JSON rules, {@code docs} their
     * {@code docs} link.
     */
    public AgentGate(SessionTokens sessionTokens, BiPredicate<OrgId, SessionGrant> liveSession, RateLimits limits,
                     IdGenerator ids, ObjectMapper wireJson, boolean trustForwardedProto, ErrorDocs docs) {
        this.sessionTokens = requireNonNull(sessionTokens, "sessionTokens is null");
        this.liveSession = requireNonNull(liveSession, "liveSession is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.wireJson = requireNonNull(wireJson, "wireJson is null");
        this.trustForwardedProto = trustForwardedProto;
        this.docs = requireNonNull(docs, "docs is null");
    }

    @Override
    public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) servletRequest;
        HttpServletResponse response = (HttpServletResponse) servletResponse;
        String requestId = "req_" + ids.randomPart();
        response.setHeader("Request-Id", requestId);
        RequestLogContext.enter(requestId);
        response.setHeader("Cache-Control", "no-store");
        if (!secure(request)) {
            refuseByAddress(request, response, requestId, 403, "https_required",
                    "This endpoint is served over HTTPS only; use https://");
            return;
        }
        Optional<SessionTokens.Verified> token = bearer(request).flatMap(sessionTokens::verify);
        if (token.isEmpty()) {
            response.setHeader("WWW-Authenticate", "Bearer");
            refuseByAddress(request, response, requestId, 401, "authentication_failed",
                    "Send your wallet's session token as 'Authorization: Bearer <token>'; this one is missing,"
                            + " malformed or forged (API keys are not accepted here)");
            return;
        }
        OrgId orgId = token.get().orgId();
        SessionGrant grant = token.get().grant();
        RateLimits.Outcome outcome;
        boolean live;
        try {
            outcome = limits.takeForOrg(orgId.value());
        } catch (StorageUnavailableException e) {
            // the answer still carries rate-limit headers: the client address's, as before a token verifies
            limits.takeForAddress(request.getRemoteAddr()).headers().forEach(response::setHeader);
            unavailable(response, requestId);
            return;
        }
        if (!allowed(response, requestId, outcome)) {
            return;
        }
        try {
            live = liveSession.test(orgId, grant);
        } catch (StorageUnavailableException e) {
            unavailable(response, requestId);
            return;
        }
        if (!live) {
            response.setHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"");
            write(response, requestId, 401, "authentication_failed",
                    "The session token was rotated or has expired; ask the wallet's owner for a new one");
            return;
        }
        request.setAttribute(AGENT_ATTRIBUTE, new Agent(orgId, grant, origin(request)));
        chain.doFilter(request, response);
    }

    private boolean secure(HttpServletRequest request) {
        return request.isSecure()
                || trustForwardedProto && "https".equalsIgnoreCase(request.getHeader("X-Forwarded-Proto"));
    }

    private static Optional<String> bearer(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        return header != null && header.startsWith(BEARER) ? Optional.of(header.substring(BEARER.length()).trim())
                : Optional.empty();
    }

    /** Where the agent reached us, for the links it is given: the scheme is HTTPS by now. */
    private static String origin(HttpServletRequest request) {
        String host = request.getHeader("Host");
        return "https://" + (host == null || host.isBlank() ? request.getServerName() + ":" + request.getServerPort()
                : host);
    }

    /** A refusal no valid token vouches for draws from the client address's bucket; an empty one is a 429 first. */
    private void refuseByAddress(HttpServletRequest request, HttpServletResponse response, String requestId,
                                 int status, String code, String message) throws IOException {
        if (allowed(response, requestId, limits.takeForAddress(request.getRemoteAddr()))) {
            write(response, requestId, status, code, message);
        }
    }

    /** Sets the rate-limit headers; when the token was not there, answers 429 and says so. */
    private boolean allowed(HttpServletResponse response, String requestId, RateLimits.Outcome outcome)
            throws IOException {
        outcome.headers().forEach(response::setHeader);
        if (!outcome.allowed()) {
            write(response, requestId, 429, "rate_limit_exceeded", outcome.refusal());
        }
        return outcome.allowed();
    }

    /** The organisation's bucket or the session's liveness could not be read from the database: 503, to retry. */
    private void unavailable(HttpServletResponse response, String requestId) throws IOException {
        response.setHeader("Retry-After", "1");
        write(response, requestId, 503, "service_unavailable",
                "The database could not be reached to check this request; nothing was done. Retry it");
    }

    private void write(HttpServletResponse response, String requestId, int status, String code, String message)
            throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.getOutputStream().write(wireJson.writeValueAsBytes(ErrorJson.of(docs, code, message, requestId)));
    }
}
