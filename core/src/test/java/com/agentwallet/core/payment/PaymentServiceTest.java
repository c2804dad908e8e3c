package com.agentwallet.core.payment;

import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.FieldUpdate;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.Decision;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.Outbox;
import com.agentwallet.core.testing.PaymentRequest;
import com.agentwallet.core.testing.RulesBuilder;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.wallet.AutoTopup;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;
import com.agentwallet.core.wallet.WalletUpdate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import static com.agentwallet.core.testing.PatchBuilder.patch;
import static com.agentwallet.core.testing.PaymentRequest.paymentFrom;
import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

class PaymentServiceTest {
    private static final String PAYEE = Addresses.external("payee");
    private static final String OTHER_PAYEE = Addresses.external("other-payee");
    private static final Duration CO_SIGN_WINDOW = Duration.ofHours(72);

    private final CoreFixture core = new CoreFixture();
    private final Scenario given = new Scenario(core);
    private final Outbox outbox = new Outbox(core);
    private final TestCoSigner operator = new TestCoSigner(11);
    private OrgId org;

    @BeforeEach
    void anOrganisation() {
        org = given.organisation("10000.00");
    }

    @Test
    void aPaymentWithinPolicyIsConfirmedDebitedAndAnnouncedAsPendingThenCompleted() {
        FundedWallet wallet = walletUnder(rules().maxPerTx("100"), "500");

        PaymentResult result = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("25.50").memo("lunch").build()).value();

