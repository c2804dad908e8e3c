package com.agentwallet.adapters.http;

import io.dropwizard.jersey.setup.JerseyEnvironment;

/** The /v1 API on the server's Jersey. */
public final class V1Api {
    public static final String URL_PATTERN = "/v1/*";

    private V1Api() {
    }

    /**
     * Serves {@code components} under /v1: the API's resources, and the filters and mapper every
     * request passes through, built by the wiring with the server's mapper, which must have the
     * wire's JSON rules ({@link com.agentwallet.adapters.http.json.ApiJson}).
     */
    public static void register(JerseyEnvironment jersey, Iterable<?> components) {
        jersey.setUrlPattern(URL_PATTERN);
        components.forEach(jersey::register);
    }
}
