package com.agentwallet.core.wallet;

import com.agentwallet.core.common.FieldUpdate;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.port.LedgerUnavailableException;
import com.agentwallet.core.port.WalletStore;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.Outbox;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.testing.TestCoSigner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static com.agentwallet.core.testing.PaymentRequest.paymentFrom;
import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WalletServiceTest {
    private static final String PAYEE = Addresses.external("payee");

    private final CoreFixture core = new CoreFixture();
    private final Scenario given = new Scenario(core);
    private final Outbox outbox = new Outbox(core);
    private OrgId org;
    private Policy policy;

    @BeforeEach
    void anOrganisationWithAnOpenPolicy() {
        org = given.organisation("1000.00");
        policy = given.policy(org, rules().build());
    }

    @Nested
    class Create {
        @Test
        void createsAnActiveEmptyWalletAtItsAgentsLedgerAddressAndAnnouncesIt() {
            CreatedWallet created = core.wallets.create(createCommand("agent-1", policy.id(), Optional.empty()), RequestKey.none()).value();

            Wallet wallet = created.wallet();
            assertThat(wallet.status()).isEqualTo(WalletStatus.ACTIVE);
            assertThat(wallet.balance()).isEqualTo(Usdc.ZERO);
            assertThat(wallet.address()).isEqualTo(core.ledger.walletAddress(org, "agent-1"));
            assertThat(outbox.single(EventType.WALLET_CREATED, DomainEvent.WalletCreated.class).wallet())
                    .isEqualTo(wallet);
            assertThat(core.ledger.executed()).anySatisfy(i ->
                    assertThat(i).isInstanceOf(LedgerInstruction.OpenWallet.class));
        }

        @Test
        void refusesAPolicyThatDoesNotExistAndCreatesNothing() {
            PolicyId unknown = new PolicyId("pol_" + "x".repeat(24));

            Result<CreatedWallet> result = core.wallets.create(createCommand("agent-1", unknown, Optional.empty()), RequestKey.none());

            assertThat(result.rejection()).isInstanceOf(Rejection.NotFound.class);
            assertThat(walletsOf(org)).isEmpty();
            assertThat(outbox.ofType(EventType.WALLET_CREATED)).isEmpty();
        }

        @Test
        void refusesAPolicyOfAnotherOrganisation() {
            OrgId otherOrg = given.organisation("10");
            Policy foreignPolicy = given.policy(otherOrg, rules().build());

            Result<CreatedWallet> result = core.wallets.create(createCommand("agent-1", foreignPolicy.id(), Optional.empty()), RequestKey.none());

            assertThat(result.rejection()).isInstanceOf(Rejection.NotFound.class);
        }

        @Test
        void refusesASecondWalletForTheSameAgentButAllowsTheAgentIdInAnotherOrganisation() {
            core.wallets.create(createCommand("agent-1", policy.id(), Optional.empty()), RequestKey.none()).value();

            Result<CreatedWallet> again = core.wallets.create(createCommand("agent-1", policy.id(), Optional.empty()), RequestKey.none());
            OrgId otherOrg = given.organisation("10");
            Policy otherPolicy = given.policy(otherOrg, rules().build());
            Result<CreatedWallet> elsewhere = core.wallets.create(new CreateWallet(otherOrg, "agent-1", "label",
                    otherPolicy.id(), List.of(), Optional.empty()), RequestKey.none());

            assertThat(again.rejection()).isInstanceOf(Rejection.AlreadyExists.class);
            assertThat(walletsOf(org)).hasSize(1);
            assertThat(elsewhere.isOk()).isTrue();
        }

        @Test
        void grantsAFirstSessionOfVersionZeroLivingOneHourByDefault() {
            Instant now = core.clock.instant();

            SessionGrant session = core.wallets.create(createCommand("agent-1", policy.id(), Optional.empty()), RequestKey.none())
                    .value().session();

            assertThat(session.version()).isZero();
            assertThat(session.expiresAt()).isEqualTo(now.plus(Duration.ofHours(1)));
        }

        @Test
        void acceptsASessionTtlOfExactlyFiveMinutes() {
            Instant now = core.clock.instant();

            SessionGrant session = core.wallets.create(createCommand("agent-1", policy.id(),
                    Optional.of(Duration.ofSeconds(300))), RequestKey.none()).value().session();

            assertThat(session.expiresAt()).isEqualTo(now.plusSeconds(300));
        }

        @Test
        void refusesASessionTtlUnderFiveMinutesBeforeCreatingAnything() {
            assertThatThrownBy(() -> core.wallets.create(createCommand("agent-1", policy.id(),
                    Optional.of(Duration.ofSeconds(299))), RequestKey.none()))
                    .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.param()).isEqualTo("ttl_seconds"));
            assertThat(walletsOf(org)).isEmpty();
        }

        @Test
        void aLedgerRefusingToOpenTheWalletFailsTheRequestAndLeavesNoWalletBehind() {
            core.ledger.rejectWhen(i -> i instanceof LedgerInstruction.OpenWallet);

            assertThatThrownBy(() -> core.wallets.create(createCommand("agent-1", policy.id(), Optional.empty()), RequestKey.none()))
                    .isInstanceOf(LedgerUnavailableException.class);

            assertThat(walletsOf(org)).isEmpty();
            assertThat(outbox.ofType(EventType.WALLET_CREATED)).isEmpty();
        }
    }

    @Nested
    class Update {
        @Test
        void changesTheLabelAndThePolicy() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "0");
            Policy stricter = given.policy(org, rules().maxPerTx("5").build());

            Wallet updated = core.wallets.update(org, wallet.wallet().id(), new WalletUpdate(FieldUpdate.set("renamed"),
                    FieldUpdate.set(stricter.id()), Optional.empty())).value();

            assertThat(updated.label()).isEqualTo("renamed");
            assertThat(updated.policyId()).isEqualTo(stricter.id());
            assertThat(reload(wallet)).isEqualTo(updated);
        }

        @Test
        void refusesAnUnknownPolicyAndKeepsTheWalletAsItWas() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "0");

            Result<Wallet> result = core.wallets.update(org, wallet.wallet().id(), new WalletUpdate(FieldUpdate.set("renamed"),
                    FieldUpdate.set(new PolicyId("pol_" + "y".repeat(24))), Optional.empty()));

            assertThat(result.rejection()).isInstanceOf(Rejection.NotFound.class);
            assertThat(reload(wallet).label()).isEqualTo("label");
            assertThat(reload(wallet).policyId()).isEqualTo(policy.id());
        }

        @Test
        void freezesAndUnfreezesWithAnEventForEach() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "0");

            Wallet frozen = setStatus(wallet, WalletStatus.FROZEN).value();
            Wallet active = setStatus(wallet, WalletStatus.ACTIVE).value();

            assertThat(frozen.status()).isEqualTo(WalletStatus.FROZEN);
            assertThat(active.status()).isEqualTo(WalletStatus.ACTIVE);
            assertThat(outbox.typesAbout(wallet.wallet().id()))
                    .containsSubsequence(EventType.WALLET_FROZEN, EventType.WALLET_UNFROZEN);
        }

        @Test
        void settingTheStatusTheWalletAlreadyHasChangesAndAnnouncesNothing() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "0");
            setStatus(wallet, WalletStatus.FROZEN).value();

            Wallet again = setStatus(wallet, WalletStatus.FROZEN).value();

            assertThat(again.status()).isEqualTo(WalletStatus.FROZEN);
            assertThat(outbox.ofType(EventType.WALLET_FROZEN)).hasSize(1);
        }

        @Test
        void refusesStatusArchivedInAnUpdate() {
            assertThatThrownBy(() -> new WalletUpdate(FieldUpdate.keep(), FieldUpdate.keep(),
                    Optional.of(WalletStatus.ARCHIVED)))
                    .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.param()).isEqualTo("status"));
        }

        @Test
        void refusesToChangeAnArchivedWallet() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "0");
            core.wallets.archive(org, wallet.wallet().id()).value();

            Result<Wallet> relabel = core.wallets.update(org, wallet.wallet().id(),
                    new WalletUpdate(FieldUpdate.set("again"), FieldUpdate.keep(), Optional.empty()));
            Result<Wallet> unfreeze = setStatus(wallet, WalletStatus.ACTIVE);

            assertThat(relabel.rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(unfreeze.rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(reload(wallet).status()).isEqualTo(WalletStatus.ARCHIVED);
        }
    }

    @Nested
    class Fund {
        @Test
        void movesOrganisationMoneyToTheWalletAndAnnouncesTheNewBalance() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "0");

            Wallet funded = core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("250"), RequestKey.none()).value();

            assertThat(funded.balance()).isEqualTo(Usdc.parse("250"));
            assertThat(orgBalance()).isEqualTo(Usdc.parse("750"));
            DomainEvent.WalletBalanceMoved announced = outbox.single(EventType.WALLET_FUNDED,
                    DomainEvent.WalletBalanceMoved.class);
            assertThat(announced.wallet()).isEqualTo(funded);
            assertThat(announced.tx().amount()).isEqualTo(Usdc.parse("250"));
            assertThat(core.ledger.balanceOf(wallet.wallet().address().base58())).isEqualTo(250_000_000L);
            assertThat(core.ledger.balanceOf(FakeLedger.treasury(org))).isEqualTo(750_000_000L);
        }

        @Test
        void refusesMoreThanTheOrganisationHoldsAndChangesNothing() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "100");

            Result<Wallet> result = core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("900.000001"), RequestKey.none());

            assertThat(result.rejection()).isInstanceOf(Rejection.InsufficientFunds.class);
            assertThat(orgBalance()).isEqualTo(Usdc.parse("900"));
            assertThat(reload(wallet).balance()).isEqualTo(Usdc.parse("100"));
            assertThat(outbox.ofType(EventType.WALLET_FUNDED)).hasSize(1);
        }

        @Test
        void aBatchFundsEveryWalletAndDebitsTheOrganisationOnce() {
            FundedWallet first = given.wallet(org, policy, "agent-1", "0");
            FundedWallet second = given.wallet(org, policy, "agent-2", "0");

            List<Wallet> funded = core.wallets.fundBatch(org, List.of(
                    new Funding(first.wallet().id(), Usdc.parse("100")),
                    new Funding(second.wallet().id(), Usdc.parse("300"))), RequestKey.none()).value();

            assertThat(funded).extracting(Wallet::id).containsExactly(first.wallet().id(), second.wallet().id());
            assertThat(funded).extracting(Wallet::balance).containsExactly(Usdc.parse("100"), Usdc.parse("300"));
            assertThat(orgBalance()).isEqualTo(Usdc.parse("600"));
        }

        @Test
        void aBatchWithAMissingWalletFundsNoWallet() {
            FundedWallet first = given.wallet(org, policy, "agent-1", "10");
            WalletId missing = new WalletId("wal_" + "z".repeat(24));

            Result<List<Wallet>> result = core.wallets.fundBatch(org, List.of(
                    new Funding(first.wallet().id(), Usdc.parse("100")),
                    new Funding(missing, Usdc.parse("100"))), RequestKey.none());

            assertThat(result.rejection()).isInstanceOf(Rejection.NotFound.class);
            assertThat(reload(first).balance()).isEqualTo(Usdc.parse("10"));
            assertThat(orgBalance()).isEqualTo(Usdc.parse("990"));
        }

        @Test
        void aBatchTheOrganisationCannotPayForInFullFundsNoWallet() {
            FundedWallet first = given.wallet(org, policy, "agent-1", "0");
            FundedWallet second = given.wallet(org, policy, "agent-2", "0");

            Result<List<Wallet>> result = core.wallets.fundBatch(org, List.of(
                    new Funding(first.wallet().id(), Usdc.parse("600")),
                    new Funding(second.wallet().id(), Usdc.parse("400.01"))), RequestKey.none());

            assertThat(result.rejection()).isInstanceOf(Rejection.InsufficientFunds.class);
            assertThat(reload(first).balance()).isEqualTo(Usdc.ZERO);
            assertThat(reload(second).balance()).isEqualTo(Usdc.ZERO);
            assertThat(orgBalance()).isEqualTo(Usdc.parse("1000"));
            assertThat(core.ledger.balanceOf(FakeLedger.treasury(org))).isEqualTo(1_000_000_000L);
        }

        @Test
        void aBatchNamingAWalletTwiceIsInvalid() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "0");

            assertThatThrownBy(() -> core.wallets.fundBatch(org, List.of(
                    new Funding(wallet.wallet().id(), Usdc.parse("1")),
                    new Funding(wallet.wallet().id(), Usdc.parse("2"))), RequestKey.none()))
                    .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.param()).isEqualTo("wallet_id"));
            assertThat(orgBalance()).isEqualTo(Usdc.parse("1000"));
        }
    }

    @Nested
    class Withdraw {
        @Test
        void returnsAnAmountToTheOrganisation() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "300");

            Wallet after = core.wallets.withdraw(org, wallet.wallet().id(), Optional.of(Usdc.parse("120.5")), RequestKey.none()).value();

            assertThat(after.balance()).isEqualTo(Usdc.parse("179.5"));
            assertThat(orgBalance()).isEqualTo(Usdc.parse("820.5"));
            DomainEvent.WalletBalanceMoved announced = outbox.single(EventType.WALLET_WITHDRAWN,
                    DomainEvent.WalletBalanceMoved.class);
            assertThat(announced.wallet()).isEqualTo(after);
            assertThat(announced.tx().amount()).isEqualTo(Usdc.parse("120.5"));
            assertThat(core.ledger.balanceOf(FakeLedger.treasury(org))).isEqualTo(820_500_000L);
        }

        @Test
        void withoutAnAmountReturnsTheWholeBalance() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "300");

            Wallet after = core.wallets.withdraw(org, wallet.wallet().id(), Optional.empty(), RequestKey.none()).value();

            assertThat(after.balance()).isEqualTo(Usdc.ZERO);
            assertThat(orgBalance()).isEqualTo(Usdc.parse("1000"));
        }

        @Test
        void refusesMoreThanTheWalletHolds() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "300");

            Result<Wallet> result = core.wallets.withdraw(org, wallet.wallet().id(), Optional.of(Usdc.parse("300.01")), RequestKey.none());

            assertThat(result.rejection()).isInstanceOf(Rejection.InsufficientFunds.class);
            assertThat(reload(wallet).balance()).isEqualTo(Usdc.parse("300"));
            assertThat(orgBalance()).isEqualTo(Usdc.parse("700"));
        }
    }

    @Nested
    class Archive {
        @Test
        void returnsTheBalanceToTheOrganisationAndEndsTheWallet() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "400");

            Wallet archived = core.wallets.archive(org, wallet.wallet().id()).value();

            assertThat(archived.status()).isEqualTo(WalletStatus.ARCHIVED);
            assertThat(archived.balance()).isEqualTo(Usdc.ZERO);
            assertThat(orgBalance()).isEqualTo(Usdc.parse("1000"));
            assertThat(outbox.typesAbout(wallet.wallet().id())).contains(EventType.WALLET_ARCHIVED);
            assertThat(core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("1"), RequestKey.none()).rejection())
                    .isInstanceOf(Rejection.InvalidState.class);
        }

        @Test
        void isRefusedWhileAnEscrowOfTheWalletIsLocked() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "400");
            core.escrows.lock(new LockEscrow(org, wallet.wallet().id(), PAYEE, Usdc.parse("50"), "a task", 600,
                    Optional.empty(), Optional.of(wallet.session())), RequestKey.none()).value();

            Result<Wallet> result = core.wallets.archive(org, wallet.wallet().id());

            assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(reload(wallet).status()).isEqualTo(WalletStatus.ACTIVE);
            assertThat(reload(wallet).balance()).isEqualTo(Usdc.parse("350"));
        }

        @Test
        void isAllowedOnceTheEscrowWasRefunded() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "400");
            core.escrows.lock(new LockEscrow(org, wallet.wallet().id(), PAYEE, Usdc.parse("50"), "a task", 600,
                    Optional.empty(), Optional.of(wallet.session())), RequestKey.none()).value();
            core.clock.advance(Duration.ofSeconds(600));
            core.escrows.refundTimedOut(10);

            Wallet archived = core.wallets.archive(org, wallet.wallet().id()).value();

            assertThat(archived.status()).isEqualTo(WalletStatus.ARCHIVED);
            assertThat(orgBalance()).isEqualTo(Usdc.parse("1000"));
        }

        @Test
        void isRefusedWhileAPaymentOfTheWalletWaitsForItsCoSignature() {
            TestCoSigner operator = new TestCoSigner(7);
            Policy coSigned = given.policy(org, rules().coSignAtOrAbove("100", operator).build());
            FundedWallet wallet = given.wallet(org, coSigned, "agent-1", "400");
            PaymentResult held = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("150").build()).value();
            assertThat(held.transaction().status()).isEqualTo(TransactionStatus.PENDING_CO_SIGN);

            Result<Wallet> result = core.wallets.archive(org, wallet.wallet().id());

            assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(reload(wallet).status()).isEqualTo(WalletStatus.ACTIVE);
            assertThat(reload(wallet).balance()).isEqualTo(Usdc.parse("250"));
        }
    }

    @Nested
    class Sessions {
        @Test
        void rotationRevokesTheOldTokenAtOnceAndTheNewOneWorks() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "100");

            SessionGrant rotated = core.wallets.rotateSession(org, wallet.wallet().id(), Optional.empty()).value();
            Result<PaymentResult> withOldToken = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("10").build());
            Result<PaymentResult> withNewToken = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("10")
                    .session(rotated).build());

            assertThat(rotated.version()).isEqualTo(1);
            assertThat(withOldToken.rejection()).isInstanceOfSatisfying(Rejection.PolicyViolated.class, v -> {
                assertThat(v.violation().rule()).isEqualTo(ViolationRule.SESSION_TOKEN);
                assertThat(v.violation().attempted()).isEqualTo("revoked");
            });
            assertThat(withNewToken.value().transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
            assertThat(reload(wallet).balance()).isEqualTo(Usdc.parse("90"));
        }

        @Test
        void rotationRefusesATtlUnderFiveMinutes() {
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "0");

            assertThatThrownBy(() -> core.wallets.rotateSession(org, wallet.wallet().id(), Optional.of(Duration.ofSeconds(60))))
                    .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.param()).isEqualTo("ttl_seconds"));
            assertThat(reload(wallet).sessionVersion()).isZero();
        }
    }

    @Nested
    class PolicyExpiry {
        @Test
        void freezesActiveWalletsOnlyOnceTheirPolicyExpired() {
            Instant expiry = core.clock.instant().plus(Duration.ofDays(1));
            Policy expiring = given.policy(org, rules().expiry(expiry).build());
            FundedWallet expiringWallet = given.wallet(org, expiring, "agent-1", "0");
            FundedWallet lastingWallet = given.wallet(org, policy, "agent-2", "0");

            core.clock.set(expiry.minusMillis(1));
            int frozenEarly = core.wallets.freezeExpired(100);
            core.clock.set(expiry);
            int frozenAtExpiry = core.wallets.freezeExpired(100);

            assertThat(frozenEarly).isZero();
            assertThat(frozenAtExpiry).isEqualTo(1);
            assertThat(reload(expiringWallet).status()).isEqualTo(WalletStatus.FROZEN);
            assertThat(reload(lastingWallet).status()).isEqualTo(WalletStatus.ACTIVE);
            DomainEvent.PolicyExpired announced = outbox.single(EventType.POLICY_EXPIRED,
                    DomainEvent.PolicyExpired.class);
            assertThat(announced.wallet()).isEqualTo(reload(expiringWallet));
            assertThat(announced.wallet().policyId()).isEqualTo(expiring.id());
            assertThat(announced.expiry()).isEqualTo(expiry);
        }

        @Test
        void doesNotFreezeAgainOrAnnounceTwice() {
            Instant expiry = core.clock.instant().plus(Duration.ofHours(2));
            Policy expiring = given.policy(org, rules().expiry(expiry).build());
            given.wallet(org, expiring, "agent-1", "0");
            core.clock.set(expiry.plusSeconds(1));

            core.wallets.freezeExpired(100);
            int second = core.wallets.freezeExpired(100);

            assertThat(second).isZero();
            assertThat(outbox.ofType(EventType.POLICY_EXPIRED)).hasSize(1);
        }
    }

    private CreateWallet createCommand(String agentId, PolicyId policyId, Optional<Duration> ttl) {
        return new CreateWallet(org, agentId, "label", policyId, List.of(), ttl);
    }

    private Result<Wallet> setStatus(FundedWallet wallet, WalletStatus status) {
        return core.wallets.update(org, wallet.wallet().id(),
                new WalletUpdate(FieldUpdate.keep(), FieldUpdate.keep(), Optional.of(status)));
    }

    private Wallet reload(FundedWallet wallet) {
        return core.wallets.get(wallet.wallet().orgId(), wallet.wallet().id()).value();
    }

    private Usdc orgBalance() {
        return core.organisations.get(org).value().balance();
    }

    private List<Wallet> walletsOf(OrgId orgId) {
        return core.wallets.list(orgId, WalletStore.Query.ALL, PageRequest.first(100)).data();
    }
}
