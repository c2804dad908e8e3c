package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.user.UserService;
import jakarta.servlet.Filter;
import jakarta.servlet.Servlet;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.internal.inject.AbstractBinder;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.glassfish.jersey.servlet.ServletContainer;

import static java.util.Objects.requireNonNull;

/**
 * The dashboard as the server mounts it at {@link #URL_PATTERN}: a Jersey container of its own,
 * apart from the API's at /v1, behind the {@link #headers()} filter.
 */
public final class Dashboard {
    public static final String PATH = "/dashboard";
    public static final String URL_PATTERN = PATH + "/*";
    public static final String HOME = PATH + "/";
    public static final String SIGN_IN = PATH + "/sign-in";
    static final String ASSETS = PATH + "/assets/";

    private final DashboardSessions sessions;
    private final ApiKeyService apiKeys;
    private final UserService users;
    private final CoSignInbox inbox;
    private final boolean trustForwardedProto;

    /** {@code trustForwardedProto}: whether a proxy's {@code X-Forwarded-Proto: https} counts as HTTPS, as for /v1. */
    public Dashboard(DashboardSessions sessions, ApiKeyService apiKeys, UserService users, CoSignInbox inbox,
                     boolean trustForwardedProto) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.apiKeys = requireNonNull(apiKeys, "apiKeys is null");
        this.users = requireNonNull(users, "users is null");
        this.inbox = requireNonNull(inbox, "inbox is null");
        this.trustForwardedProto = trustForwardedProto;
    }

    /** The pages and assets; every route the dashboard gains is registered here. */
    public Servlet servlet() {
        // Resources by class, built by Jersey with what the binder offers: an instance would be
        // checked, and warned about, as a provider.
        ResourceConfig config = new ResourceConfig()
                .register(DashboardPages.class)
                .register(ApiKeyPages.class)
                .register(UserPages.class)
                .register(CoSignPages.class)
                .register(Assets.class)
                .register(new HtmlErrors())
                .register(new AbstractBinder() {
                    @Override
                    protected void configure() {
                        bind(sessions).to(DashboardSessions.class);
                        bind(apiKeys).to(ApiKeyService.class);
                        bind(users).to(UserService.class);
                        bind(inbox).to(CoSignInbox.class);
                    }
                })
                // Only what is registered above: no JSON or validation features found on the class path.
                .property(CommonProperties.FEATURE_AUTO_DISCOVERY_DISABLE, true)
                .property(ServerProperties.WADL_FEATURE_DISABLE, true)
                // Jersey writes its own error answers, so they keep the filter's headers and stay HTML.
                .property(ServerProperties.RESPONSE_SET_STATUS_OVER_SEND_ERROR, true)
                // Redirects stay paths on the host the browser asked, whatever Host header a proxy sends.
                .property(ServerProperties.LOCATION_HEADER_RELATIVE_URI_RESOLUTION_DISABLED, true);
        return new ServletContainer(config);
    }

    /** The security headers of every dashboard answer, and its refusal of plain HTTP. */
    public Filter headers() {
        return new SecurityHeaders(trustForwardedProto);
    }
}
