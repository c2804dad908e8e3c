package com.agentwallet.bootstrap;

import com.agentwallet.adapters.persistence.Persistence;
import com.agentwallet.adapters.persistence.PersistenceSettings;
import com.agentwallet.adapters.http.export.CsvExportWriter;
import com.agentwallet.adapters.http.export.JsonExportWriter;
import com.agentwallet.adapters.http.json.ApiJson;
import com.agentwallet.adapters.http.webhook.HttpWebhookTransport;
import com.agentwallet.adapters.http.webhook.ReceiverTls;
import com.agentwallet.adapters.http.webhook.ResolvingReceiverGuard;
import com.agentwallet.core.CoreSettings;
import com.agentwallet.core.auth.ApiKeyCache;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.export.ExportService;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.payment.IdempotencyKeys;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.payment.Spending;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPlugins;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.ReceiverGuard;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.reconcile.Reconciliation;
import com.agentwallet.core.wallet.Allocation;
import com.agentwallet.core.wallet.WalletService;
import com.agentwallet.core.webhook.WebhookDispatcher;
import com.agentwallet.core.webhook.WebhookService;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.dropwizard.jackson.Jackson;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The wiring of the core to its adapters, chosen by configuration: the books (embedded or external
 * PostgreSQL), the ledger plugin by name, the application's clock and secure ids. Plain Guice, no
 * classpath scanning.
 */
public final class CoreModule extends AbstractModule {
    /** The system clock to the millisecond: the contract's precision. */
    public static final Clock SYSTEM_CLOCK = Clock.tick(Clock.systemUTC(), Duration.ofMillis(1));

    private final ServiceConfiguration configuration;
    private final Clock clock;

    public CoreModule(ServiceConfiguration configuration, Clock clock) {
        this.configuration = requireNonNull(configuration, "configuration is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Provides
    Clock clock() {
        return clock;
    }

    @Provides
    @Singleton
    IdGenerator ids() {
        return new RandomIdGenerator(new SecureRandom());
    }

    @Provides
    @Singleton
    CoreSettings coreSettings() {
        CoreSettings defaults = CoreSettings.DEFAULTS;
        return new CoreSettings(configuration.getCoSignWindow(), defaults.defaultSessionTtl(), defaults.minSessionTtl(),
                defaults.maxSessionTtl());
    }

    @Provides
    @Singleton
    Persistence persistence() {
        ServiceConfiguration.DatabaseSettings database = configuration.getDatabase();
        return Persistence.open(new PersistenceSettings(database.url(), database.user(), database.password(),
                dataDirectory(), database.embeddedPort(), database.maxConnections()));
    }

    @Provides
    @Singleton
    Storage storage(Persistence persistence, Clock clock) {
        return persistence.storage(clock);
    }

    @Provides
    @Singleton
    LedgerPort ledger(Clock clock) {
        ServiceConfiguration.LedgerSettings ledger = configuration.getLedger();
        return LedgerPlugins.find(ledger.type(), getClass().getClassLoader())
                .create(new LedgerContext(clock, dataDirectory(), ledger.settings()));
    }

    @Provides
    @Singleton
    EventPublisher events(IdGenerator ids, Clock clock) {
        return new EventPublisher(ids, clock);
    }

    @Provides
    @Singleton
    Settlement settlement(Storage storage, LedgerPort ledger, EventPublisher events, Clock clock) {
        return new Settlement(storage, ledger, events, clock);
    }

    @Provides
    @Singleton
    Allocation allocation(IdGenerator ids, EventPublisher events) {
        return new Allocation(ids, events);
    }

    @Provides
    @Singleton
    Spending spending(Allocation allocation, EventPublisher events) {
        return new Spending(allocation, events);
    }

    @Provides
    @Singleton
    OrganisationService organisations(Storage storage, LedgerPort ledger, EventPublisher events, IdGenerator ids,
                                      Clock clock) {
        return new OrganisationService(storage, ledger, events, ids, clock);
    }

    @Provides
    @Singleton
    PolicyService policies(Storage storage, LedgerPort ledger, EventPublisher events, IdGenerator ids, Clock clock) {
        return new PolicyService(storage, ledger, events, ids, clock);
    }

    @Provides
    @Singleton
    WalletService wallets(Storage storage, LedgerPort ledger, Settlement settlement, Allocation allocation,
                          EventPublisher events, IdGenerator ids, Clock clock, CoreSettings settings) {
        return new WalletService(storage, ledger, settlement, allocation, events, ids, clock, settings);
    }

    @Provides
    @Singleton
    PaymentService payments(Storage storage, LedgerPort ledger, Spending spending, Settlement settlement,
                            IdempotencyKeys idempotency, EventPublisher events, IdGenerator ids, Clock clock,
                            CoreSettings settings) {
        return new PaymentService(storage, ledger, spending, settlement, idempotency, events, ids, clock, settings);
    }

    @Provides
    @Singleton
    IdempotencyKeys idempotency(Storage storage, Clock clock) {
        return new IdempotencyKeys(storage, clock);
    }

    @Provides
    @Singleton
    EscrowService escrows(Storage storage, LedgerPort ledger, Spending spending, Settlement settlement,
                          EventPublisher events, IdGenerator ids, Clock clock) {
        return new EscrowService(storage, ledger, spending, settlement, events, ids, clock);
    }

    @Provides
    @Singleton
    ApiKeyService apiKeys(Storage storage, IdGenerator ids, Clock clock, ApiKeyCache cache) {
        return new ApiKeyService(storage, ids, clock, cache);
    }

    /** Keeps nothing until the server follows the keys' changes ({@code ApiKeyChanges}); operator commands never do. */
    @Provides
    @Singleton
    ApiKeyCache apiKeyCache() {
        return new ApiKeyCache();
    }

    @Provides
    @Singleton
    ReceiverGuard receiverGuard() {
        return new ResolvingReceiverGuard(configuration.getWebhooks().allowPrivateReceivers());
    }

    @Provides
    @Singleton
    WebhookService webhooks(Storage storage, ReceiverGuard receivers, EventPublisher events, IdGenerator ids,
                            Clock clock) {
        return new WebhookService(storage, receivers, events, ids, clock);
    }

    @Provides
    @Singleton
    WebhookDispatcher dispatcher(Storage storage, ReceiverGuard receivers, Clock clock) {
        return new WebhookDispatcher(storage, new HttpWebhookTransport(
                ReceiverTls.of(configuration.getWebhooks().acceptSelfSignedReceivers()), new ObjectMapper()),
                receivers, clock);
    }

    @Provides
    @Singleton
    ExportService exports(Storage storage, EventPublisher events, IdGenerator ids, Clock clock) {
        return new ExportService(storage, events, new LocalExportFiles(dataDirectory().resolve("exports")),
                List.of(new CsvExportWriter(), new JsonExportWriter(ApiJson.configure(Jackson.newObjectMapper()))),
                ids, clock);
    }

    @Provides
    @Singleton
    Reconciliation reconciliation(Storage storage, LedgerPort ledger, Clock clock) {
        return new Reconciliation(storage, ledger, clock, Reconciliation.DEFAULT_STUCK_AFTER);
    }

    private Path dataDirectory() {
        return Path.of(configuration.getDataDirectory());
    }
}
