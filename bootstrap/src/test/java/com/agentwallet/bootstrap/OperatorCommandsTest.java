package com.agentwallet.bootstrap;

import com.agentwallet.bootstrap.api.ApiServer;
import com.agentwallet.bootstrap.api.DemoOrg;
import com.agentwallet.bootstrap.api.MigratedCluster;
import com.agentwallet.core.CoreSettings;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.export.ExportService;
import com.agentwallet.core.export.ExportStatus;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.idempotency.RequestKeys;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.payment.IdempotencyKeys;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.CreatePolicy;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.port.EscrowStore;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.ScheduledRuns;
import com.agentwallet.core.reconcile.Reconciliation;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.user.SignedIn;
import com.agentwallet.core.user.UserService;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.CreatedWallet;
import com.agentwallet.core.wallet.WalletService;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.util.Modules;
import io.dropwizard.jackson.Jackson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The wiring on the embedded PostgreSQL (a copy of the {@link MigratedCluster}) and the simulator
 * ledger, as the server runs it: the reconcile command finds the books in agreement with the ledger,
 * and names a drift when money moved behind the books' back; the clockwork refunds a timed-out escrow
 * on its own, and deletes an export's file once kept for the configured retention.
 */
class OperatorCommandsTest {
    private static final String PAYEE = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";

    @TempDir
    Path data;
    private final MutableClock clock = MutableClock.atTestEpoch();
    private ServiceConfiguration configuration;
    private Injector injector;
    private Resources resources;

    @BeforeEach
    void wire() throws Exception {
        MigratedCluster.copyInto(data);
        ObjectMapper json = Jackson.newObjectMapper();
        configuration = json.readValue(json.writeValueAsString(Map.of(
                "dataDirectory", data.toString(),
                "coSignWindow", "1h",
                "exports", Map.of("retention", "2h"),
                "database", Map.of("maxConnections", 4),
                "ledger", Map.of("type", "sim", "settings", Map.of("seed", "5")))), ServiceConfiguration.class);
        injector = Guice.createInjector(Modules.override(new CoreModule(configuration, CoreModule.SYSTEM_CLOCK))
                .with(binder -> binder.bind(Clock.class).toInstance(clock)));
        resources = injector.getInstance(Resources.class);
    }

    @AfterEach
    void close() {
        resources.close();
    }

    @Test
    void reconcileReportsAgreementAndThenTheDriftOfMoneyMovedBehindTheBooks() {
        OrgId org = someActivity();
        ReconcileCommand command = new ReconcileCommand();
        command.reconcile(injector.getInstance(Reconciliation.class));

        LedgerOutcome behindTheBooks = injector.getInstance(LedgerPort.class)
                .submit(new LedgerInstruction.Deposit("outside", org, Usdc.parse("1.00")));

        assertThat(behindTheBooks).isInstanceOf(LedgerOutcome.Confirmed.class);
        assertThatThrownBy(() -> command.reconcile(injector.getInstance(Reconciliation.class)))
                .isInstanceOf(OperatorCommand.CommandFailed.class)
                .hasMessage("1 account(s) drifted from the ledger, 0 transaction(s) stuck in flight");
    }

