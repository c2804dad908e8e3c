package com.agentwallet.bootstrap.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * Times the requests of a servlet that is not a Jersey application (the MCP endpoint) in the same
 * series as {@link HttpRouteMetrics}, under the one {@code uri} of its mapping: it has a single
 * path, so nothing a client chose reaches a label. Mapped before the servlet's own filters, it counts
 * their refusals too.
 */
final class PathRequestMetrics implements Filter {
    private final MeterRegistry registry;
    private final String path;

    PathRequestMetrics(MeterRegistry registry, String path) {
        this.registry = requireNonNull(registry, "registry is null");
        this.path = requireNonNull(path, "path is null");
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        Timer.Sample sample = Timer.start(registry);
        int status = HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
        try {
            chain.doFilter(request, response);
            status = ((HttpServletResponse) response).getStatus();
        } finally {
            sample.stop(HttpRouteMetrics.timer(registry, ((HttpServletRequest) request).getMethod(), path, status));
        }
    }
}
