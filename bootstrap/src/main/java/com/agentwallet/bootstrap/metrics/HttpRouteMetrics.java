package com.agentwallet.bootstrap.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.glassfish.jersey.server.ContainerResponse;
import org.glassfish.jersey.server.monitoring.ApplicationEvent;
import org.glassfish.jersey.server.monitoring.ApplicationEventListener;
import org.glassfish.jersey.server.monitoring.RequestEvent;
import org.glassfish.jersey.server.monitoring.RequestEventListener;
import org.glassfish.jersey.uri.UriTemplate;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * Times every request a Jersey application answers (the API's, the dashboard's) as
 * {@code http_server_requests_seconds{method,uri,status}}, where {@code uri} is the application's
 * base path and the route's template ({@code /v1/wallets/{id}}, {@code /dashboard/wallets/{id}}),
 * never the path asked for: a request that matched no resource method (an unknown path, a method the
 * path does not take) is {@code NOT_FOUND}, and a method outside HTTP's own is {@code OTHER}, so that
 * no label carries anything a client chose. Each series has the few histogram buckets of
 * {@link #BUCKETS}, enough for a latency alert's quantile without multiplying the series by
 * Micrometer's default hundred.
 */
public final class HttpRouteMetrics implements ApplicationEventListener {
    static final String NOT_FOUND = "NOT_FOUND";
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS",
            "TRACE");

    private static final Duration[] BUCKETS = Stream.of(25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000)
            .map(Duration::ofMillis).toArray(Duration[]::new);

    private final MeterRegistry registry;

    public HttpRouteMetrics(MeterRegistry registry) {
        this.registry = requireNonNull(registry, "registry is null");
    }

    @Override
    public void onEvent(ApplicationEvent event) {
    }

    @Override
    public RequestEventListener onRequest(RequestEvent start) {
        Timer.Sample sample = Timer.start(registry);
        return event -> {
            if (event.getType() == RequestEvent.Type.FINISHED) {
                sample.stop(timer(registry, event.getContainerRequest().getMethod(), route(event), status(event)));
            }
        };
    }

    /** The timer of one method, route and status: the one series every door's requests are counted in. */
    static Timer timer(MeterRegistry registry, String method, String route, int status) {
        return Timer.builder("http.server.requests")
                .description("Requests answered, by method, route template and status")
                .tag("method", METHODS.contains(method) ? method : "OTHER")
                .tag("uri", route)
                .tag("status", Integer.toString(status))
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
    }

    /**
     * The API's base path (where its servlet is mapped, {@code /v1/}), then the matched templates,
     * outermost first (Jersey lists them innermost first).
     */
    private static String route(RequestEvent event) {
        List<UriTemplate> templates = event.getUriInfo().getMatchedTemplates();
        if (templates.isEmpty() || event.getUriInfo().getMatchedResourceMethod() == null) {
            return NOT_FOUND;
        }
        StringBuilder route = new StringBuilder(event.getUriInfo().getBaseUri().getRawPath());
        for (int i = templates.size() - 1; i >= 0; i--) {
            route.append(templates.get(i).getTemplate());
        }
        String joined = route.toString().replaceAll("/+", "/");
        return joined.length() > 1 && joined.endsWith("/") ? joined.substring(0, joined.length() - 1) : joined;
    }

    /** The status answered; one that failed without a response is a 500. */
    private static int status(RequestEvent event) {
        ContainerResponse response = event.getContainerResponse();
        return response == null ? 500 : response.getStatus();
    }
}