    @Test
    void theCoSignWindowComesFromTheConfiguration() {
        assertThat(injector.getInstance(CoreSettings.class).coSignWindow()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void theClockworkRefundsATimedOutEscrowOnItsOwn() {
        OrgId org = someActivity();
        EscrowService escrows = injector.getInstance(EscrowService.class);
        Escrow escrow = escrows.list(Requester.of(org), EscrowStore.Query.ALL, PageRequest.firstDefault()).data().get(0);
        Clockwork clockwork = clockwork();

        clockwork.tick();
        assertThat(escrows.get(Requester.of(org), escrow.id()).value().status()).isEqualTo(EscrowStatus.LOCKED);
        clock.advance(Duration.ofSeconds(60));
        clockwork.tick();

        assertThat(escrows.get(Requester.of(org), escrow.id()).value().status()).isEqualTo(EscrowStatus.REFUNDED);
    }

    @Test
    void theClockworkDeletesAnExportFileKeptForTheConfiguredRetentionAndExpiresItsExport() {
        OrgId org = someActivity();
        ExportService exports = injector.getInstance(ExportService.class);
        ExportJob job = exports.request(org, ExportFormat.CSV, Optional.empty(), Optional.empty(), Optional.empty(),
                RequestKey.none()).value();
        assertThat(exports.generatePending(1)).isEqualTo(1);
        ExportJob ready = exports.get(org, job.id()).value();
        Path file = Path.of(ready.filePath().orElseThrow());
        assertThat(file).exists();
        assertThat(ready.expiresAt()).contains(ready.completedAt().orElseThrow().plus(Duration.ofHours(2)));
        Clockwork clockwork = clockwork();

        clock.advance(Duration.ofHours(2).minusMillis(1));
        clockwork.tick();
        assertThat(exports.get(org, job.id()).value().status()).isEqualTo(ExportStatus.READY);
        assertThat(file).exists();

        clock.advance(Duration.ofMillis(1));
        clockwork.tick();
        assertThat(exports.get(org, job.id()).value().status()).isEqualTo(ExportStatus.EXPIRED);
        assertThat(file).doesNotExist();
    }

    private Clockwork clockwork() {
        return new Clockwork(injector.getInstance(Settlement.class), injector.getInstance(EscrowService.class),
                injector.getInstance(PaymentService.class), injector.getInstance(IdempotencyKeys.class),
                injector.getInstance(RequestKeys.class), injector.getInstance(ApiKeyService.class),
                injector.getInstance(WalletService.class),
                injector.getInstance(ExportService.class), injector.getInstance(Reconciliation.class),
                injector.getInstance(ScheduledRuns.class), injector.getInstance(UserService.class),
                configuration.getClockwork(), configuration.getExports(),
                new Heartbeats(clock));
    }

    @Test
    void theDemoWritesAnOwnerAndAnOperatorPerOrganisationWhoSignInAndLaterStartsReuseTheFile() throws Exception {
        UserService users = injector.getInstance(UserService.class);
        DemoOrganisations demo = new DemoOrganisations(injector.getInstance(OrganisationService.class),
                injector.getInstance(ApiKeyService.class), users);

        Path file = demo.ensure(data, "https://localhost:8443");
        List<DemoOrg> orgs = ApiServer.readOrgs(file);
        JsonNode urls = new ObjectMapper().readTree(file.toFile());

        assertThat(Files.getPosixFilePermissions(file)).containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ,
                PosixFilePermission.OWNER_WRITE);
        assertThat(orgs).hasSize(2);
        assertThat(urls.path("base_url").asText()).isEqualTo("https://localhost:8443/v1");
        assertThat(urls.path("dashboard_url").asText()).isEqualTo("https://localhost:8443/dashboard/");
        assertThat(orgs.get(0).dashboardUsers()).extracting(DemoOrg.DashboardLogin::email, DemoOrg.DashboardLogin::role)
                .containsExactly(tuple("owner@demo-org-a.demo", Role.OWNER), tuple("operator@demo-org-a.demo", Role.OPERATOR));
        assertThat(orgs.get(1).dashboardUser(Role.OWNER).email()).isEqualTo("owner@demo-org-b.demo");
        for (DemoOrg org : orgs) {
            for (DemoOrg.DashboardLogin login : org.dashboardUsers()) {
                assertThat(login.password()).hasSizeGreaterThanOrEqualTo(UserService.MIN_PASSWORD_LENGTH);
                SignedIn signedIn = users.signIn(login.email(), login.password()).value();
                assertThat(signedIn.user().orgId().value()).isEqualTo(org.id());
                assertThat(signedIn.user().role()).isEqualTo(login.role());
            }
        }
        String written = Files.readString(file);
        assertThat(demo.ensure(data, "https://localhost:8443")).isEqualTo(file);
        assertThat(Files.readString(file)).isEqualTo(written);
    }

    /** An organisation with a funded wallet that paid once and locked an escrow timing out in 60 s. */
    private OrgId someActivity() {
        OrgId org = injector.getInstance(OrganisationService.class).create("Acme").id();
        injector.getInstance(OrganisationService.class).deposit(org, Usdc.parse("1000.00")).value();
        Policy policy = injector.getInstance(PolicyService.class)
                .create(new CreatePolicy(org, "open", PolicyRules.NONE, new Actor("key_test")), RequestKey.none()).value();
        WalletService wallets = injector.getInstance(WalletService.class);
        CreatedWallet wallet = wallets.create(new CreateWallet(org, "agent-1", "", policy.id(), List.of(),
                Optional.empty()), RequestKey.none()).value();
        wallets.fund(org, wallet.wallet().id(), Usdc.parse("100.00"), RequestKey.none()).value();
        PaymentResult paid = injector.getInstance(PaymentService.class).pay(new PayCommand(org, wallet.wallet().id(), PAYEE,
                Usdc.parse("10.00"), Optional.empty(), Optional.empty(), false, Optional.of(wallet.session()), Optional.empty())).value();
        assertThat(paid.transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        injector.getInstance(EscrowService.class).lock(new LockEscrow(org, wallet.wallet().id(), PAYEE,
                Usdc.parse("5.00"), "task", 60, Optional.empty(), Optional.of(wallet.session())), RequestKey.none()).value();
        return org;
    }
}
