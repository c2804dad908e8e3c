package com.agentwallet.bootstrap;

import com.agentwallet.adapters.http.export.CsvExportWriter;
import com.agentwallet.adapters.http.export.JsonExportWriter;
import com.agentwallet.adapters.http.json.ApiJson;
import com.agentwallet.adapters.http.webhook.HttpWebhookTransport;
import com.agentwallet.adapters.http.webhook.ReceiverTls;
import com.agentwallet.adapters.http.webhook.ResolvingReceiverGuard;
import com.agentwallet.adapters.persistence.Persistence;
import com.agentwallet.adapters.persistence.PersistenceSettings;
import com.agentwallet.bootstrap.metrics.MeasuredLedger;
import com.agentwallet.bootstrap.metrics.MicrometerServiceMetrics;
import com.agentwallet.bootstrap.users.BouncyCastlePasswordHasher;
import com.agentwallet.core.CoreSettings;
import com.agentwallet.core.alert.AlertFeed;
import com.agentwallet.core.auth.ApiKeyCache;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.export.ExportService;
import com.agentwallet.core.export.ExportSettings;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.idempotency.RequestKeys;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.payment.IdempotencyKeys;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.payment.Spending;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.port.ExportFiles;
import com.agentwallet.core.port.ExportWriter;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPlugins;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.PasswordHasher;
import com.agentwallet.core.port.ReceiverGuard;
import com.agentwallet.core.port.ScheduledRuns;
import com.agentwallet.core.port.ServiceMetrics;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.WebhookTransport;
import com.agentwallet.core.reconcile.Reconciliation;
import com.agentwallet.core.user.UserService;
import com.agentwallet.core.wallet.Allocation;
import com.agentwallet.core.wallet.WalletService;
import com.agentwallet.core.webhook.WebhookDispatcher;
import com.agentwallet.core.webhook.WebhookLimits;
import com.agentwallet.core.webhook.WebhookService;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.dropwizard.jackson.Jackson;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The core and its driven adapters, chosen by configuration: the books (embedded or external
 * PostgreSQL), the ledger plugin by name, the application's clock and secure ids. Guice builds
 * each use case through its constructor, one instance per injector; what is made from the
 * configuration is provided here. The server adds {@link ServerModule}; an operator command uses
 * this module alone. The use cases count into {@code registry} and the ledger's submissions are timed
 * there; an operator command's registry keeps nothing.
 */
public final class CoreModule extends ConstructorModule {
    /** The system clock to the millisecond: the contract's precision. */
    public static final Clock SYSTEM_CLOCK = Clock.tick(Clock.systemUTC(), Duration.ofMillis(1));

    private final ServiceConfiguration configuration;
    private final Clock clock;
    private final MeterRegistry registry;

    /** The core for an operator command: its metrics go nowhere (a composite registry of no registry). */
    public CoreModule(ServiceConfiguration configuration, Clock clock) {
        this(configuration, clock, new CompositeMeterRegistry());
    }

