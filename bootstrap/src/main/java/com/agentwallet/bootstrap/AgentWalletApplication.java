package com.agentwallet.bootstrap;

import com.agentwallet.adapters.http.JsonErrorHandler;
import com.agentwallet.adapters.http.V1Api;
import com.agentwallet.adapters.http.limit.RateLimit;
import com.agentwallet.adapters.http.limit.RateLimits;
import com.agentwallet.adapters.http.session.SessionTokens;
import com.agentwallet.adapters.persistence.ApiKeyChanges;
import com.agentwallet.adapters.persistence.Persistence;
import com.agentwallet.core.auth.ApiKeyCache;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.export.ExportService;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.reconcile.Reconciliation;
import com.agentwallet.core.wallet.WalletService;
import com.agentwallet.core.webhook.WebhookDispatcher;
import com.agentwallet.core.webhook.WebhookService;
import com.google.inject.Guice;
import com.google.inject.Injector;
import io.dropwizard.core.Application;
import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.jetty.ConnectorFactory;
import io.dropwizard.jetty.HttpsConnectorFactory;
import io.dropwizard.lifecycle.Managed;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/** The server binary: {@code server config.yml} runs the service; the other commands are operator tooling. */
public final class AgentWalletApplication extends Application<ServiceConfiguration> {
    private static final Logger LOG = LoggerFactory.getLogger(AgentWalletApplication.class);

    private final Clock clock;

    /** The server on the system clock. */
    public AgentWalletApplication() {
        this(CoreModule.SYSTEM_CLOCK);
    }

    /** The server on {@code clock}: every time-driven rule, expiry and retry schedule reads it. */
    public AgentWalletApplication(Clock clock) {
        this.clock = requireNonNull(clock, "clock is null");
    }

    public static void main(String[] args) throws Exception {
        new AgentWalletApplication().run(args);
    }

    @Override
    public String getName() {
        return "agent-wallet";
    }

    @Override
    public void initialize(Bootstrap<ServiceConfiguration> bootstrap) {
        bootstrap.addCommand(new ReconcileCommand());
        bootstrap.addCommand(new MigrateCommand());
        bootstrap.addCommand(new CreateOrganisationCommand());
        bootstrap.addCommand(new DepositCommand());
        bootstrap.addCommand(new ApiKeyCommands.Create());
        bootstrap.addCommand(new ApiKeyCommands.Revoke());
        bootstrap.addCommand(new ApiKeyCommands.Rotate());
    }

    @Override
    public void run(ServiceConfiguration configuration, Environment environment) {
        if (configuration.getServerFactory() instanceof AbstractServerFactory server) {
            server.setRegisterDefaultExceptionMappers(false);
        }
        List<HttpsConnectorFactory> https = httpsConnectors(configuration);
        if (configuration.getApi().selfSignedCertificate()) {
            https.forEach(connector -> SelfSignedCertificate.createIfAbsent(Path.of(connector.getKeyStorePath()),
                    connector.getKeyStorePassword()));
        }
        Injector injector = Guice.createInjector(new CoreModule(configuration, clock));
        environment.lifecycle().manage(injector.getInstance(Resources.class));
        environment.lifecycle().manage(new Managed() {
            private ApiKeyChanges keyChanges;

            @Override
            public void start() {
                keyChanges = ApiKeyChanges.follow(injector.getInstance(Persistence.class).dataSource(),
                        injector.getInstance(ApiKeyCache.class));
            }

            @Override
            public void stop() {
                keyChanges.close();
            }
        });
        Path dataDirectory = Path.of(configuration.getDataDirectory());
        ServiceConfiguration.ApiSettings api = configuration.getApi();
        SessionTokens sessionTokens = new SessionTokens(
                SessionSigningKey.load(api.sessionTokens().signingKey(), dataDirectory),
                api.sessionTokens().issuer(), api.sessionTokens().audience());
        RateLimits rateLimits = new RateLimits(limit(api.rateLimit()), api.organisationRateLimits().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> limit(entry.getValue()))),
                clock);
        IdGenerator ids = injector.getInstance(IdGenerator.class);
        V1Api.register(environment.jersey(), environment.getObjectMapper(), new V1Api.Parts(
                injector.getInstance(WalletService.class), injector.getInstance(PaymentService.class),
                injector.getInstance(EscrowService.class), injector.getInstance(PolicyService.class),
                injector.getInstance(WebhookService.class), injector.getInstance(ExportService.class),
                injector.getInstance(ApiKeyService.class), sessionTokens, rateLimits, ids, api.trustForwardedProto(),
                api.maxRequestBytes()));
        answerJettyErrorsAsJson(environment, new JsonErrorHandler(environment.getObjectMapper(), ids, rateLimits));
        if (configuration.isDemo()) {
            String baseUrl = https.stream().findFirst().map(connector -> "https://localhost:" + connector.getPort() + "/v1")
                    .orElse("https://localhost/v1");
            Path credentials = new DemoOrganisations(injector.getInstance(OrganisationService.class),
                    injector.getInstance(ApiKeyService.class)).ensure(dataDirectory, baseUrl);
            LOG.info("Demo organisations and API keys: {}", credentials.toAbsolutePath());
        }
        environment.lifecycle().manage(new WebhookWorkers(injector.getInstance(WebhookDispatcher.class),
                configuration.getWebhooks()));
        environment.lifecycle().manage(new Clockwork(injector.getInstance(Settlement.class),
                injector.getInstance(EscrowService.class), injector.getInstance(PaymentService.class),
                injector.getInstance(WalletService.class), injector.getInstance(ExportService.class),
                injector.getInstance(Reconciliation.class), configuration.getClockwork()));
    }

    /**
     * Errors Jetty answers itself get the contract's JSON body: those inside the API's servlet
     * context (a path outside /v1, an ambiguous path) through the context's handler, those before any
     * context (a malformed request line or header, a URI or headers too long) through the server's,
     * which Dropwizard makes only when it builds the server after {@code run}, so it is replaced as
     * the server starts.
     */
    private static void answerJettyErrorsAsJson(Environment environment, JsonErrorHandler handler) {
        environment.getApplicationContext().setErrorHandler(handler);
        environment.lifecycle().addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStarting(LifeCycle event) {
                if (event instanceof Server server) {
                    server.setErrorHandler(handler);
                }
            }
        });
    }

    private static List<HttpsConnectorFactory> httpsConnectors(ServiceConfiguration configuration) {
        List<ConnectorFactory> connectors = configuration.getServerFactory() instanceof DefaultServerFactory server
                ? server.getApplicationConnectors() : List.of();
        return connectors.stream().filter(HttpsConnectorFactory.class::isInstance)
                .map(HttpsConnectorFactory.class::cast).toList();
    }

    private static RateLimit limit(ServiceConfiguration.RateLimitSettings settings) {
        return new RateLimit(settings.perSecond(), settings.burst());
    }
}
