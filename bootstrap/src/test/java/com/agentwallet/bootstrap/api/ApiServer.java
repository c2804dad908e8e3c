package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.solana.Localnet;
import com.agentwallet.adapters.solana.SolanaLedgerFactory;
import com.agentwallet.bootstrap.AgentWalletApplication;
import com.agentwallet.bootstrap.CoreModule;
import com.agentwallet.bootstrap.ServiceConfiguration;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.testing.TempFolders;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dropwizard.core.Application;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.jetty.ConnectorFactory;
import io.dropwizard.jetty.HttpConnectorFactory;
import io.dropwizard.jetty.HttpsConnectorFactory;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Server;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The server as users meet it, for end-to-end tests: the real wiring (embedded PostgreSQL, the
 * simulator ledger, HTTPS with the certificate made on first start, the demo organisations), on
 * ephemeral ports. One server per test JVM, shared by the test classes, each of which works in
 * wallets and policies of its own; {@link #start(ConfigOverride...)} makes a private one.
 */
public final class ApiServer {
    /** The fee payer's keypair file in the data directory of a server on Solana. */
    public static final String FEE_PAYER_FILE = "fee-payer.json";
    /** The server's log and its request log, in its data directory. */
    public static final String LOG_FILE = "server.log";
    public static final String REQUEST_LOG_FILE = "requests.log";
    /** The tests' configuration, a resource. */
    private static final String CONFIG = "api-test.yml";

    private static ApiServer shared;
    /** The localnets of the servers running in this JVM, where {@link #openUsdcAccounts} opens accounts. */
    private static final Set<Localnet> LOCALNETS = ConcurrentHashMap.newKeySet();

    private final DropwizardTestSupport<ServiceConfiguration> support;
    private final Path data;
    private final Optional<Localnet> localnet;
    private final List<DemoOrg> orgs;
    private final SSLContext tls;
    private final ApiClient client;

    private ApiServer(DropwizardTestSupport<ServiceConfiguration> support, Path data, Optional<Localnet> localnet,
                      List<ConfigOverride> overrides) {
        this.support = support;
        this.data = data;
        this.localnet = localnet;
        localnet.ifPresent(LOCALNETS::add);
        try {
            support.before();
        } catch (Exception e) {
            localnet.ifPresent(ApiServer::close);
            throw new IllegalStateException("the server did not start", e);
        } finally {
            // Overrides are JVM-wide system properties, read once while the configuration is built:
            // left in place they would reach every later configuration (another server, a command).
            overrides.forEach(ConfigOverride::removeFromSystemProperties);
        }
        this.orgs = readOrgs(data.resolve("demo-credentials.json"));
        this.tls = trusting(data.resolve("tls/localhost.p12"));
        this.client = new ApiClient(httpsBase(), httpBase(), tls);
    }

    /** The server the test classes share, on the test ledger ({@link #onTestLedger}); stopped when the JVM exits. */
    public static synchronized ApiServer shared() {
        if (shared == null) {
            shared = onTestLedger();
            TempFolders.stopAtExit(shared::stop);
        }
        return shared;
    }

    /**
     * A server of the caller's own on the test ledger: the simulator, or, with
     * {@code -Dagentwallet.test.ledger=solana}, the Solana adapter sending real transactions to the
     * wallet program on a localnet of its own, stopped with the server; stop it after.
     */
    public static ApiServer onTestLedger(ConfigOverride... overrides) {
        return onTestLedger(CoreModule.SYSTEM_CLOCK, overrides);
    }

    /** {@link #onTestLedger(ConfigOverride...)} on {@code clock}, which the test may move. */
    public static ApiServer onTestLedger(Clock clock, ConfigOverride... overrides) {
        String ledger = System.getProperty("agentwallet.test.ledger", "sim");
        if (ledger.equals("sim")) {
            return start(clock, newDataDirectory(), overrides);
        }
        if (!ledger.equals(SolanaLedgerFactory.NAME)) {
            throw new IllegalArgumentException("agentwallet.test.ledger is sim or solana, not " + ledger);
        }
        Path data = newDataDirectory();
        Localnet localnet = Localnet.start();
        List<ConfigOverride> all = new ArrayList<>(List.of(overrides));
        all.add(ConfigOverride.config("ledger.type", SolanaLedgerFactory.NAME));
        localnet.ledgerSettings(data.resolve(FEE_PAYER_FILE)).forEach((key, value) ->
                all.add(ConfigOverride.config("ledger.settings." + key, value)));
        return start(clock, data, Optional.of(localnet), all.toArray(ConfigOverride[]::new));
    }

    /**
     * Opens {@code owner}'s USDC token account on the localnet of every server running in this JVM, as a
     * recipient on Solana must hold one; nothing on the simulator, where every address holds one.
     */
    public static void openUsdcAccounts(String owner) {
        LOCALNETS.forEach(localnet -> localnet.openUsdcAccount(owner));
    }

    private static void close(Localnet localnet) {
        LOCALNETS.remove(localnet);
        try {
            localnet.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A server of the caller's own, with its configuration changed by {@code overrides}; stop it after. */
    public static ApiServer start(ConfigOverride... overrides) {
        return start(CoreModule.SYSTEM_CLOCK, newDataDirectory(), overrides);
    }

    /**
     * A server of the caller's own on {@code clock} (which the test may move) and the data directory
     * {@code data} (a new one from {@link #newDataDirectory()}, or the directory of a server that
     * stopped or was killed, to start it again); stop it after.
     */
    public static ApiServer start(Clock clock, Path data, ConfigOverride... overrides) {
        return start(clock, data, Optional.empty(), overrides);
    }

    /**
     * A server of the caller's own on the tests' configuration as {@code edit} changes its tree, for
     * what an override cannot say (a list where the file has none, such as a log layout's fields);
     * stop it after.
     */
    public static ApiServer startEdited(Consumer<ObjectNode> edit, ConfigOverride... overrides) {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        try {
            ObjectNode config = (ObjectNode) yaml.readTree(new File(ResourceHelpers.resourceFilePath(CONFIG)));
            edit.accept(config);
            Path edited = TempFolders.make("agent-wallet-config").resolve(CONFIG);
            yaml.writeValue(edited.toFile(), config);
            return start(CoreModule.SYSTEM_CLOCK, newDataDirectory(), Optional.empty(), edited.toString(), overrides);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ApiServer start(Clock clock, Path data, Optional<Localnet> localnet, ConfigOverride... overrides) {
        return start(clock, data, localnet, ResourceHelpers.resourceFilePath(CONFIG), overrides);
    }

    private static ApiServer start(Clock clock, Path data, Optional<Localnet> localnet, String config,
                                   ConfigOverride... overrides) {
        List<ConfigOverride> all = new ArrayList<>(List.of(overrides));
        all.add(ConfigOverride.config("dataDirectory", data.toString()));
        all.add(ConfigOverride.config("server.applicationConnectors[0].keyStorePath",
                data.resolve("tls/localhost.p12").toString()));
        all.add(ConfigOverride.config("logging.appenders[1].currentLogFilename", data.resolve(LOG_FILE).toString()));
        all.add(ConfigOverride.config("server.requestLog.appenders[0].currentLogFilename",
                data.resolve(REQUEST_LOG_FILE).toString()));
        return new ApiServer(new DropwizardTestSupport<>(AgentWalletApplication.class,
                config, all.toArray(ConfigOverride[]::new)) {
            @Override
            public Application<ServiceConfiguration> newApplication() {
                return new AgentWalletApplication(clock);
            }
        }, data, localnet, all);
    }

    /**
     * A data directory for a server of its own, removed when the tests' JVM exits: empty but for the
     * {@link MigratedCluster}, so that the server skips initdb and the migration.
     */
    public static Path newDataDirectory() {
        Path data = TempFolders.make("agent-wallet-api");
        MigratedCluster.copyInto(data);
        return data;
    }

    /** Stops the server, then its localnet if it has one, so that nothing in flight waits on a chain that is gone. */
    public void stop() {
        support.after();
        localnet.ifPresent(ApiServer::close);
    }

    public ApiClient client() {
        return client;
    }

    /** Whether the server's ledger is the Solana adapter on a localnet of its own. */
    public boolean onSolana() {
        return localnet.isPresent();
    }

    /**
     * A raw TLS connection to the HTTPS connector, verified against the server's own certificate like
     * {@link #client()}, for tests that must control the bytes and timing of a request.
     */
    public Socket openTlsSocket() throws IOException {
        return tls.getSocketFactory().createSocket("localhost", port(HttpsConnectorFactory.class));
    }

    /** The first demo organisation; {@link #otherOrg()} is the second. */
    public DemoOrg org() {
        return orgs.get(0);
    }

    public DemoOrg otherOrg() {
        return orgs.get(1);
    }

    public Path dataDirectory() {
        return data;
    }

    public ServiceConfiguration configuration() {
        return support.getConfiguration();
    }

    /** The HTTPS connector's root, for paths outside /v1 (the MCP endpoint, the error docs page). */
    public URI origin() {
        return URI.create("https://localhost:" + port(HttpsConnectorFactory.class));
    }

    /** The plain-HTTP connector's root. */
    public URI plainOrigin() {
        return URI.create("http://localhost:" + port(HttpConnectorFactory.class));
    }

    /** TLS that trusts exactly this server's certificate, as {@link #client()} does. */
    public SSLContext tls() {
        return tls;
    }

    private String httpsBase() {
        return "https://localhost:" + port(HttpsConnectorFactory.class) + "/v1";
    }

    private String httpBase() {
        return "http://localhost:" + port(HttpConnectorFactory.class) + "/v1";
    }

    /**
     * The admin connector's address (plain HTTP on 127.0.0.1): Dropwizard's {@code /healthcheck} and
     * the health module's {@code /health-check}. Jetty's connectors are the application's, then the admin's.
     */
    public String adminBase() {
        DefaultServerFactory factory = (DefaultServerFactory) support.getConfiguration().getServerFactory();
        Server server = support.getEnvironment().getApplicationContext().getServer();
        int admin = factory.getApplicationConnectors().size();
        return "http://127.0.0.1:" + ((NetworkConnector) server.getConnectors()[admin]).getLocalPort();
    }

    /** The bound port of the application connector of that kind (exactly that class, https before http). */
    private int port(Class<? extends ConnectorFactory> kind) {
        List<ConnectorFactory> factories = ((DefaultServerFactory) support.getConfiguration().getServerFactory())
                .getApplicationConnectors();
        Server server = support.getEnvironment().getApplicationContext().getServer();
        for (int i = 0; i < factories.size(); i++) {
            if (factories.get(i).getClass() == kind) {
                return ((NetworkConnector) server.getConnectors()[i]).getLocalPort();
            }
        }
        throw new IllegalStateException("no " + kind.getSimpleName() + " connector");
    }

    /** The demo organisations a server wrote to its credentials file on first start. */
    public static List<DemoOrg> readOrgs(Path credentials) {
        try {
            JsonNode root = new ObjectMapper().readTree(credentials.toFile());
            List<DemoOrg> orgs = new ArrayList<>();
            for (JsonNode org : root.get("organisations")) {
                JsonNode keys = org.get("keys");
                List<DemoOrg.DashboardLogin> users = new ArrayList<>();
                for (JsonNode user : org.get("dashboard_users")) {
                    users.add(new DemoOrg.DashboardLogin(user.get("email").asText(), user.get("password").asText(),
                            Role.fromWire(user.get("role").asText(), "role")));
                }
                orgs.add(new DemoOrg(org.get("id").asText(), keys.get("owner").asText(), keys.get("admin").asText(),
                        keys.get("operator").asText(), keys.get("viewer").asText(),
                        org.get("co_signer_secret_key").asText(), List.copyOf(users)));
            }
            return List.copyOf(orgs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Trusts exactly the server's own self-signed certificate, so TLS is verified for real. */
    static SSLContext trusting(Path keyStore) {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, "agent-wallet-test".toCharArray());
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust " + keyStore, e);
        }
    }

    /** A file a server wrote (its log, a key), whole. */
    public static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }
}