        Transaction tx = result.transaction();
        assertThat(result.replayed()).isFalse();
        assertThat(tx.status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(tx.signature()).isPresent();
        assertThat(tx.memo()).contains("lunch");
        assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("474.50"));
        assertThat(core.ledger.balanceOf(PAYEE)).isEqualTo(25_500_000L);
        assertThat(outbox.typesAbout(tx.id()))
                .containsExactly(EventType.TRANSACTION_PENDING, EventType.TRANSACTION_COMPLETED);
        assertThat(outbox.single(EventType.TRANSACTION_COMPLETED, DomainEvent.TransactionCompleted.class).tx())
                .isEqualTo(tx);
    }

    @Test
    void aPaymentToAnotherWalletsAddressCreditsThatWalletEvenInAnotherOrganisation() {
        FundedWallet payer = walletUnder(rules(), "500");
        OrgId otherOrg = given.organisation("0.000001");
        FundedWallet payee = given.wallet(otherOrg, given.policy(otherOrg, rules().build()), "payee", "0");

        core.payments.pay(paymentFrom(payer).to(payee.wallet().address().base58()).amount("120").build()).value();

        assertThat(balanceOf(payer)).isEqualTo(Usdc.parse("380"));
        assertThat(balanceOf(payee)).isEqualTo(Usdc.parse("120"));
        assertThat(core.ledger.balanceOf(payee.wallet().address().base58())).isEqualTo(120_000_000L);
    }

    @Test
    void theTreasuryOnTheLedgerFollowsTheBooks() {
        FundedWallet wallet = walletUnder(rules(), "500");

        pay(wallet, PAYEE, "10");

        assertThat(core.ledger.balanceOf(FakeLedger.treasury(org))).isEqualTo(orgBalance().micros());
        assertThat(core.ledger.balanceOf(wallet.wallet().address().base58())).isEqualTo(balanceOf(wallet).micros());
    }

    @Test
    void eachNewPaymentIsCountedByItsOutcomeAndEachBlockByItsRuleButNoReplay() {
        FundedWallet wallet = walletUnder(rules().maxPerTx("10"), "500");
        PayCommand confirmed = paymentFrom(wallet).to(PAYEE).amount("5").idempotencyKey("confirmed").build();
        PayCommand blocked = paymentFrom(wallet).to(PAYEE).amount("20").idempotencyKey("blocked").build();

        core.payments.pay(confirmed).value();
        assertThat(core.payments.pay(blocked).isOk()).isFalse();
        assertThat(core.payments.pay(confirmed).value().replayed()).isTrue();
        assertThat(core.payments.pay(blocked).isOk()).isFalse();
        assertThat(core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("0.5").withoutSession().build()).isOk()).isFalse();

        assertThat(core.metrics.payments).containsExactly(TransactionStatus.CONFIRMED, TransactionStatus.BLOCKED,
                TransactionStatus.BLOCKED);
        assertThat(core.metrics.blocked).containsExactly(ViolationRule.MAX_PER_TX, ViolationRule.SESSION_TOKEN);
    }

    @Nested
    class PolicyViolations {
        @Test
        void aPaymentWithoutASessionTokenIsBlockedWithItsOwnErrorCode() {
            FundedWallet wallet = walletUnder(rules(), "100");

            Violation violation = assertBlocked(paymentFrom(wallet).to(PAYEE).amount("1").withoutSession(),
                    ViolationRule.SESSION_TOKEN);

            assertThat(violation.attempted()).isEqualTo("missing");
        }

        @Test
        void aSessionTokenOfAnotherWalletIsBlocked() {
            FundedWallet wallet = walletUnder(rules(), "100");
            FundedWallet other = given.wallet(org, given.policy(org, rules().build()), "other", "0");

            Violation violation = assertBlocked(paymentFrom(wallet).to(PAYEE).amount("1").session(other.session()),
                    ViolationRule.SESSION_TOKEN);

            assertThat(violation.attempted()).isEqualTo("scoped to another wallet");
        }

        @Test
        void anExpiredSessionTokenIsBlocked() {
            FundedWallet wallet = walletUnder(rules(), "100");
            core.clock.set(wallet.session().expiresAt());

            Violation violation = assertBlocked(paymentFrom(wallet).to(PAYEE).amount("1"),
                    ViolationRule.SESSION_TOKEN);

            assertThat(violation.attempted()).isEqualTo("expired");
        }

        @Test
        void anAmountOverMaxPerTxIsBlockedWhileTheCapItselfIsAllowed() {
            FundedWallet wallet = walletUnder(rules().maxPerTx("100"), "500");

            Violation violation = assertBlocked(paymentFrom(wallet).to(PAYEE).amount("100.000001"),
                    ViolationRule.MAX_PER_TX);
            Result<PaymentResult> atCap = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("100").build());

            assertThat(violation.limit()).isEqualTo("100.00");
            assertThat(violation.attempted()).isEqualTo("100.000001");
            assertThat(atCap.value().transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void aRecipientOutsideAllowedRecipientsIsBlocked() {
            FundedWallet wallet = walletUnder(rules().allowedRecipients(PAYEE), "500");

            assertBlocked(paymentFrom(wallet).to(OTHER_PAYEE).amount("1"), ViolationRule.ALLOWED_RECIPIENTS);
            assertThat(pay(wallet, PAYEE, "1").transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void aRecipientInABlockedCategoryIsBlocked() {
            FundedWallet wallet = walletUnder(rules().blockedCategories("gambling"), "500");
            core.policies.categorise(org, OTHER_PAYEE, "gambling");

            Violation violation = assertBlocked(paymentFrom(wallet).to(OTHER_PAYEE).amount("1"),
                    ViolationRule.BLOCKED_CATEGORY);

            assertThat(violation.limit()).isEqualTo("gambling");
        }

        @Test
        void aPaymentTakingTheRollingDayOverItsCapIsBlocked() {
            FundedWallet wallet = walletUnder(rules().maxPerDay("1000"), "2000");
            pay(wallet, PAYEE, "600");

            Violation violation = assertBlocked(paymentFrom(wallet).to(PAYEE).amount("400.01"),
                    ViolationRule.MAX_PER_DAY);

            assertThat(violation.attempted()).isEqualTo("1000.01");
            assertThat(pay(wallet, PAYEE, "400").transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void theDayCapRollsOver24HoursAfterASpend() {
            FundedWallet wallet = walletWithLongSession(rules().maxPerDay("1000"), "2000");
            pay(wallet, PAYEE, "1000");

            core.clock.advance(Duration.ofHours(24).minusMillis(1));
            assertBlocked(paymentFrom(wallet).to(PAYEE).amount("1"), ViolationRule.MAX_PER_DAY);
            core.clock.advance(Duration.ofMillis(1));

            assertThat(pay(wallet, PAYEE, "1000").transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void aPaymentTakingTheRollingMonthOverItsCapIsBlocked() {
            FundedWallet wallet = walletWithLongSession(rules().maxPerMonth("1000"), "2000");
            pay(wallet, PAYEE, "600");
            core.clock.advance(Duration.ofDays(2));

            Violation violation = assertBlocked(paymentFrom(wallet).to(PAYEE).amount("500"),
                    ViolationRule.MAX_PER_MONTH);

            assertThat(violation.attempted()).isEqualTo("1100.00");
        }

        @Test
        void aPaymentOverTheVelocityCapIsBlockedUntilAnHourPassed() {
            FundedWallet wallet = walletWithLongSession(rules().velocityCap(2), "100");
            pay(wallet, PAYEE, "1");
            pay(wallet, PAYEE, "1");

            Violation violation = assertBlocked(paymentFrom(wallet).to(PAYEE).amount("1"),
                    ViolationRule.VELOCITY_CAP);
            core.clock.advance(Duration.ofHours(1));

            assertThat(violation.attempted()).isEqualTo("3");
            assertThat(pay(wallet, PAYEE, "1").transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void aPaymentAfterThePolicyExpiredIsBlocked() {
            Instant expiry = core.clock.instant().plus(Duration.ofMinutes(30));
            FundedWallet wallet = walletUnder(rules().expiry(expiry), "100");
            core.clock.set(expiry);

            assertBlocked(paymentFrom(wallet).to(PAYEE).amount("1"), ViolationRule.POLICY_EXPIRED);
        }

        @Test
        void aFrozenWalletIsRefusedBeforeAnyPolicyCheckAndNothingIsRecorded() {
            FundedWallet wallet = walletUnder(rules(), "100");
            core.wallets.update(org, wallet.wallet().id(), new WalletUpdate(FieldUpdate.keep(), FieldUpdate.keep(),
                    Optional.of(WalletStatus.FROZEN))).value();
            int mark = outbox.mark();

            Result<PaymentResult> result = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("1").withoutSession().build());

            assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(transactionsOf(wallet)).noneMatch(tx -> tx.type() == TransactionType.PAYMENT);
            assertThat(outbox.since(mark)).isEmpty();
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("100"));
        }

        @Test
        void aPaymentToItsOwnWalletsAddressIsInvalidAndNothingIsRecordedOrMoved() {
            FundedWallet wallet = walletUnder(rules(), "100");
            PaymentRequest request = paymentFrom(wallet).to(wallet.wallet().address().base58()).amount("1")
                    .idempotencyKey("key-self");
            int mark = outbox.mark();

            Result<PaymentResult> result = core.payments.pay(request.build());
            Result<Decision> dryRun = core.payments.decide(request.build());

            assertThat(result.rejection()).isEqualTo(new Rejection.InvalidInput("to", "A wallet cannot pay its own address"));
            assertThat(dryRun.rejection()).isEqualTo(result.rejection());
            assertThat(transactionsOf(wallet)).noneMatch(tx -> tx.type() == TransactionType.PAYMENT);
            assertThat(outbox.since(mark)).isEmpty();
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("100"));
            assertThat(core.ledger.executed()).noneMatch(instruction -> instruction instanceof LedgerInstruction.Pay);
            assertThat(core.payments.pay(request.to(PAYEE).build()).value().transaction().status())
                    .as("the refusal did not use the idempotency key")
                    .isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void aPaymentOverTheBalanceIsRefusedAsInsufficientFundsAndNotRecorded() {
            FundedWallet wallet = walletUnder(rules(), "50");

            Result<PaymentResult> result = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("50.000001").build());

            assertThat(result.rejection()).isInstanceOf(Rejection.InsufficientFunds.class);
            assertThat(transactionsOf(wallet)).noneMatch(tx -> tx.type() == TransactionType.PAYMENT);
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("50"));
        }
    }

    @Nested
    class Idempotency {
        @Test
        void theSameKeyAndBodyAnswerTheFirstPaymentWithoutASecondDebit() {
            FundedWallet wallet = walletUnder(rules(), "500");
            PaymentRequest request = paymentFrom(wallet).to(PAYEE).amount("40").idempotencyKey("key-1");

            PaymentResult first = core.payments.pay(request.build()).value();
            PaymentResult second = core.payments.pay(request.build()).value();

            assertThat(second.replayed()).isTrue();
            assertThat(second.transaction().id()).isEqualTo(first.transaction().id());
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("460"));
            assertThat(paysExecutedFor(first.transaction().id())).isEqualTo(1);
        }

        @Test
        void theSameKeyWithADifferentBodyIsAConflictAndMovesNothing() {
            FundedWallet wallet = walletUnder(rules(), "500");
            core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("40").idempotencyKey("key-1").build()).value();

            Result<PaymentResult> conflicting = core.payments.pay(
                    paymentFrom(wallet).to(PAYEE).amount("41").idempotencyKey("key-1").build());

            assertThat(conflicting.rejection()).isInstanceOf(Rejection.IdempotencyConflict.class);
            assertThat(conflicting.rejection()).isInstanceOf(Rejection.IdempotencyConflict.class);
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("460"));
        }

        @Test
        void aReplayOfABlockedPaymentAnswersTheSameViolationWithoutRecordingAgain() {
            FundedWallet wallet = walletUnder(rules().maxPerTx("10"), "500");
            PaymentRequest request = paymentFrom(wallet).to(PAYEE).amount("11").idempotencyKey("key-1");

            Rejection first = core.payments.pay(request.build()).rejection();
            Rejection replay = core.payments.pay(request.build()).rejection();

            assertThat(replay).isEqualTo(first);
            assertThat(((Rejection.PolicyViolated) replay).violation().rule()).isEqualTo(ViolationRule.MAX_PER_TX);
            assertThat(transactionsOf(wallet)).filteredOn(tx -> tx.status() == TransactionStatus.BLOCKED).hasSize(1);
            assertThat(outbox.ofType(EventType.TRANSACTION_BLOCKED)).hasSize(1);
        }

        @Test
        void aKeyRefusedForInsufficientFundsIsEvaluatedAfreshOnRetry() {
            FundedWallet wallet = walletUnder(rules(), "30");
            PaymentRequest request = paymentFrom(wallet).to(PAYEE).amount("40").idempotencyKey("key-1");
            Rejection first = core.payments.pay(request.build()).rejection();
            core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("20"), RequestKey.none()).value();

            PaymentResult retry = core.payments.pay(request.build()).value();

            assertThat(first).isInstanceOf(Rejection.InsufficientFunds.class);
            assertThat(retry.replayed()).isFalse();
            assertThat(retry.transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("10"));
        }

        @Test
        void keysAreScopedToTheOrganisation() {
            FundedWallet wallet = walletUnder(rules(), "500");
            OrgId otherOrg = given.organisation("500");
            FundedWallet foreign = given.wallet(otherOrg, given.policy(otherOrg, rules().build()), "foreign", "500");

            PaymentResult mine = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("40").idempotencyKey("shared").build()).value();
            PaymentResult theirs = core.payments.pay(paymentFrom(foreign).to(PAYEE).amount("41").idempotencyKey("shared").build()).value();

            assertThat(theirs.replayed()).isFalse();
            assertThat(theirs.transaction().id()).isNotEqualTo(mine.transaction().id());
            assertThat(balanceOf(foreign)).isEqualTo(Usdc.parse("459"));
        }

        @Test
        void aReplayOfAPaymentLeftPendingFinishesItAndAnswersTheFirstAnswer() {
            FundedWallet wallet = walletUnder(rules(), "500");
            PaymentRequest request = paymentFrom(wallet).to(PAYEE).amount("40").idempotencyKey("key-1");
            core.ledger.leaveUnansweredWhen(i -> i instanceof LedgerInstruction.Pay);
            PaymentResult first = core.payments.pay(request.build()).value();
            core.ledger.behaveNormally();

            PaymentResult replay = core.payments.pay(request.build()).value();

            assertThat(first.transaction().status()).isEqualTo(TransactionStatus.PENDING);
            assertThat(replay.replayed()).isTrue();
            assertThat(replay.transaction()).as("the first answer stays").isEqualTo(first.transaction());
            assertThat(core.payments.get(org, first.transaction().id()).value().status())
                    .isEqualTo(TransactionStatus.CONFIRMED);
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("460"));
        }

        @Test
        void theKeyIsStillHeldJustBefore24Hours() {
            FundedWallet wallet = walletWithLongSession(rules(), "500");
            PaymentRequest request = paymentFrom(wallet).to(PAYEE).amount("40").idempotencyKey("key-1");
            TxId first = core.payments.pay(request.build()).value().transaction().id();
            core.clock.advance(Duration.ofHours(24).minusMillis(1));

            PaymentResult replay = core.payments.pay(request.build()).value();

            assertThat(replay.replayed()).isTrue();
            assertThat(replay.transaction().id()).isEqualTo(first);
        }

        @Test
        void theKeyExpiresAfter24HoursAndThenMakesANewPayment() {
            FundedWallet wallet = walletWithLongSession(rules(), "500");
            PaymentRequest request = paymentFrom(wallet).to(PAYEE).amount("40").idempotencyKey("key-1");
            TxId first = core.payments.pay(request.build()).value().transaction().id();
            core.clock.advance(Duration.ofHours(24));

            PaymentResult afterExpiry = core.payments.pay(request.build()).value();
            PaymentResult replayOfTheNewOne = core.payments.pay(request.build()).value();

            assertThat(afterExpiry.replayed()).isFalse();
            assertThat(afterExpiry.transaction().id()).isNotEqualTo(first);
            assertThat(replayOfTheNewOne.transaction()).isEqualTo(afterExpiry.transaction());
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("420"));
        }

        @Test
        void theAnswerToANewPaymentIsKeptWithItsOutcomeAndIsWhatAReplayAnswers() {
            FundedWallet wallet = walletUnder(rules(), "500");
            PaymentRequest request = paymentFrom(wallet).to(PAYEE).amount("40").idempotencyKey("key-1");

            PaymentResult first = core.payments.pay(request.build()).value();
            PaymentResult replay = core.payments.pay(request.build()).value();

            assertThat(first.replayed()).isFalse();
            assertThat(first.transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
            assertThat(keptAnswer("key-1")).contains(IdempotencyRecord.Answer.of(first.transaction()));
            assertThat(replay.replayed()).isTrue();
            assertThat(replay.transaction()).isEqualTo(first.transaction());
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("460"));
        }

        @Test
        void aReplayOfAPaymentWaitingForItsCoSignatureAnswersItWaitingAfterItWasSigned() {
            FundedWallet wallet = walletUnder(rules().coSignAtOrAbove("300", operator), "1000");
            PaymentRequest request = paymentFrom(wallet).to(PAYEE).amount("300").idempotencyKey("key-1");
            Transaction held = core.payments.pay(request.build()).value().transaction();
            core.payments.coSign(org, held.id(), operator.sign(held.coSign().orElseThrow().payload()),
                    TestCoSigner.APPROVER).value();

            PaymentResult replay = core.payments.pay(request.build()).value();

            assertThat(held.status()).isEqualTo(TransactionStatus.PENDING_CO_SIGN);
            assertThat(replay.replayed()).isTrue();
            assertThat(replay.transaction()).isEqualTo(held);
            assertThat(core.payments.get(org, held.id()).value().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void aKeyWhoseAnswerWasNeverKeptReplaysThePaymentAsItIsNow() {
            FundedWallet wallet = walletUnder(rules(), "500");
            Transaction paid = pay(wallet, PAYEE, "40").transaction();
            PaymentRequest request = paymentFrom(wallet).to(PAYEE).amount("40").idempotencyKey("key-1");
            core.storage.inTransaction(stores -> {
                stores.idempotency().insert(IdempotencyRecord.firstUse(org, "key-1", request.build().fingerprint(),
                        paid.id(), core.clock.instant()));
                return null;
            });

            PaymentResult replay = core.payments.pay(request.build()).value();

            assertThat(replay.replayed()).isTrue();
            assertThat(replay.transaction()).isEqualTo(core.payments.get(org, paid.id()).value());
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("460"));
        }

        @Test
        void withoutAKeyNothingIsKept() {
            FundedWallet wallet = walletUnder(rules(), "500");

            pay(wallet, PAYEE, "40");
            core.clock.advance(Duration.ofHours(24).plusMillis(1));

            assertThat(core.idempotency.forgetExpired(10)).isZero();
        }

        @Test
        void anAnswerDoesNotHideAConflict() {
            FundedWallet wallet = walletUnder(rules(), "500");
            core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("40").idempotencyKey("key-1").build()).value();

            assertThat(core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("41").idempotencyKey("key-1").build())
                    .rejection()).isInstanceOf(Rejection.IdempotencyConflict.class);
        }

        @Test
        void aKeyWhoseRequestWasRefusedUnrecordedIsEvaluatedAfresh() {
            FundedWallet wallet = walletUnder(rules(), "30");
            PaymentRequest request = paymentFrom(wallet).to(PAYEE).amount("40").idempotencyKey("key-1");
            assertThat(core.payments.pay(request.build()).rejection()).isInstanceOf(Rejection.InsufficientFunds.class);

            core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("20"), RequestKey.none()).value();
            PaymentResult retry = core.payments.pay(request.build()).value();

            assertThat(retry.replayed()).isFalse();
            assertThat(retry.transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void aReplayOfABlockedPaymentAnswersTheViolationAgain() {
            FundedWallet wallet = walletUnder(rules().maxPerTx("10"), "500");
            PaymentRequest request = paymentFrom(wallet).to(PAYEE).amount("11").idempotencyKey("key-1");
            Rejection first = core.payments.pay(request.build()).rejection();

            assertThat(core.payments.pay(request.build()).rejection()).isEqualTo(first);
            assertThat(transactionsOf(wallet)).filteredOn(tx -> tx.status() == TransactionStatus.BLOCKED).hasSize(1);
        }

        @Test
        void theAnswerIsForgottenWithItsKeyAfter24Hours() {
            FundedWallet wallet = walletWithLongSession(rules(), "500");
            PaymentRequest request = paymentFrom(wallet).to(PAYEE).amount("40").idempotencyKey("key-1");
            core.payments.pay(request.build()).value();
            core.clock.advance(Duration.ofHours(24).plusMillis(1));

            int forgotten = core.idempotency.forgetExpired(10);

            assertThat(forgotten).isEqualTo(1);
            assertThat(keptAnswer("key-1")).isEmpty();
            assertThat(core.payments.pay(request.build()).value().replayed()).isFalse();
        }

        private Optional<IdempotencyRecord.Answer> keptAnswer(String key) {
            return core.storage.inTransaction(stores -> stores.idempotency().find(org, key))
                    .flatMap(IdempotencyRecord::answer);
        }
    }

    @Nested
    class DryRun {
        @Test
        void decidesWithoutRecordingMovingOrAnnouncingAnything() {
            FundedWallet wallet = walletUnder(rules().maxPerTx("100").coSignAtOrAbove("50", operator), "500");
            int mark = outbox.mark();
            Wallet before = reload(wallet);

            Decision allowed = core.payments.decide(paymentFrom(wallet).to(PAYEE).amount("10").build()).value();
            Decision coSign = core.payments.decide(paymentFrom(wallet).to(PAYEE).amount("50").build()).value();
            Decision blocked = core.payments.decide(paymentFrom(wallet).to(PAYEE).amount("101").build()).value();

            assertThat(allowed).isInstanceOf(Decision.Allowed.class);
            assertThat(coSign).isEqualTo(new Decision.NeedsCoSign(operator.publicKey()));
            assertThat(blocked).isInstanceOfSatisfying(Decision.Blocked.class,
                    b -> assertThat(b.violation().rule()).isEqualTo(ViolationRule.MAX_PER_TX));
            assertThat(reload(wallet)).isEqualTo(before);
            assertThat(transactionsOf(wallet)).noneMatch(tx -> tx.type() == TransactionType.PAYMENT);
            assertThat(outbox.since(mark)).isEmpty();
            assertThat(core.ledger.executed()).noneMatch(i -> i instanceof LedgerInstruction.Pay);
        }

        @Test
        void aDryRunDoesNotUseUpTheCaps() {
            FundedWallet wallet = walletUnder(rules().maxPerDay("100").velocityCap(1), "500");

            core.payments.decide(paymentFrom(wallet).to(PAYEE).amount("100").build()).value();

            assertThat(pay(wallet, PAYEE, "100").transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }
    }

    @Nested
    class CoSigning {
        @Test
        void aPaymentAtTheThresholdWaitsForItsCoSignatureWithTheBalanceHeld() {
            FundedWallet wallet = walletUnder(rules().coSignAtOrAbove("300", operator), "1000");
            Instant now = core.clock.instant();

            Transaction held = pay(wallet, PAYEE, "300").transaction();

            assertThat(held.status()).isEqualTo(TransactionStatus.PENDING_CO_SIGN);
            assertThat(held.policyTriggered()).isTrue();
            CoSign coSign = held.coSign().orElseThrow();
            assertThat(coSign.coSigner()).isEqualTo(operator.publicKey());
            assertThat(coSign.expiresAt()).isEqualTo(now.plus(CO_SIGN_WINDOW));
            assertThat(Base64.getDecoder().decode(coSign.payload())).isNotEmpty();
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("700"));
            assertThat(core.ledger.executed()).noneMatch(i -> i instanceof LedgerInstruction.Pay);
            assertThat(outbox.typesAbout(held.id())).containsExactly(EventType.TRANSACTION_CO_SIGN_REQUIRED);
        }

        @Test
        void aPaymentJustBelowTheThresholdGoesThroughAtOnce() {
            FundedWallet wallet = walletUnder(rules().coSignAtOrAbove("300", operator), "1000");

            assertThat(pay(wallet, PAYEE, "299.999999").transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void theHeldAmountCountsTowardTheDayCap() {
            FundedWallet wallet = walletUnder(rules().maxPerDay("1000").coSignAtOrAbove("300", operator), "2000");
            pay(wallet, PAYEE, "800");

            Violation violation = assertBlocked(paymentFrom(wallet).to(PAYEE).amount("200.01"),
                    ViolationRule.MAX_PER_DAY);

            assertThat(violation.attempted()).isEqualTo("1000.01");
        }

        @Test
        void theRightCoSignatureSendsThePaymentWithItToTheLedger() {
            FundedWallet wallet = walletUnder(rules().coSignAtOrAbove("300", operator), "1000");
            Transaction held = pay(wallet, PAYEE, "300").transaction();
            String signature = operator.sign(held.coSign().orElseThrow().payload());

            Transaction signed = core.payments.coSign(org, held.id(), signature, TestCoSigner.APPROVER).value();

            assertThat(signed.status()).isEqualTo(TransactionStatus.CONFIRMED);
            assertThat(signed.coSign().orElseThrow().signature()).contains(signature);
            assertThat(core.ledger.executed()).filteredOn(i -> i instanceof LedgerInstruction.Pay)
                    .singleElement()
                    .satisfies(i -> assertThat(((LedgerInstruction.Pay) i).coSignature()).contains(signature));
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("700"));
            assertThat(core.ledger.balanceOf(PAYEE)).isEqualTo(300_000_000L);
            assertThat(outbox.typesAbout(held.id())).containsExactly(EventType.TRANSACTION_CO_SIGN_REQUIRED,
                    EventType.TRANSACTION_PENDING, EventType.TRANSACTION_COMPLETED);
        }

        @Test
        void aSignatureByAnotherKeyIsAValidationErrorAndChangesNothing() {
            FundedWallet wallet = walletUnder(rules().coSignAtOrAbove("300", operator), "1000");
            Transaction held = pay(wallet, PAYEE, "300").transaction();
            String impostor = new TestCoSigner(99).sign(held.coSign().orElseThrow().payload());
            int mark = outbox.mark();

            Result<Transaction> result = core.payments.coSign(org, held.id(), impostor, TestCoSigner.APPROVER);

            assertThat(result.rejection()).isInstanceOf(Rejection.InvalidInput.class);
            assertThat(core.payments.get(org, held.id()).value()).isEqualTo(held);
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("700"));
            assertThat(outbox.since(mark)).isEmpty();
            assertThat(core.ledger.executed()).noneMatch(i -> i instanceof LedgerInstruction.Pay);
        }

        @Test
        void aSignatureOfAnotherPayloadIsAValidationError() {
            FundedWallet wallet = walletUnder(rules().coSignAtOrAbove("300", operator), "1000");
            Transaction first = pay(wallet, PAYEE, "300").transaction();
            Transaction second = pay(wallet, PAYEE, "301").transaction();

            Result<Transaction> result = core.payments.coSign(org, second.id(),
                    operator.sign(first.coSign().orElseThrow().payload()), TestCoSigner.APPROVER);

            assertThat(result.rejection()).isInstanceOf(Rejection.InvalidInput.class);
            assertThat(core.payments.get(org, second.id()).value().status()).isEqualTo(TransactionStatus.PENDING_CO_SIGN);
        }

        @Test
        void rejectingEndsThePaymentAndGivesBackTheBalanceAndTheCaps() {
            FundedWallet wallet = walletUnder(rules().maxPerDay("1000").coSignAtOrAbove("300", operator), "2000");
            Transaction held = pay(wallet, PAYEE, "800").transaction();

            Transaction rejected = core.payments.reject(org, held.id(), "not today", TestCoSigner.APPROVER).value();

            assertThat(rejected.status()).isEqualTo(TransactionStatus.REJECTED);
            assertThat(rejected.failureReason()).contains("not today");
            assertThat(core.ledger.abandonedCoSigns()).as("the ledger may free what the message set aside")
                    .containsExactly(held.id().value());
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("2000"));
            assertThat(outbox.typesAbout(held.id())).endsWith(EventType.TRANSACTION_REJECTED);
            assertThat(pay(wallet, PAYEE, "299").transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
            assertThat(pay(wallet, PAYEE, "701").transaction().status()).isEqualTo(TransactionStatus.PENDING_CO_SIGN);
        }

        @Test
        void aRejectedPaymentCanNoLongerBeCoSigned() {
            FundedWallet wallet = walletUnder(rules().coSignAtOrAbove("300", operator), "1000");
            Transaction held = pay(wallet, PAYEE, "300").transaction();
            core.payments.reject(org, held.id(), "no", TestCoSigner.APPROVER).value();

            Result<Transaction> late = core.payments.coSign(org, held.id(), operator.sign(held.coSign().orElseThrow().payload()), TestCoSigner.APPROVER);

            assertThat(late.rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("1000"));
        }

        @Test
        void anUnsignedPaymentExpiresAfter72HoursNotBeforeAndGivesBackItsHold() {
            FundedWallet wallet = walletWithLongSession(rules().maxPerMonth("1000").coSignAtOrAbove("300", operator), "2000");
            Transaction held = pay(wallet, PAYEE, "1000").transaction();

            core.clock.advance(CO_SIGN_WINDOW.minusMillis(1));
            int expiredEarly = core.payments.expireCoSigns(100);
            core.clock.advance(Duration.ofMillis(1));
            int expiredOnTime = core.payments.expireCoSigns(100);

            assertThat(expiredEarly).isZero();
            assertThat(expiredOnTime).isEqualTo(1);
            assertThat(core.payments.get(org, held.id()).value().status()).isEqualTo(TransactionStatus.EXPIRED);
            assertThat(core.ledger.abandonedCoSigns()).containsExactly(held.id().value());
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("2000"));
            assertThat(outbox.typesAbout(held.id())).endsWith(EventType.TRANSACTION_EXPIRED);
            assertThat(pay(wallet, PAYEE, "299").transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void aCoSignatureAfterTheWindowClosedIsRefused() {
            FundedWallet wallet = walletUnder(rules().coSignAtOrAbove("300", operator), "1000");
            Transaction held = pay(wallet, PAYEE, "300").transaction();
            core.clock.advance(CO_SIGN_WINDOW);

            Result<Transaction> late = core.payments.coSign(org, held.id(), operator.sign(held.coSign().orElseThrow().payload()), TestCoSigner.APPROVER);

            assertThat(late.rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(core.ledger.executed()).noneMatch(i -> i instanceof LedgerInstruction.Pay);
        }

        @Test
        void aCoSignatureForAFrozenWalletIsRefusedButTheOperatorCanStillReject() {
            FundedWallet wallet = walletUnder(rules().coSignAtOrAbove("300", operator), "1000");
            Transaction held = pay(wallet, PAYEE, "300").transaction();
            core.wallets.update(org, wallet.wallet().id(), new WalletUpdate(FieldUpdate.keep(), FieldUpdate.keep(),
                    Optional.of(WalletStatus.FROZEN))).value();

            Result<Transaction> signed = core.payments.coSign(org, held.id(), operator.sign(held.coSign().orElseThrow().payload()), TestCoSigner.APPROVER);
            Result<Transaction> rejected = core.payments.reject(org, held.id(), "frozen", TestCoSigner.APPROVER);

            assertThat(signed.rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(rejected.value().status()).isEqualTo(TransactionStatus.REJECTED);
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("1000"));
        }

        @Test
        void theCoSignerIsTheOneThePolicyNamedWhenThePaymentWasMade() {
            Policy policy = given.policy(org, rules().coSignAtOrAbove("300", operator).build());
            FundedWallet wallet = given.wallet(org, policy, "pinned", "1000");
            Transaction held = pay(wallet, PAYEE, "300").transaction();
            TestCoSigner successor = new TestCoSigner(12);
            core.policies.update(org, policy.id(), patch()
                    .coSignAtOrAbove("300", successor).build(), Scenario.ADMIN).value();
            String payload = held.coSign().orElseThrow().payload();

            Result<Transaction> bySuccessor = core.payments.coSign(org, held.id(), successor.sign(payload), TestCoSigner.APPROVER);
            Result<Transaction> byOriginal = core.payments.coSign(org, held.id(), operator.sign(payload), TestCoSigner.APPROVER);

            assertThat(bySuccessor.rejection()).isInstanceOf(Rejection.InvalidInput.class);
            assertThat(byOriginal.value().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void theCredentialThatMadeThePaymentCannotApproveIt() {
            FundedWallet wallet = walletUnder(rules().coSignAtOrAbove("300", operator), "1000");
            Actor maker = new Actor("key_maker");
            Transaction held = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("300").by(maker).build())
                    .value().transaction();
            String signature = operator.sign(held.coSign().orElseThrow().payload());

            Result<Transaction> byMaker = core.payments.coSign(org, held.id(), signature, maker);
            Transaction unchanged = core.payments.get(org, held.id()).value();
            Result<Transaction> byAnother = core.payments.coSign(org, held.id(), signature, TestCoSigner.APPROVER);

            assertThat(byMaker.rejection()).isInstanceOf(Rejection.SameCredential.class);
            assertThat(unchanged.status()).isEqualTo(TransactionStatus.PENDING_CO_SIGN);
            assertThat(byAnother.value().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void theCredentialThatMadeThePaymentCannotRejectIt() {
            FundedWallet wallet = walletUnder(rules().coSignAtOrAbove("300", operator), "1000");
            Actor maker = new Actor("key_maker");
            Transaction held = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("300").by(maker).build())
                    .value().transaction();

            Result<Transaction> byMaker = core.payments.reject(org, held.id(), "changed my mind", maker);
            Transaction unchanged = core.payments.get(org, held.id()).value();
            Result<Transaction> byAnother = core.payments.reject(org, held.id(), "no", TestCoSigner.APPROVER);

            assertThat(byMaker.rejection()).isInstanceOf(Rejection.SameCredential.class);
            assertThat(unchanged.status()).isEqualTo(TransactionStatus.PENDING_CO_SIGN);
            assertThat(byAnother.value().status()).isEqualTo(TransactionStatus.REJECTED);
        }

        @Test
        void coSignIntentBelowTheThresholdWaitsForTheCoSigner() {
            FundedWallet wallet = walletUnder(rules().coSigner(operator), "1000");

            Transaction held = core.payments.pay(paymentFrom(wallet).to(PAYEE).amount("5").withCoSignIntent().build())
                    .value().transaction();

            assertThat(held.status()).isEqualTo(TransactionStatus.PENDING_CO_SIGN);
        }

        @Test
        void coSignIntentUnderAPolicyWithoutCoSignerIsAValidationErrorAndRecordsNothing() {
            FundedWallet wallet = walletUnder(rules(), "1000");

            Result<PaymentResult> result = core.payments.pay(
                    paymentFrom(wallet).to(PAYEE).amount("5").withCoSignIntent().build());

            assertThat(result.rejection()).isInstanceOf(Rejection.InvalidInput.class);
            assertThat(transactionsOf(wallet)).noneMatch(tx -> tx.type() == TransactionType.PAYMENT);
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("1000"));
        }
    }

    @Nested
    class LedgerFaults {
        @Test
        void aPaymentTheLedgerRefusesFailsAndGivesBackTheBalanceAndTheCaps() {
            FundedWallet wallet = walletUnder(rules().maxPerDay("100").velocityCap(1), "500");
            core.ledger.rejectWhen(i -> i instanceof LedgerInstruction.Pay);

            Transaction failed = pay(wallet, PAYEE, "100").transaction();
            core.ledger.behaveNormally();

            assertThat(failed.status()).isEqualTo(TransactionStatus.FAILED);
            assertThat(failed.failureReason()).hasValueSatisfying(r -> assertThat(r).contains("fake_rejection"));
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("500"));
            assertThat(outbox.typesAbout(failed.id()))
                    .containsExactly(EventType.TRANSACTION_PENDING, EventType.TRANSACTION_FAILED);
            assertThat(pay(wallet, PAYEE, "100").transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void aPaymentWithoutAnAnswerStaysPendingWithTheBalanceHeldUntilRecovered() {
            FundedWallet wallet = walletUnder(rules(), "500");
            core.ledger.leaveUnansweredWhen(i -> i instanceof LedgerInstruction.Pay);

            Transaction pending = pay(wallet, PAYEE, "70").transaction();
            core.settlement.recover(Duration.ZERO, 100);

            assertThat(pending.status()).isEqualTo(TransactionStatus.PENDING);
            assertThat(core.payments.get(org, pending.id()).value().status()).isEqualTo(TransactionStatus.PENDING);
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("430"));
            assertThat(core.ledger.balanceOf(wallet.wallet().address().base58())).isEqualTo(500_000_000L);

            core.ledger.behaveNormally();
            core.settlement.recover(Duration.ZERO, 100);
            core.settlement.recover(Duration.ZERO, 100);

            assertThat(core.payments.get(org, pending.id()).value().status()).isEqualTo(TransactionStatus.CONFIRMED);
            assertThat(paysExecutedFor(pending.id())).isEqualTo(1);
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("430"));
            assertThat(core.ledger.balanceOf(PAYEE)).isEqualTo(70_000_000L);
            assertThat(outbox.typesAbout(pending.id()))
                    .containsExactly(EventType.TRANSACTION_PENDING, EventType.TRANSACTION_COMPLETED);
        }

        @Test
        void recoveryWaitsForTheGracePeriod() {
            FundedWallet wallet = walletUnder(rules(), "500");
            core.ledger.leaveUnansweredWhen(i -> i instanceof LedgerInstruction.Pay);
            Transaction pending = pay(wallet, PAYEE, "70").transaction();
            core.ledger.behaveNormally();

            int early = core.settlement.recover(Duration.ofMinutes(5), 100);
            core.clock.advance(Duration.ofMinutes(5));
            int due = core.settlement.recover(Duration.ofMinutes(5), 100);

            assertThat(early).isZero();
            assertThat(due).isEqualTo(1);
            assertThat(core.payments.get(org, pending.id()).value().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }
    }

    @Nested
    class AutoTopups {
        @Test
        void aDebitCrossingTheTriggerFiresBalanceLowAndFundsTheTopupFromTheOrganisation() {
            FundedWallet wallet = walletUnder(rules(), "150");
            setAutoTopup(wallet, true, "100", "500");
            Usdc orgBefore = orgBalance();

            pay(wallet, PAYEE, "60");

            DomainEvent.BalanceLow low = outbox.single(EventType.BALANCE_LOW, DomainEvent.BalanceLow.class);
            assertThat(low.wallet().id()).isEqualTo(wallet.wallet().id());
            assertThat(low.wallet().balance()).isEqualTo(Usdc.parse("90"));
            assertThat(low.threshold()).isEqualTo(Usdc.parse("100"));
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("590"));
            assertThat(orgBalance()).isEqualTo(orgBefore.minus(Usdc.parse("500")));
            assertThat(core.ledger.balanceOf(wallet.wallet().address().base58())).isEqualTo(590_000_000L);
        }

        @Test
        void aDebitThatStaysAboveTheTriggerDoesNothing() {
            FundedWallet wallet = walletUnder(rules(), "150");
            setAutoTopup(wallet, true, "100", "500");

            pay(wallet, PAYEE, "50");

            assertThat(outbox.ofType(EventType.BALANCE_LOW)).isEmpty();
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("100"));
        }

        @Test
        void aDisabledRuleOnlyWarns() {
            FundedWallet wallet = walletUnder(rules(), "150");
            setAutoTopup(wallet, false, "100", "500");

            pay(wallet, PAYEE, "60");

            assertThat(outbox.ofType(EventType.BALANCE_LOW)).hasSize(1);
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("90"));
        }

        @Test
        void anOrganisationThatCannotPayForTheTopupStillLetsThePaymentThrough() {
            FundedWallet wallet = walletUnder(rules(), "150");
            core.wallets.fund(org, given.wallet(org, given.policy(org, rules().build()), "sink", "0").wallet().id(),
                    orgBalance().minus(Usdc.parse("10")), RequestKey.none()).value();
            setAutoTopup(wallet, true, "100", "500");

            Transaction payment = pay(wallet, PAYEE, "60").transaction();

            assertThat(payment.status()).isEqualTo(TransactionStatus.CONFIRMED);
            assertThat(balanceOf(wallet)).isEqualTo(Usdc.parse("90"));
            assertThat(orgBalance()).isEqualTo(Usdc.parse("10"));
        }
    }

    /** Asserts the payment is refused by {@code rule}, recorded as blocked and announced, with nothing debited. */
    private Violation assertBlocked(PaymentRequest request, ViolationRule rule) {
        PayCommand command = request.build();
        Usdc balanceBefore = balanceOf(command.orgId(), command);
        long paysBefore = core.ledger.executed().stream().filter(i -> i instanceof LedgerInstruction.Pay).count();

        Result<PaymentResult> result = core.payments.pay(command);

        assertThat(result.isOk()).as("payment should be blocked by " + rule).isFalse();
        assertThat(result.rejection()).isInstanceOf(Rejection.PolicyViolated.class);
        Violation violation = ((Rejection.PolicyViolated) result.rejection()).violation();
        assertThat(violation.rule()).isEqualTo(rule);
        List<OutboxEvent> events = outbox.all();
        OutboxEvent announced = events.get(events.size() - 1);
        assertThat(announced.event().type()).isEqualTo(EventType.TRANSACTION_BLOCKED);
        Transaction recorded = core.payments.get(command.orgId(),
                ((DomainEvent.TransactionBlocked) announced.event()).tx().id()).value();
        assertThat(recorded.status()).isEqualTo(TransactionStatus.BLOCKED);
        assertThat(recorded.walletId()).isEqualTo(command.walletId());
        assertThat(recorded.violation()).contains(violation);
        assertThat(recorded.policyTriggered()).isTrue();
        assertThat(balanceOf(command.orgId(), command)).isEqualTo(balanceBefore);
        assertThat(core.ledger.executed().stream().filter(i -> i instanceof LedgerInstruction.Pay).count())
                .isEqualTo(paysBefore);
        return violation;
    }

    private Usdc balanceOf(OrgId orgId, PayCommand command) {
        return core.wallets.get(orgId, command.walletId()).value().balance();
    }

    private FundedWallet walletUnder(RulesBuilder rules, String funding) {
        Policy policy = given.policy(org, rules.build());
        return given.wallet(org, policy, "agent-" + core.storage.allWallets().size(), funding);
    }

    /** A wallet whose session token lives 30 days, for tests that move the clock by hours or days. */
    private FundedWallet walletWithLongSession(RulesBuilder rules, String funding) {
        FundedWallet wallet = walletUnder(rules, funding);
        SessionGrant session = core.wallets.rotateSession(org, wallet.wallet().id(), Optional.of(Duration.ofDays(30))).value();
        return new FundedWallet(wallet.wallet(), session);
    }

    private PaymentResult pay(FundedWallet wallet, String to, String amount) {
        return core.payments.pay(paymentFrom(wallet).to(to).amount(amount).build()).value();
    }

    private void setAutoTopup(FundedWallet wallet, boolean enabled, String triggerBelow, String topup) {
        core.wallets.setAutoTopup(org, wallet.wallet().id(),
                Optional.of(new AutoTopup(enabled, Usdc.parse(triggerBelow), Usdc.parse(topup)))).value();
    }

    private long paysExecutedFor(TxId txId) {
        return core.ledger.executed().stream()
                .filter(i -> i instanceof LedgerInstruction.Pay && i.operationId().equals(txId.value()))
                .count();
    }

    private List<Transaction> transactionsOf(FundedWallet wallet) {
        return core.payments.list(wallet.wallet().orgId(), TransactionStore.Query.ofWallet(wallet.wallet().id()),
                PageRequest.first(100)).data();
    }

    private Wallet reload(FundedWallet wallet) {
        return core.wallets.get(wallet.wallet().orgId(), wallet.wallet().id()).value();
    }

    private Usdc balanceOf(FundedWallet wallet) {
        return reload(wallet).balance();
    }

    private Usdc orgBalance() {
        return core.organisations.get(org).value().balance();
    }
}
