package com.agentwallet.bootstrap;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.core.setup.AdminEnvironment;
import io.dropwizard.health.HealthEnvironment;
import io.dropwizard.health.response.HealthResponderFactory;
import io.dropwizard.health.response.HealthResponseProvider;
import io.dropwizard.health.response.ServletHealthResponder;
import io.dropwizard.jersey.setup.JerseyEnvironment;
import io.dropwizard.jetty.setup.ServletEnvironment;

import java.util.Collection;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Dropwizard's own health responder (its servlet, its JSON), mounted on the admin connectors instead
 * of the application's: probes stay off the public HTTPS port, beside {@code /healthcheck}. Dropwizard
 * configures the module before the application runs, when only the application's servlets are at
 * hand, so the servlet is kept until {@link #mountOn} is given the admin environment.
 */
final class AdminHealthResponder implements HealthResponderFactory {
    /** What every probe answer carries: a cached answer would tell a balancer an old state. */
    private static final String CACHE_CONTROL = "no-store";

    private String name;
    private List<String> paths;
    private ServletHealthResponder servlet;

    @Override
    public void configure(String name, Collection<String> healthCheckUrlPaths, HealthResponseProvider provider,
                          HealthEnvironment health, JerseyEnvironment jersey, ServletEnvironment servlets,
                          ObjectMapper mapper) {
        this.name = requireNonNull(name, "name is null");
        this.paths = List.copyOf(healthCheckUrlPaths);
        this.servlet = new ServletHealthResponder(provider, true, CACHE_CONTROL);
    }

    void mountOn(AdminEnvironment admin) {
        if (servlet == null) {
            throw new IllegalStateException("the health module was not configured before the application ran");
        }
        admin.addServlet(name + "-servlet", servlet).addMapping(paths.toArray(String[]::new));
    }
}
