package com.agentwallet.adapters.http;

import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.edge.error.ErrorCatalogue;
import com.agentwallet.edge.error.ErrorDocs;
import com.agentwallet.edge.error.ErrorJson;
import com.agentwallet.edge.limit.RateLimits;
import com.agentwallet.edge.log.RequestLogContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static java.util.Objects.requireNonNull;

/**
 * {@code GET /docs/errors}: the page every error body's {@code docs} link points to by default, made
 * of {@link ErrorCatalogue}, without a credential. Like the API it answers over HTTPS only (plain
 * HTTP is 403 {@code https_required}), with a request id and the rate-limit headers of the client's
 * address, whose bucket it draws from; any other method is Jetty's 405, which the API's error
 * handler answers as JSON.
 */
public final class ErrorDocsServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final byte[] PAGE = ErrorCatalogue.html().getBytes(StandardCharsets.UTF_8);

    private final transient IdGenerator ids;
    private final transient RateLimits limits;
    private final transient ObjectMapper mapper;
    private final transient ErrorDocs docs;
    private final boolean trustForwardedProto;

    /** {@code mapper} writes the wire's JSON; {@code docs} makes the link of the refusals this page answers itself. */
    public ErrorDocsServlet(IdGenerator ids, RateLimits limits, ObjectMapper mapper, ErrorDocs docs,
                            boolean trustForwardedProto) {
        this.ids = requireNonNull(ids, "ids is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.docs = requireNonNull(docs, "docs is null");
        this.trustForwardedProto = trustForwardedProto;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String requestId = Edge.newRequestId(ids);
        response.setHeader(Edge.REQUEST_ID, requestId);
        RequestLogContext.enter(requestId);
        RateLimits.Outcome outcome = limits.takeForAddress(request.getRemoteAddr());
        outcome.headers().forEach(response::setHeader);
        boolean secure = request.isSecure()
                || trustForwardedProto && "https".equalsIgnoreCase(request.getHeader("X-Forwarded-Proto"));
        if (!secure) {
            refuse(response, requestId, 403, "https_required", "This page is served over HTTPS only; use https://");
            return;
        }
        if (!outcome.allowed()) {
            refuse(response, requestId, 429, "rate_limit_exceeded", outcome.refusal());
            return;
        }
        response.setStatus(200);
        response.setContentType("text/html; charset=utf-8");
        response.setHeader("Cache-Control", "max-age=300");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
        response.setContentLength(PAGE.length);
        response.getOutputStream().write(PAGE);
    }

    private void refuse(HttpServletResponse response, String requestId, int status, String code, String message)
            throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-store");
        response.getOutputStream().write(mapper.writeValueAsBytes(ErrorJson.of(docs, code, message, requestId)));
    }
}