    public CoreModule(ServiceConfiguration configuration, Clock clock, MeterRegistry registry) {
        this.configuration = requireNonNull(configuration, "configuration is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.registry = requireNonNull(registry, "registry is null");
    }

    @Override
    protected void configure() {
        // Every object of the graph is listed in a module with its scope: a class Guice would make
        // on the fly could be a second instance of a use case (Settlement's locks hold only in one).
        binder().requireExplicitBindings();
        bind(Clock.class).toInstance(clock);
        bind(IdGenerator.class).toInstance(new RandomIdGenerator(new SecureRandom()));
        // Keeps nothing until the server follows the keys' changes (ApiKeyChanges); operator commands never do.
        singleton(EventPublisher.class);
        singleton(Allocation.class);
        singleton(Spending.class);
        singleton(OrganisationService.class);
        singleton(PolicyService.class);
        singleton(WalletService.class);
        singleton(IdempotencyKeys.class);
        singleton(RequestKeys.class);
        singleton(EscrowService.class);
        singleton(ApiKeyService.class);
        singleton(WebhookService.class);
        singleton(ExportService.class);
        singleton(AlertFeed.class);
        bind(Resources.class).in(Singleton.class);
        bind(ServiceMetrics.class).toInstance(new MicrometerServiceMetrics(registry));
    }

    /** Provided, not built by its constructor: the one that counts (the other counts nothing, for tests). */
    @Provides
    @Singleton
    PaymentService payments(Storage storage, LedgerPort ledger, Spending spending, Settlement settlement,
                            IdempotencyKeys idempotency, EventPublisher events, IdGenerator ids, Clock clock,
                            CoreSettings settings, ServiceMetrics metrics) {
        return new PaymentService(storage, ledger, spending, settlement, idempotency, events, ids, clock, settings,
                metrics);
    }

    /** Provided, not built by its constructor: the one that counts (the other counts nothing, for tests). */
    @Provides
    @Singleton
    WebhookDispatcher webhookDispatcher(Storage storage, WebhookTransport transport, ReceiverGuard receivers,
                                        WebhookLimits limits, Clock clock, ServiceMetrics metrics) {
        return new WebhookDispatcher(storage, transport, receivers, limits, clock, metrics);
    }

    @Provides
    @Singleton
    CoreSettings coreSettings() {
        CoreSettings defaults = CoreSettings.DEFAULTS;
        return new CoreSettings(configuration.getCoSignWindow(), defaults.defaultSessionTtl(), defaults.minSessionTtl(),
                defaults.maxSessionTtl());
    }

    /** Provided, not built by its constructor: how long a kept key is trusted is the service's rule, not a setting. */
    @Provides
    @Singleton
    ApiKeyCache apiKeyCache(Clock clock) {
        return new ApiKeyCache(clock, ApiKeyCache.TRUST_FOR);
    }

    @Provides
    @Singleton
    Persistence persistence() {
        ServiceConfiguration.DatabaseSettings database = configuration.getDatabase();
        if (database.url().isEmpty()) {
            OwnerOnly.directory(dataDirectory()); // the embedded cluster's password is kept there
        }
        return Persistence.open(new PersistenceSettings(database.url(), database.user(), database.password(),
                dataDirectory(), database.embeddedPort(), database.maxConnections(), database.connectionTimeout()));
    }

    @Provides
    @Singleton
    Storage storage(Persistence persistence, Clock clock) {
        return persistence.storage(clock);
    }

    @Provides
    @Singleton
    LedgerPort ledger(Clock clock, Persistence persistence) {
        ServiceConfiguration.LedgerSettings ledger = configuration.getLedger();
        return new MeasuredLedger(LedgerPlugins.find(ledger.type(), getClass().getClassLoader())
                .create(new LedgerContext(clock, dataDirectory(), ledger.settings(), persistence.ledgerJournal())),
                registry);
    }

    @Provides
    @Singleton
    WebhookLimits webhookLimits() {
        return configuration.getWebhooks().limits();
    }

    @Provides
    @Singleton
    ReceiverGuard receiverGuard() {
        return new ResolvingReceiverGuard(configuration.getWebhooks().allowPrivateReceivers());
    }

    @Provides
    @Singleton
    WebhookTransport webhookTransport() {
        return new HttpWebhookTransport(ReceiverTls.of(configuration.getWebhooks().acceptSelfSignedReceivers()),
                new ObjectMapper());
    }

    @Provides
    @Singleton
    ExportSettings exportSettings() {
        return new ExportSettings(configuration.getExports().retention(), ExportSettings.DEFAULTS.lease());
    }

    @Provides
    @Singleton
    ExportFiles exportFiles() {
        return new LocalExportFiles(configuration.getExports().directory().map(Path::of)
                .orElseGet(() -> dataDirectory().resolve("exports")));
    }

    @Provides
    @Singleton
    List<ExportWriter> exportWriters() {
        return List.of(new CsvExportWriter(), new JsonExportWriter(ApiJson.configure(Jackson.newObjectMapper())));
    }

    @Provides
    @Singleton
    PasswordHasher passwordHasher() {
        return new BouncyCastlePasswordHasher();
    }

    /** Provided, not built by its constructor: a session's lifetime is a value, not a part. */
    @Provides
    @Singleton
    UserService users(Storage storage, PasswordHasher hasher, IdGenerator ids, Clock clock) {
        return new UserService(storage, hasher, ids, clock, UserService.DEFAULT_SESSION_LIFETIME);
    }

    /** Provided, not built by its constructor: its claims carry this server's name, a value, not a part. */
    @Provides
    @Singleton
    Settlement settlement(Storage storage, LedgerPort ledger, EventPublisher events, Clock clock) {
        return new Settlement(storage, ledger, events, clock, ServerIdentity.of(dataDirectory()));
    }

    /** Provided, not built by its constructor: how long a transaction may stay pending is a value, not a part. */
    @Provides
    @Singleton
    Reconciliation reconciliation(Storage storage, LedgerPort ledger, Clock clock) {
        return new Reconciliation(storage, ledger, clock, Reconciliation.DEFAULT_STUCK_AFTER);
    }

    @Provides
    @Singleton
    ScheduledRuns scheduledRuns(Persistence persistence) {
        return persistence.scheduledRuns();
    }

    private Path dataDirectory() {
        return Path.of(configuration.getDataDirectory());
    }
}
