package com.agentwallet.bootstrap.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.OutputStream;

import static java.util.Objects.requireNonNull;

/**
 * The registry's meters as Prometheus's text format ({@code text/plain; version=0.0.4}), or as
 * OpenMetrics when the scraper's {@code Accept} asks for {@code application/openmetrics-text}.
 */
final class PrometheusServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    static final String OPEN_METRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private final transient PrometheusMeterRegistry registry;

    PrometheusServlet(PrometheusMeterRegistry registry) {
        this.registry = requireNonNull(registry, "registry is null");
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String accept = request.getHeader("Accept");
        String contentType = accept != null && accept.contains("application/openmetrics-text")
                ? OPEN_METRICS : PROMETHEUS_TEXT;
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(contentType);
        response.setHeader("Cache-Control", "no-store");
        try (OutputStream out = response.getOutputStream()) {
            registry.scrape(out, contentType);
        }
    }
}
