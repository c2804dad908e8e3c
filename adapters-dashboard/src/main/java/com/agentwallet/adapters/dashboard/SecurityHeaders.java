package com.agentwallet.adapters.dashboard;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Every dashboard answer, error pages included, gets the headers that keep pages from running
 * injected script, being framed or sniffed, leaking their address, or being cached; and the
 * dashboard answers over HTTPS only, as its cookies are Secure.
 */
final class SecurityHeaders implements Filter {
    /** Scripts and styles only from the dashboard's own files: no inline script, no eval. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
    /** The assets change only with a new release; a short lifetime lets a release reach browsers soon. */
    static final String ASSET_CACHE = "public, max-age=300";

    private final boolean trustForwardedProto;

    SecurityHeaders(boolean trustForwardedProto) {
        this.trustForwardedProto = trustForwardedProto;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("Cache-Control", request.getRequestURI().startsWith(Dashboard.ASSETS) && isSecure(request)
                ? ASSET_CACHE : "no-store");
        if (!isSecure(request)) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            response.setContentType("text/plain;charset=utf-8");
            response.getOutputStream().write("The dashboard is served over HTTPS only; use https://\n"
                    .getBytes(StandardCharsets.UTF_8));
            return;
        }
        chain.doFilter(request, response);
    }

    private boolean isSecure(HttpServletRequest request) {
        return request.isSecure()
                || trustForwardedProto && "https".equalsIgnoreCase(request.getHeader("X-Forwarded-Proto"));
    }
}
