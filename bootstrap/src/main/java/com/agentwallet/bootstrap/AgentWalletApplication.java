package com.agentwallet.bootstrap;

import com.agentwallet.adapters.dashboard.Dashboard;
import com.agentwallet.adapters.http.ErrorDocsServlet;
import com.agentwallet.adapters.http.JsonErrorHandler;
import com.agentwallet.adapters.http.RequestLogScope;
import com.agentwallet.adapters.http.V1Api;
import com.agentwallet.adapters.http.json.ApiJson;
import com.agentwallet.adapters.mcp.McpEndpoint;
import com.agentwallet.adapters.persistence.Persistence;
import com.agentwallet.bootstrap.metrics.ServerMetrics;
import com.agentwallet.edge.error.ErrorDocs;
import com.google.inject.Guice;
import com.google.inject.Injector;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.Application;
import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.jetty.ConnectorFactory;
import io.dropwizard.jetty.HttpsConnectorFactory;
import jakarta.servlet.DispatcherType;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;

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
        bootstrap.setConfigurationSourceProvider(new SubstitutingSourceProvider(
                bootstrap.getConfigurationSourceProvider(), new ConfigurationSecrets()));
        bootstrap.addCommand(new ReconcileCommand());
        bootstrap.addCommand(new MigrateCommand());
        bootstrap.addCommand(new CreateOrganisationCommand());
        bootstrap.addCommand(new DepositCommand());
        bootstrap.addCommand(new ApiKeyCommands.Create());
        bootstrap.addCommand(new ApiKeyCommands.Revoke());
        bootstrap.addCommand(new ApiKeyCommands.Rotate());
        bootstrap.addCommand(new UserCommands.Create());
        bootstrap.addCommand(new UserCommands.ResetPassword());
    }

    @Override
    public void run(ServiceConfiguration configuration, Environment environment) {
        if (configuration.getServerFactory() instanceof AbstractServerFactory server) {
            server.setRegisterDefaultExceptionMappers(false);
        }
        OwnerOnly.directory(Path.of(configuration.getDataDirectory()));
        List<HttpsConnectorFactory> https = httpsConnectors(configuration);
        if (configuration.getApi().selfSignedCertificate()) {
            https.forEach(connector -> SelfSignedCertificate.createIfAbsent(Path.of(connector.getKeyStorePath()),
                    connector.getKeyStorePassword()));
        }
        ServerMetrics metrics = new ServerMetrics();
        Injector injector = Guice.createInjector(new CoreModule(configuration, clock, metrics.registry()),
                new ServerModule(configuration, ApiJson.configure(environment.getObjectMapper())));
        injector.getInstance(ServerModule.MANAGED).forEach(environment.lifecycle()::manage);
        HealthChecks.register(environment, configuration, injector);
        environment.servlets().addFilter("request-log-scope", new RequestLogScope())
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        metrics.register(environment, injector.getInstance(Persistence.class), clock);
        V1Api.register(environment.jersey(), injector.getInstance(ServerModule.V1_COMPONENTS));
        mountDashboard(environment, injector.getInstance(Dashboard.class), metrics);
        mountMcp(environment, injector.getInstance(McpEndpoint.class), metrics);
        environment.servlets().addServlet("error-docs", injector.getInstance(ErrorDocsServlet.class))
                .addMapping(ErrorDocs.PATH);
        answerJettyErrorsAsJson(environment, injector.getInstance(JsonErrorHandler.class));
        if (configuration.isDemo()) {
            String origin = https.stream().findFirst().map(connector -> "https://localhost:" + connector.getPort())
                    .orElse("https://localhost");
            Path credentials = injector.getInstance(DemoOrganisations.class)
                    .ensure(Path.of(configuration.getDataDirectory()), origin);
            LOG.info("Demo organisations and API keys: {}", credentials.toAbsolutePath());
        }
    }

    /**
     * The dashboard in a servlet of its own beside the API's, on the same connectors; every other
     * path outside /v1 is still answered by the API's JSON 404.
     */
    private static void mountDashboard(Environment environment, Dashboard dashboard, ServerMetrics metrics) {
        environment.servlets().addFilter("dashboard-headers", dashboard.headers())
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, Dashboard.URL_PATTERN);
        environment.servlets().addServlet("dashboard", dashboard.servlet(metrics.routes()))
                .addMapping(Dashboard.URL_PATTERN);
    }

    /**
     * The agents' MCP endpoint in a servlet of its own at /mcp, on the same connectors, behind its gate
     * (HTTPS, the session token, the rate limit), its requests timed around the gate.
     */
    private static void mountMcp(Environment environment, McpEndpoint mcp, ServerMetrics metrics) {
        environment.servlets().addFilter("mcp-metrics", metrics.requests(McpEndpoint.PATH))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, McpEndpoint.PATH);
        environment.servlets().addFilter("mcp-gate", mcp.gate())
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, McpEndpoint.PATH);
        environment.servlets().addServlet("mcp", mcp.servlet()).addMapping(McpEndpoint.PATH);
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
}
