package com.agentwallet.core.alert;

import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.wallet.AutoTopup;
import com.agentwallet.core.webhook.Webhook;
import com.agentwallet.core.webhook.WebhookStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

class AlertFeedTest {
    private static final String PAYEE = "payee-agent";
    private static final TransactionStore.Query BLOCKED = new TransactionStore.Query(Optional.empty(),
            Optional.of(TransactionStatus.BLOCKED), Optional.empty(), Optional.empty(), Optional.empty());

    private final CoreFixture core = new CoreFixture();
    private final Scenario given = new Scenario(core);
    private final TestCoSigner operator = new TestCoSigner(11);
    private final AlertFeed feed = new AlertFeed(core.storage, core.clock);
    private OrgId org;

    @BeforeEach
    void anOrganisation() {
        org = given.organisation("10000");
    }

    @Test
    void anOrganisationWithNothingWrongHasNoAlerts() {
        FundedWallet wallet = given.wallet(org, given.policy(org, PolicyRules.NONE), "agent-1", "100");
        given.pay(wallet, PAYEE, "10").value();

        assertThat(feed.recent(org)).isEmpty();
    }

    @Test
    void mergesTheEventsTheDegradedWebhooksAndThePaymentsAwaitingCoSignNewestFirst() {
        Policy policy = given.policy(org, rules().maxPerTx("100").coSignAtOrAbove("50", operator).build());
        FundedWallet wallet = given.wallet(org, policy, "agent-1", "500");
        FundedWallet receiver = given.wallet(org, given.policy(org, PolicyRules.NONE), "agent-2", "0");
        core.wallets.setAutoTopup(org, wallet.wallet().id(),
                Optional.of(new AutoTopup(false, Usdc.parse("480"), Usdc.parse("100")))).value();

        given.pay(wallet, PAYEE, "150");
        Transaction blocked = core.payments.list(org, BLOCKED, PageRequest.firstDefault()).data().get(0);
        core.clock.advance(Duration.ofMinutes(1));
        given.pay(wallet, PAYEE, "30").value();
        core.clock.advance(Duration.ofMinutes(1));
        Transaction awaiting = given.pay(wallet, PAYEE, "60").value().transaction();
        core.clock.advance(Duration.ofMinutes(1));
        Webhook degraded = degradedWebhook();
        core.clock.advance(Duration.ofMinutes(1));
        Escrow disputed = disputedEscrow(wallet, receiver);

        List<Alert> alerts = feed.recent(org);

        assertThat(alerts).extracting(Alert::kind).containsExactly(AlertKind.ESCROW_DISPUTED,
                AlertKind.WEBHOOK_DEGRADED, AlertKind.CO_SIGN_AWAITED, AlertKind.BALANCE_LOW,
                AlertKind.TRANSACTION_BLOCKED);
        assertThat(alerts).extracting(Alert::subjectId).containsExactly(disputed.id().value(), degraded.id().value(),
                awaiting.id().value(), wallet.wallet().id().value(), blocked.id().value());
        assertThat(alerts).extracting(Alert::description).containsExactly(
                "Escrow of 20.00 USDC from wallet " + wallet.wallet().id().value() + " to " + disputed.receiver()
                        + " disputed: never delivered",
                "Webhook to https://hooks.example.com/in is degraded: its deliveries kept failing",
                "Payment of 60.00 USDC from wallet " + wallet.wallet().id().value() + " to " + PAYEE
                        + " awaits a co-signature",
                "Wallet agent-1 (" + wallet.wallet().id().value() + ") fell to 470.00 USDC, below 480.00 USDC",
                "Payment of 150.00 USDC from wallet " + wallet.wallet().id().value() + " to " + PAYEE
                        + " blocked by the rule max_per_tx");
        assertThat(alerts.get(1).at()).isEqualTo(degraded.updatedAt());
    }

    @Test
    void aPolicyExpiryIsAnAlertAboutThePolicy() {
        Policy policy = given.policy(org, rules().expiry(core.clock.instant().plus(Duration.ofHours(1))).build());
        given.wallet(org, policy, "agent-1", "100");
        core.clock.advance(Duration.ofHours(2));
        core.wallets.freezeExpired(100);

        assertThat(feed.recent(org)).singleElement().satisfies(alert -> {
            assertThat(alert.kind()).isEqualTo(AlertKind.POLICY_EXPIRED);
            assertThat(alert.subjectId()).isEqualTo(policy.id().value());
            assertThat(alert.description()).startsWith("Policy " + policy.id().value() + " of wallet agent-1 (")
                    .endsWith(") expired; the wallet is frozen");
        });
    }

    @Test
    void eventsOlderThanTheWindowAndOtherOrganisationsAlertsAreLeftOut() {
        FundedWallet old = given.wallet(org, given.policy(org, rules().maxPerTx("1").build()), "agent-1", "100");
        given.pay(old, PAYEE, "5");
        core.clock.advance(AlertFeed.WINDOW.plusSeconds(1));
        OrgId other = given.organisation("1000");
        FundedWallet theirs = given.wallet(other, given.policy(other, rules().maxPerTx("1").build()), "agent-2", "100");
        given.pay(theirs, PAYEE, "5");

        assertThat(feed.recent(org)).isEmpty();
        assertThat(feed.recent(other)).extracting(Alert::kind).containsExactly(AlertKind.TRANSACTION_BLOCKED);
    }

    private Webhook degradedWebhook() {
        Webhook webhook = core.webhooks.create(org, "https://hooks.example.com/in", List.of("*"), RequestKey.none())
                .value();
        core.webhooks.create(org, "https://hooks.example.com/fine", List.of("*"), RequestKey.none()).value();
        Webhook degraded = webhook.withStatus(WebhookStatus.DEGRADED, core.clock.instant());
        core.storage.inTransaction(stores -> {
            stores.webhooks().update(degraded);
            return degraded;
        });
        return degraded;
    }

    private Escrow disputedEscrow(FundedWallet sender, FundedWallet receiver) {
        Escrow escrow = core.escrows.lock(new LockEscrow(org, sender.wallet().id(), receiver.wallet().id().value(),
                Usdc.parse("20"),
                "summarise the report", 3600, Optional.empty(), Optional.of(sender.session())), RequestKey.none())
                .value();
        return core.escrows.dispute(new Requester.Agent(org, sender.wallet().id()), escrow.id(), "never delivered",
                Hashing.sha256Hex("evidence")).value();
    }
}
