package com.agentwallet.bootstrap;

import com.agentwallet.adapters.dashboard.CoSignInbox;
import com.agentwallet.adapters.dashboard.Dashboard;
import com.agentwallet.adapters.dashboard.DashboardSessions;
import com.agentwallet.adapters.http.Edge;
import com.agentwallet.adapters.http.ErrorDocsServlet;
import com.agentwallet.adapters.http.JsonErrorHandler;
import com.agentwallet.adapters.http.auth.BearerAuthentication;
import com.agentwallet.adapters.http.auth.RoleCheck;
import com.agentwallet.adapters.http.error.ErrorMapper;
import com.agentwallet.adapters.http.json.SnakeCaseKeys;
import com.agentwallet.adapters.http.resource.EscrowResource;
import com.agentwallet.adapters.http.resource.OpenApiResource;
import com.agentwallet.adapters.http.resource.PaymentResource;
import com.agentwallet.adapters.http.resource.PolicyResource;
import com.agentwallet.adapters.http.resource.QueryFree;
import com.agentwallet.adapters.http.resource.RecipientResource;
import com.agentwallet.adapters.http.resource.TransactionResource;
import com.agentwallet.adapters.http.resource.WalletResource;
import com.agentwallet.adapters.http.resource.WebhookResource;
import com.agentwallet.adapters.mcp.AgentGate;
import com.agentwallet.adapters.mcp.McpEndpoint;
import com.agentwallet.adapters.mcp.WalletTools;
import com.agentwallet.adapters.persistence.Persistence;
import com.agentwallet.adapters.persistence.PostgresBuckets;
import com.agentwallet.core.alert.AlertFeed;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.export.ExportService;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.user.UserService;
import com.agentwallet.core.wallet.WalletService;
import com.agentwallet.core.webhook.WebhookService;
import com.agentwallet.edge.error.ErrorDocs;
import com.agentwallet.edge.limit.RateLimit;
import com.agentwallet.edge.limit.RateLimits;
import com.agentwallet.edge.session.SessionTokens;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.Key;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.Multibinder;
import com.google.inject.name.Names;
import io.dropwizard.lifecycle.Managed;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * What the server adds to {@link CoreModule}: the /v1 API's filters, mapper and resources
 * ({@link #V1_COMPONENTS}), the dashboard, the agents' MCP endpoint, the page of error codes and
 * where error bodies link to, the handler of the errors Jetty answers itself, the demo
 * organisations, and the work Dropwizard starts and stops with the server ({@link #MANAGED}).
 */
final class ServerModule extends ConstructorModule {
    static final Key<Set<Object>> V1_COMPONENTS = new Key<>(Names.named("v1")) {
    };
    static final Key<Set<Managed>> MANAGED = new Key<>() {
    };

    private final ServiceConfiguration configuration;
    private final ObjectMapper mapper;

    /** {@code mapper} is the server's, with the wire's JSON rules: requests are read and answers written with it. */
    ServerModule(ServiceConfiguration configuration, ObjectMapper mapper) {
        this.configuration = requireNonNull(configuration, "configuration is null");
        this.mapper = requireNonNull(mapper, "mapper is null");
    }

    @Override
    protected void configure() {
        bind(ObjectMapper.class).toInstance(mapper);
        bind(ServiceConfiguration.ClockworkSettings.class).toInstance(configuration.getClockwork());
        bind(ServiceConfiguration.WebhookSettings.class).toInstance(configuration.getWebhooks());
        bind(ServiceConfiguration.ExportsSettings.class).toInstance(configuration.getExports());

        Multibinder<Object> v1 = Multibinder.newSetBinder(binder(), Object.class, V1_COMPONENTS.getAnnotation());
        v1.addBinding().to(Edge.class); // provided below, like RoleCheck: their constructors take values
        v1.addBinding().to(RoleCheck.class);
        for (Class<?> component : List.of(BearerAuthentication.class, QueryFree.class, SnakeCaseKeys.class,
                ErrorMapper.class, WalletResource.class, PaymentResource.class, EscrowResource.class,
                PolicyResource.class, RecipientResource.class, TransactionResource.class, WebhookResource.class,
                OpenApiResource.class)) {
            singleton(component);
            v1.addBinding().to(component);
        }
        singleton(JsonErrorHandler.class);
        bind(DemoOrganisations.class).in(Singleton.class);
        bind(Heartbeats.class).in(Singleton.class);

        // Started in this order and stopped in reverse: the books and the ledger close after all that uses them.
        Multibinder<Managed> managed = Multibinder.newSetBinder(binder(), Managed.class);
        managed.addBinding().to(Resources.class);
        for (Class<? extends Managed> worker : List.of(ApiKeyChangesFollower.class, WebhookWorkers.class,
                Clockwork.class)) {
            bind(worker).in(Singleton.class);
            managed.addBinding().to(worker);
        }
    }

    @Provides
    @Singleton
    SessionTokens sessionTokens() {
        ServiceConfiguration.SessionTokenSettings settings = configuration.getApi().sessionTokens();
        return new SessionTokens(SessionSigningKey.load(settings.signingKey(), Path.of(configuration.getDataDirectory())),
                SessionSigningKey.retired(settings.retiredSigningKeys()), settings.issuer(), settings.audience());
    }

    @Provides
    @Singleton
    RateLimits rateLimits(Clock clock, Persistence persistence) {
        ServiceConfiguration.ApiSettings api = configuration.getApi();
        return new RateLimits(limit(api.rateLimit()), api.organisationRateLimits().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> limit(entry.getValue()))), clock,
                new PostgresBuckets(persistence.jdbi()));
    }

    /** Where every door's error bodies link to: {@code api.errorDocsBaseUrl}, or the server's own page. */
    @Provides
    @Singleton
    ErrorDocs errorDocs() {
        return ErrorDocs.of(configuration.getApi().errorDocsBaseUrl());
    }

    @Provides
    @Singleton
    Edge edge(IdGenerator ids, RateLimits rateLimits, ErrorDocs docs) {
        ServiceConfiguration.ApiSettings api = configuration.getApi();
        return new Edge(ids, rateLimits, api.trustForwardedProto(), api.maxRequestBytes(), docs);
    }

    @Provides
    @Singleton
    ErrorDocsServlet errorDocsServlet(IdGenerator ids, RateLimits rateLimits, ErrorDocs docs) {
        return new ErrorDocsServlet(ids, rateLimits, mapper, docs, configuration.getApi().trustForwardedProto());
    }

    @Provides
    @Singleton
    Dashboard dashboard(UserService users, PaymentService payments, ApiKeyService apiKeys, WalletService wallets,
                        PolicyService policies, OrganisationService organisations, EscrowService escrows,
                        WebhookService webhooks, ExportService exports, SessionTokens sessionTokens, AlertFeed alerts,
                        Clock clock) {
        return new Dashboard(new Dashboard.Services(new DashboardSessions(users, payments), apiKeys, users,
                new CoSignInbox(payments, wallets, policies, clock), organisations, wallets, policies, payments,
                escrows, webhooks, exports, sessionTokens::issue, alerts, clock),
                configuration.getApi().trustForwardedProto());
    }

    /**
     * The agents' MCP endpoint: the same use cases as /v1, and the same session tokens, liveness check
     * and token buckets, so neither door is a way around the other's rules.
     */
    @Provides
    @Singleton
    McpEndpoint mcpEndpoint(WalletService wallets, PaymentService payments, EscrowService escrows,
                            SessionTokens sessionTokens, RateLimits rateLimits, IdGenerator ids, ErrorDocs docs) {
        ServiceConfiguration.ApiSettings api = configuration.getApi();
        return new McpEndpoint(new WalletTools(wallets, payments, escrows), new AgentGate(sessionTokens,
                wallets::isSessionLive, rateLimits, ids, mapper, api.trustForwardedProto(), docs),
                Math.toIntExact(api.maxRequestBytes()));
    }

    /** Provided, not built by its constructor: what it asks of the wallets is one method, not the use case. */
    @Provides
    @Singleton
    RoleCheck roleCheck(WalletService wallets) {
        return new RoleCheck(wallets::isSessionLive);
    }

    private static RateLimit limit(ServiceConfiguration.RateLimitSettings settings) {
        return new RateLimit(settings.perSecond(), settings.burst());
    }
}
