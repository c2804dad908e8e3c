package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.alert.AlertFeed;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.export.ExportService;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.user.UserService;
import com.agentwallet.core.wallet.WalletService;
import com.agentwallet.core.webhook.WebhookService;
import jakarta.servlet.Filter;
import jakarta.servlet.Servlet;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.internal.inject.AbstractBinder;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.glassfish.jersey.server.monitoring.ApplicationEventListener;
import org.glassfish.jersey.servlet.ServletContainer;

import java.time.Clock;

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

    /**
     * The use cases the pages call: the same ones, with the same checks, as the API at /v1. A page
     * class asks for the ones it needs by type in its constructor.
     */
    public record Services(DashboardSessions sessions, ApiKeyService apiKeys, UserService users, CoSignInbox inbox,
                           OrganisationService organisations, WalletService wallets, PolicyService policies,
                           PaymentService payments, EscrowService escrows, WebhookService webhooks,
                           ExportService exports, SessionTokenSigner sessionTokens, AlertFeed alerts, Clock clock) {
        public Services {
            requireNonNull(sessions, "sessions is null");
            requireNonNull(apiKeys, "apiKeys is null");
            requireNonNull(users, "users is null");
            requireNonNull(inbox, "inbox is null");
            requireNonNull(organisations, "organisations is null");
            requireNonNull(wallets, "wallets is null");
            requireNonNull(policies, "policies is null");
            requireNonNull(payments, "payments is null");
            requireNonNull(escrows, "escrows is null");
            requireNonNull(webhooks, "webhooks is null");
            requireNonNull(exports, "exports is null");
            requireNonNull(sessionTokens, "sessionTokens is null");
            requireNonNull(alerts, "alerts is null");
            requireNonNull(clock, "clock is null");
        }
    }

    private final Services services;
    private final boolean trustForwardedProto;

    /** {@code trustForwardedProto}: whether a proxy's {@code X-Forwarded-Proto: https} counts as HTTPS, as for /v1. */
    public Dashboard(Services services, boolean trustForwardedProto) {
        this.services = requireNonNull(services, "services is null");
        this.trustForwardedProto = trustForwardedProto;
    }

    /**
     * The pages and assets; every route the dashboard gains is registered here. {@code monitoring}
     * sees each request Jersey answers: the server times them by route.
     */
    public Servlet servlet(ApplicationEventListener monitoring) {
        // Resources by class, built by Jersey with what the binder offers: an instance would be
        // checked, and warned about, as a provider.
        ResourceConfig config = new ResourceConfig()
                .register(DashboardPages.class)
                .register(AccountPages.class)
                .register(ApiKeyPages.class)
                .register(UserPages.class)
                .register(CoSignPages.class)
                .register(WalletPages.class)
                .register(FundingPages.class)
                .register(WebhookPages.class)
                .register(PolicyPages.class)
                .register(AlertPages.class)
                .register(TransactionPages.class)
                .register(EscrowPages.class)
                .register(ExportPages.class)
                .register(Assets.class)
                .register(new HtmlErrors())
                .register(monitoring)
                .register(new AbstractBinder() {
                    @Override
                    protected void configure() {
                        bind(services.sessions()).to(DashboardSessions.class);
                        bind(services.apiKeys()).to(ApiKeyService.class);
                        bind(services.users()).to(UserService.class);
                        bind(services.inbox()).to(CoSignInbox.class);
                        bind(services.organisations()).to(OrganisationService.class);
                        bind(services.wallets()).to(WalletService.class);
                        bind(services.policies()).to(PolicyService.class);
                        bind(services.payments()).to(PaymentService.class);
                        bind(services.escrows()).to(EscrowService.class);
                        bind(services.webhooks()).to(WebhookService.class);
                        bind(services.exports()).to(ExportService.class);
                        bind(services.sessionTokens()).to(SessionTokenSigner.class);
                        bind(services.alerts()).to(AlertFeed.class);
                        bind(services.clock()).to(Clock.class);
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
