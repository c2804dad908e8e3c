package com.agentwallet.adapters.http;

import com.agentwallet.adapters.http.error.ApiException;
import com.agentwallet.adapters.http.error.ErrorResponses;
import com.agentwallet.adapters.http.error.PayloadTooLargeException;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.port.StorageUnavailableException;
import com.agentwallet.edge.error.ErrorDocs;
import com.agentwallet.edge.error.ErrorJson;
import com.agentwallet.edge.limit.RateLimits;
import com.agentwallet.edge.log.RequestLogContext;
import jakarta.annotation.Priority;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MultivaluedMap;

import java.io.IOException;
import java.io.InputStream;

import static java.util.Objects.requireNonNull;

/**
 * What every request meets first and every response carries last: a request id, the HTTPS rule
 * (a plain-HTTP request is refused before anything else, unless a trusted proxy says it terminated
 * TLS), the body size limit (a Content-Length above it is refused at once, any other body is cut
 * off where it passes it), and on the way out the {@code Request-Id} and rate-limit headers, with
 * the id also in any error body. The id is in the logging context ({@link RequestLogContext}) while
 * the request is served, until {@link RequestLogScope} takes it out.
 */
@PreMatching
@Priority(100)
public final class Edge implements ContainerRequestFilter, ContainerResponseFilter {
    public static final String REQUEST_ID = "Request-Id";
    static final String REQUEST_ID_PROPERTY = "agentwallet.request_id";
    static final String RATE_LIMIT_PROPERTY = "agentwallet.rate_limit";
    private static final long MAX_DISCARDED_BYTES = 1 << 20;

    private final IdGenerator ids;
    private final RateLimits limits;
    private final boolean trustForwardedProto;
    private final long maxRequestBytes;
    private final ErrorDocs docs;

    @Context
    private HttpServletRequest servletRequest;

    /** {@code docs} makes the {@code docs} link of the errors this filter answers itself. */
    public Edge(IdGenerator ids, RateLimits limits, boolean trustForwardedProto, long maxRequestBytes, ErrorDocs docs) {
        this.ids = requireNonNull(ids, "ids is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.trustForwardedProto = trustForwardedProto;
        if (maxRequestBytes < 1) {
            throw new IllegalArgumentException("maxRequestBytes must be positive: " + maxRequestBytes);
        }
        this.maxRequestBytes = maxRequestBytes;
        this.docs = requireNonNull(docs, "docs is null");
    }

    @Override
    public void filter(ContainerRequestContext request) {
        String requestId = newRequestId(ids);
        request.setProperty(REQUEST_ID_PROPERTY, requestId);
        RequestLogContext.enter(requestId);
        boolean secure = servletRequest.isSecure()
                || trustForwardedProto && "https".equalsIgnoreCase(request.getHeaderString("X-Forwarded-Proto"));
        if (!secure) {
            limitByAddress(request);
            request.abortWith(ErrorResponses.response(ApiException.of(403, "https_required",
                    "This API is served over HTTPS only; use https://"), docs));
            return;
        }
        if (declaredLength(request) > maxRequestBytes) {
            limitByAddress(request);
            request.abortWith(ErrorResponses.response(PayloadTooLargeException.of(maxRequestBytes), docs));
            return;
        }
        request.setEntityStream(new BoundedBody(request.getEntityStream(), maxRequestBytes));
    }

    /** The body's Content-Length, or -1 without one (chunked, or no body); Jetty has already refused a malformed one. */
    private static long declaredLength(ContainerRequestContext request) {
        String length = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        try {
            return length == null ? -1 : Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static String newRequestId(IdGenerator ids) {
        return "req_" + ids.randomPart();
    }

    /** The bucket of the client's address, for requests no valid key vouches for; an empty bucket is a 429. */
    public void limitByAddress(ContainerRequestContext request) {
        record(request, limits.takeForAddress(servletRequest.getRemoteAddr()));
    }

    /** The bucket of the caller's organisation; an empty bucket is a 429. */
    public void limitByOrg(ContainerRequestContext request, OrgId orgId) {
        RateLimits.Outcome outcome;
        try {
            outcome = limits.takeForOrg(orgId.value());
        } catch (StorageUnavailableException e) {
            // the 503 still carries rate-limit headers: the client address's, as errors before authentication do
            request.setProperty(RATE_LIMIT_PROPERTY, limits.takeForAddress(servletRequest.getRemoteAddr()));
            throw e;
        }
        record(request, outcome);
    }

    private static void record(ContainerRequestContext request, RateLimits.Outcome outcome) {
        request.setProperty(RATE_LIMIT_PROPERTY, outcome);
        if (!outcome.allowed()) {
            throw ApiException.of(429, "rate_limit_exceeded", outcome.refusal());
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        MultivaluedMap<String, Object> headers = response.getHeaders();
        Object requestId = request.getProperty(REQUEST_ID_PROPERTY);
        if (requestId != null) {
            headers.putSingle(REQUEST_ID, requestId);
            if (response.getEntity() instanceof ErrorJson error) {
                response.setEntity(error.withRequestId((String) requestId));
            }
        }
        if (request.getProperty(RATE_LIMIT_PROPERTY) instanceof RateLimits.Outcome outcome) {
            outcome.headers().forEach(headers::putSingle);
        }
        headers.putSingle("Cache-Control", "no-store");
        // a body refused for its size is not read for nothing: the connection closes instead
        if (response.getStatus() == 413 || response.getStatus() >= 400 && !discardUnreadBody(request)) {
            headers.putSingle("Connection", "close");
        }
    }

    /**
     * A request refused before its body was read (no key, too low a role, plain HTTP) still has the
     * body on the wire. Reading it here keeps the keep-alive connection usable; a body too large to
     * read for nothing closes the connection instead, and says so.
     */
    private static boolean discardUnreadBody(ContainerRequestContext request) {
        try (InputStream body = request.getEntityStream()) {
            return body == null || body.skip(MAX_DISCARDED_BYTES) < MAX_DISCARDED_BYTES && body.read() < 0;
        } catch (IOException | IllegalStateException e) {
            return false;
        }
    }
}
