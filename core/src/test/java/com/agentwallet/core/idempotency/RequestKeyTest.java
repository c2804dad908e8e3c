package com.agentwallet.core.idempotency;

import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.CreatePolicy;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.CreatedWallet;
import com.agentwallet.core.wallet.Funding;
import com.agentwallet.core.wallet.Wallet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestKeyTest {
    private final CoreFixture core = new CoreFixture();
    private final Scenario given = new Scenario(core);
    private OrgId org;
    private Policy policy;

    @BeforeEach
    void anOrganisationWithAPolicy() {
        org = given.organisation("1000.00");
        policy = given.policy(org, rules().build());
    }

    @Test
    void aFundingRetriedWithItsKeyAllocatesOnceAndSaysItWasAReplay() {
        FundedWallet wallet = given.wallet(org, policy, "agent-1", "0");
        RequestKey first = key("fund-1", "fp");
        RequestKey retry = key("fund-1", "fp");

        Wallet funded = core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("25.00"), first).value();
        Wallet replayed = core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("25.00"), retry).value();

        assertThat(first.replayed()).isFalse();
        assertThat(retry.replayed()).isTrue();
        assertThat(funded.balance()).isEqualTo(Usdc.parse("25.00"));
        assertThat(replayed.balance()).isEqualTo(Usdc.parse("25.00"));
        assertThat(core.organisations.get(org).value().balance()).isEqualTo(Usdc.parse("975.00"));
    }

    @Test
    void theSameKeyWithAnotherRequestIsAConflictAndChangesNothing() {
        FundedWallet wallet = given.wallet(org, policy, "agent-1", "0");
        core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("25.00"), key("fund-1", "fp-25")).value();

        Result<Wallet> other = core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("30.00"), key("fund-1", "fp-30"));

        assertThat(other.rejection()).isEqualTo(new Rejection.IdempotencyConflict("fund-1"));
        assertThat(core.wallets.get(org, wallet.wallet().id()).value().balance()).isEqualTo(Usdc.parse("25.00"));
    }

    @Test
    void aRefusedRequestReleasesItsKeySoThatItsRetryRunsAgain() {
        FundedWallet wallet = given.wallet(org, policy, "agent-1", "0");

        Result<Wallet> tooMuch = core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("5000.00"), key("fund-1", "fp"));
        core.organisations.deposit(org, Usdc.parse("5000.00")).value();
        RequestKey retry = key("fund-1", "fp");
        Wallet funded = core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("5000.00"), retry).value();

        assertThat(tooMuch.isOk()).isFalse();
        assertThat(retry.replayed()).isFalse();
        assertThat(funded.balance()).isEqualTo(Usdc.parse("5000.00"));
    }

    @Test
    void aKeyPastItsRetentionMakesAnewAndTheRetentionJobForgetsOldKeys() {
        FundedWallet wallet = given.wallet(org, policy, "agent-1", "0");
        core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("10.00"), key("fund-1", "fp")).value();
        core.clock.advance(Duration.ofHours(24));

        RequestKey late = key("fund-1", "fp");
        Wallet funded = core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("10.00"), late).value();
        core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("1.00"), key("fund-2", "fp")).value();
        core.clock.advance(Duration.ofHours(24).plusSeconds(1));

        assertThat(late.replayed()).isFalse();
        assertThat(funded.balance()).isEqualTo(Usdc.parse("20.00"));
        assertThat(new RequestKeys(core.storage, core.clock).forgetExpired(10)).isEqualTo(2);
    }

    @Test
    void aWalletCreationReplayAnswersTheSameWalletAndItsFirstToken() {
        CreateWallet command = new CreateWallet(org, "agent-9", "label", policy.id(), List.of(), Optional.empty());
        CreatedWallet created = core.wallets.create(command, key("open-9", "fp")).value();
        RequestKey retry = key("open-9", "fp");

        CreatedWallet replayed = core.wallets.create(command, retry).value();

        assertThat(retry.replayed()).isTrue();
        assertThat(replayed).isEqualTo(created);
    }

    @Test
    void aBatchEscrowPolicyWebhookAndExportReplayTheirFirstAnswer() {
        FundedWallet a = given.wallet(org, policy, "agent-a", "0");
        FundedWallet b = given.wallet(org, policy, "agent-b", "0");
        List<Funding> batch = List.of(new Funding(a.wallet().id(), Usdc.parse("40.00")),
                new Funding(b.wallet().id(), Usdc.parse("10.00")));
        core.wallets.fundBatch(org, batch, key("batch", "fp")).value();
        List<Wallet> batchAgain = core.wallets.fundBatch(org, batch, key("batch", "fp")).value();
        LockEscrow lock = new LockEscrow(org, a.wallet().id(), b.wallet().id().value(), Usdc.parse("5.00"), "task",
                600, Optional.empty(), Optional.of(a.session()));
        Escrow escrow = core.escrows.lock(lock, key("escrow", "fp")).value();
        Escrow escrowAgain = core.escrows.lock(lock, key("escrow", "fp")).value();
        CreatePolicy newPolicy = new CreatePolicy(org, "Second", PolicyRules.NONE, Scenario.ADMIN);
        Policy made = core.policies.create(newPolicy, key("policy", "fp")).value();
        Policy madeAgain = core.policies.create(newPolicy, key("policy", "fp")).value();

        assertThat(batchAgain).extracting(Wallet::balance).containsExactly(Usdc.parse("40.00"), Usdc.parse("10.00"));
        assertThat(escrowAgain.id()).isEqualTo(escrow.id());
        assertThat(core.wallets.get(org, a.wallet().id()).value().balance()).isEqualTo(Usdc.parse("35.00"));
        assertThat(madeAgain).isEqualTo(made);
        assertThat(core.policies.list(org, PageRequest.firstDefault()).data()).hasSize(2);
    }

    @Test
    void aKeyMustBeOneTo255PrintableCharacters() {
        assertThatThrownBy(() -> RequestKey.of(org, "", "fp", "Idempotency-Key"))
                .isInstanceOf(ValidationException.class).extracting("param").isEqualTo("Idempotency-Key");
        assertThatThrownBy(() -> RequestKey.of(org, "a b", "fp", "Idempotency-Key"))
                .isInstanceOf(ValidationException.class);
        assertThatThrownBy(() -> RequestKey.of(org, "k".repeat(256), "fp", "Idempotency-Key"))
                .isInstanceOf(ValidationException.class);
        assertThat(RequestKey.of(org, "k".repeat(255), "fp", "Idempotency-Key").replayed()).isFalse();
    }

    private RequestKey key(String key, String fingerprint) {
        return RequestKey.of(org, key, fingerprint, "Idempotency-Key");
    }
}
