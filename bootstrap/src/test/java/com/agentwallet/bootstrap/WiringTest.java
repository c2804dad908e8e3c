package com.agentwallet.bootstrap;

import com.agentwallet.adapters.http.Edge;
import com.agentwallet.adapters.http.ErrorDocsServlet;
import com.agentwallet.adapters.http.JsonErrorHandler;
import com.agentwallet.adapters.http.auth.BearerAuthentication;
import com.agentwallet.adapters.http.auth.RoleCheck;
import com.agentwallet.adapters.http.error.ErrorMapper;
import com.agentwallet.adapters.http.json.ApiJson;
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
import com.agentwallet.adapters.mcp.McpEndpoint;
import com.agentwallet.adapters.persistence.Persistence;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.export.ExportService;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.payment.Spending;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.port.ExportFiles;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.reconcile.Reconciliation;
import com.agentwallet.core.wallet.Allocation;
import com.agentwallet.core.wallet.WalletService;
import com.agentwallet.core.webhook.WebhookDispatcher;
import com.agentwallet.core.webhook.WebhookService;
import com.agentwallet.edge.error.ErrorDocs;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.inject.Binding;
import com.google.inject.ConfigurationException;
import com.google.inject.CreationException;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Scopes;
import io.dropwizard.jackson.Jackson;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The graph Guice builds from the shipped embedded configuration, as the server builds it: every
 * root the server asks for is made, every object of ours is bound with its scope and is one
 * instance however often it is asked for (two {@link Settlement}s would not share their locks).
 */
class WiringTest {
    @TempDir
    Path data;
    private ServiceConfiguration configuration;

    @BeforeEach
    void readTheEmbeddedConfiguration() throws Exception {
        configuration = embedded(data, Optional.empty());
    }

    /** {@code config/embedded.yml} on {@code data}, with {@code exports.directory} if given. */
    private static ServiceConfiguration embedded(Path data, Optional<Path> exports) throws Exception {
        ObjectNode embedded = (ObjectNode) new ObjectMapper(new YAMLFactory())
                .readTree(Path.of("..", "config", "embedded.yml").toFile());
        embedded.put("dataDirectory", data.toString());
        exports.ifPresent(folder -> ((ObjectNode) embedded.get("exports")).put("directory", folder.toString()));
        return Jackson.newObjectMapper().treeToValue(embedded, ServiceConfiguration.class);
    }

    /** Writes an empty export through the module's {@link ExportFiles}; answers where it landed. */
    private String writtenExport() {
        try (ExportFiles.Output output = new CoreModule(configuration, CoreModule.SYSTEM_CLOCK).exportFiles()
                .create(new RandomIdGenerator(new Random(3)).export(), ExportFormat.CSV)) {
            return output.finish();
        }
    }

    @Test
    void theServersRootsAreBuiltAndEachPartIsOneInstance() {
        Injector injector = Guice.createInjector(new CoreModule(configuration, CoreModule.SYSTEM_CLOCK),
                new ServerModule(configuration, ApiJson.configure(Jackson.newObjectMapper())));
        try (Resources resources = injector.getInstance(Resources.class)) {
            assertThat(injector.getInstance(ServerModule.V1_COMPONENTS)).extracting(Object::getClass).containsExactly(
                    Edge.class, RoleCheck.class, BearerAuthentication.class, QueryFree.class, SnakeCaseKeys.class,
                    ErrorMapper.class, WalletResource.class, PaymentResource.class, EscrowResource.class,
                    PolicyResource.class, RecipientResource.class, TransactionResource.class, WebhookResource.class,
                    OpenApiResource.class);
            assertThat(injector.getInstance(ServerModule.MANAGED)).extracting(Object::getClass).containsExactly(
                    Resources.class, ApiKeyChangesFollower.class, WebhookWorkers.class, Clockwork.class);
            assertThat(injector.getInstance(Persistence.class).dataSource().getConnectionTimeout())
                    .as("the pool waits for a connection as long as configured").isEqualTo(3000);
            assertThat(injector.getInstance(JsonErrorHandler.class)).isNotNull();
            assertThat(injector.getInstance(ErrorDocsServlet.class)).isNotNull();
            assertThat(injector.getInstance(ErrorDocs.class)).as("no errorDocsBaseUrl: the server's own page")
                    .isEqualTo(ErrorDocs.SERVED);
            assertThat(injector.getInstance(DemoOrganisations.class)).isNotNull();
            assertThat(injector.getInstance(McpEndpoint.class).tools()).extracting(McpSchema.Tool::name).containsExactly(
                    "get_wallet", "check_payment", "pay", "get_payment", "list_transactions", "create_escrow",
                    "complete_escrow", "dispute_escrow");

            List<Binding<?>> ours = injector.getBindings().values().stream()
                    .filter(binding -> binding.getKey().getTypeLiteral().getRawType().getName().startsWith("com.agentwallet."))
                    .toList();
            assertThat(ours).<Class<?>>extracting(binding -> binding.getKey().getTypeLiteral().getRawType()).contains(
                    Settlement.class, Spending.class, Allocation.class, PaymentService.class, WalletService.class,
                    EscrowService.class, OrganisationService.class, PolicyService.class, ApiKeyService.class,
                    WebhookService.class, WebhookDispatcher.class, ExportService.class, Reconciliation.class,
                    Persistence.class, LedgerPort.class, PaymentResource.class);
            assertThat(ours).allSatisfy(binding -> {
                assertThat(Scopes.isSingleton(binding)).as("%s is a singleton", binding.getKey()).isTrue();
                assertThat(injector.getInstance(binding.getKey())).isSameAs(injector.getInstance(binding.getKey()));
            });
        }
    }

    @Test
    void exportFilesAreWrittenUnderTheDataDirectoryOrInTheConfiguredFolderThatServersShare() throws Exception {
        assertThat(writtenExport()).startsWith(data.resolve("exports").toString());
        Path shared = data.resolveSibling(data.getFileName() + "-shared-exports");
        configuration = embedded(data, Optional.of(shared));
        assertThat(writtenExport()).startsWith(shared.toString()).endsWith(".csv");
    }

    @Test
    void theCommandsWorkWithTheCoreAloneWhichMakesNothingItDoesNotList() {
        Injector injector = Guice.createInjector(new CoreModule(configuration, CoreModule.SYSTEM_CLOCK));

        assertThat(List.of(Persistence.class, Reconciliation.class, OrganisationService.class, ApiKeyService.class,
                Resources.class)).allSatisfy(part -> assertThat(Scopes.isSingleton(injector.getBinding(part))).isTrue());
        assertThatThrownBy(() -> injector.getBinding(Clockwork.class)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("Explicit bindings are required");
    }

    @Test
    void aClassWithoutExactlyOnePublicConstructorIsAWiringErrorAtOnce() {
        assertThatThrownBy(() -> Guice.createInjector(new ConstructorModule() {
            @Override
            protected void configure() {
                singleton(StringBuilder.class);
            }
        })).isInstanceOf(CreationException.class)
                .hasMessageContaining("StringBuilder has 4 public constructors; binding by constructor needs exactly one");
    }
}
