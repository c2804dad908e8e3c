package com.agentwallet.core.escrow;

import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.common.FieldUpdate;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.ProgramError;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.port.EscrowStore;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.testing.Outbox;
import com.agentwallet.core.testing.RulesBuilder;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;
import com.agentwallet.core.wallet.WalletUpdate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import static com.agentwallet.core.testing.PaymentRequest.paymentFrom;
import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EscrowServiceTest {
    private static final String EXTERNAL_AGENT = Addresses.external("external-agent");
    private static final String PROOF = Hashing.sha256Hex("the finished work");
    private static final String OTHER_PROOF = Hashing.sha256Hex("something else");
    private static final String EVIDENCE = Hashing.sha256Hex("evidence");
    private static final long TIMEOUT_SECONDS = 3600;

    private final CoreFixture core = new CoreFixture();
    private final Scenario given = new Scenario(core);
    private final Outbox outbox = new Outbox(core);
    private OrgId org;
    private FundedWallet receiver;

    @BeforeEach
    void anOrganisationWithAReceivingWallet() {
        org = given.organisation("10000.00");
        receiver = given.wallet(org, given.policy(org, rules().build()), "receiver", "0");
    }

    /** Who may do what: each party by its side, agents by their wallet, everyone else told it does not exist. */
    @Nested
    class Parties {
        private FundedWallet sender;
        private FundedWallet foreign;
        private Escrow escrow;

        @BeforeEach
        void anEscrowToAWalletOfAnotherOrganisation() {
            sender = senderUnder(rules(), "1000");
            foreign = foreignWallet();
            escrow = lock(sender, foreign.wallet().id().value(), "100").value();
        }

        @Test
        void bothSidesReadItAndNobodyElse() {
            assertThat(core.escrows.get(senderAgent(), escrow.id()).value()).isEqualTo(escrow);
            assertThat(core.escrows.get(Requester.of(org), escrow.id()).value()).isEqualTo(escrow);
            assertThat(core.escrows.get(receiverAgent(), escrow.id()).value()).isEqualTo(escrow);
            assertThat(core.escrows.get(Requester.of(foreign.wallet().orgId()), escrow.id()).value()).isEqualTo(escrow);

            OrgId stranger = given.organisation("1");
            assertNotFound(core.escrows.get(Requester.of(stranger), escrow.id()));
            assertNotFound(core.escrows.get(agentOf(receiver), escrow.id()));
        }

        @Test
        void theReceiversAgentCompletesIt() {
            Escrow released = core.escrows.complete(receiverAgent(), escrow.id(), Proof.OUTPUT_HASH, PROOF).value();

            assertThat(released.status()).isEqualTo(EscrowStatus.RELEASED);
            assertThat(balanceOf(foreign)).isEqualTo(Usdc.parse("100"));
        }

        @Test
        void theReceivingOrganisationCompletesItButNeitherDisputesNorResolvesIt() {
            Requester receiving = Requester.of(foreign.wallet().orgId());

            assertForbidden(core.escrows.dispute(receiving, escrow.id(), "no", EVIDENCE), "admin");
            assertThat(reload(escrow).status()).isEqualTo(EscrowStatus.LOCKED);
            core.escrows.dispute(senderAgent(), escrow.id(), "late", EVIDENCE).value();
            assertForbidden(core.escrows.resolve(foreign.wallet().orgId(), escrow.id(),
                    EscrowCommand.Outcome.RELEASE), "operator");
            assertThat(reload(escrow).status()).isEqualTo(EscrowStatus.DISPUTED);
        }

        @Test
        void theReceivingOrganisationsKeyCompletesIt() {
            Requester receiving = Requester.of(foreign.wallet().orgId());

            assertThat(core.escrows.complete(receiving, escrow.id(), Proof.OUTPUT_HASH, PROOF).value().status())
                    .isEqualTo(EscrowStatus.RELEASED);
        }

        @Test
        void theSendersAgentDisputesItButCannotCompleteIt() {
            assertForbidden(core.escrows.complete(senderAgent(), escrow.id(), Proof.OUTPUT_HASH, PROOF), "admin");
            assertThat(reload(escrow).status()).isEqualTo(EscrowStatus.LOCKED);

            Escrow disputed = core.escrows.dispute(senderAgent(), escrow.id(), "wrong output", EVIDENCE).value();

            assertThat(disputed.status()).isEqualTo(EscrowStatus.DISPUTED);
        }

        @Test
        void theReceiversAgentCannotDisputeIt() {
            assertForbidden(core.escrows.dispute(receiverAgent(), escrow.id(), "no", EVIDENCE), "admin");

            assertThat(reload(escrow).status()).isEqualTo(EscrowStatus.LOCKED);
        }

        @Test
        void aReleasedEscrowCannotBeDisputed() {
            core.escrows.complete(receiverAgent(), escrow.id(), Proof.OUTPUT_HASH, PROOF).value();

            assertThat(core.escrows.dispute(senderAgent(), escrow.id(), "too late", EVIDENCE).rejection())
                    .isInstanceOf(Rejection.InvalidState.class);
        }

        @Test
        void afterTheDeadlineNeitherSideCompletesNorDisputes() {
            core.clock.advance(Duration.ofSeconds(TIMEOUT_SECONDS));

            assertThat(core.escrows.complete(receiverAgent(), escrow.id(), Proof.OUTPUT_HASH, PROOF).rejection())
                    .isInstanceOf(Rejection.InvalidState.class);
            assertThat(core.escrows.dispute(senderAgent(), escrow.id(), "late", EVIDENCE).rejection())
                    .isInstanceOf(Rejection.InvalidState.class);
            assertThat(reload(escrow).status()).isEqualTo(EscrowStatus.LOCKED);
        }

        @Test
        void eachPartyListsItsEscrows() {
            Escrow toAnAddress = lock(sender, EXTERNAL_AGENT, "5").value();

            assertThat(escrowsOf(senderAgent())).containsExactly(toAnAddress.id(), escrow.id());
            assertThat(escrowsOf(Requester.of(org))).containsExactly(toAnAddress.id(), escrow.id());
            assertThat(escrowsOf(receiverAgent())).containsExactly(escrow.id());
            assertThat(escrowsOf(Requester.of(foreign.wallet().orgId()))).containsExactly(escrow.id());
            assertThat(escrowsOf(agentOf(receiver))).isEmpty();
        }

        private Requester senderAgent() {
            return agentOf(sender);
        }

        private Requester receiverAgent() {
            return agentOf(foreign);
        }

        private List<EscrowId> escrowsOf(Requester party) {
            return core.escrows.list(party, EscrowStore.Query.ALL, PageRequest.first(10))
                    .data().stream().map(Escrow::id).toList();
        }
    }

    private static Requester agentOf(FundedWallet wallet) {
        return new Requester.Agent(wallet.wallet().orgId(), wallet.wallet().id());
    }

    private static void assertNotFound(Result<?> result) {
        assertThat(result.isOk()).isFalse();
        assertThat(result.rejection()).isInstanceOf(Rejection.NotFound.class);
    }

    private static void assertForbidden(Result<?> result, String requiredRole) {
        assertThat(result.isOk()).as("should be forbidden").isFalse();
        assertThat(result.rejection()).isInstanceOfSatisfying(Rejection.Forbidden.class,
                forbidden -> assertThat(forbidden.required().wireName()).isEqualTo(requiredRole));
    }

    @Nested
    class Lock {
        @Test
        void debitsTheSenderAndHoldsTheFundsInTheEscrowVault() {
            FundedWallet sender = senderUnder(rules(), "1000");
            Instant now = core.clock.instant();

            Escrow escrow = lock(sender, receiver.wallet().id().value(), "200").value();

            assertThat(escrow.status()).isEqualTo(EscrowStatus.LOCKED);
            assertThat(escrow.amount()).isEqualTo(Usdc.parse("200"));
            assertThat(escrow.timeoutAt()).isEqualTo(now.plusSeconds(TIMEOUT_SECONDS));
            assertThat(escrow.receiver()).isEqualTo(receiver.wallet().address().base58());
            assertThat(escrow.receiverWallet()).contains(receiver.wallet().id());
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("800"));
            assertThat(core.ledger.balanceOf(vaultOf(escrow))).isEqualTo(200_000_000L);
            assertThat(lockTransactionOf(escrow).status()).isEqualTo(TransactionStatus.CONFIRMED);
            assertThat(outbox.single(EventType.ESCROW_CREATED, DomainEvent.EscrowCreated.class).escrow())
                    .isEqualTo(escrow);
        }

        @Test
        void leavesTheTreasuryUntouched() {
            FundedWallet sender = senderUnder(rules(), "1000");
            Escrow escrow = lock(sender, EXTERNAL_AGENT, "100").value();
            complete(escrow, PROOF).value();

            assertThat(core.ledger.balanceOf(FakeLedger.treasury(org))).isEqualTo(9_000_000_000L);
        }

        @Test
        void acceptsAWalletIdOfAnotherOrganisationAsReceiver() {
            FundedWallet sender = senderUnder(rules(), "1000");
            FundedWallet foreign = foreignWallet();

            Escrow escrow = lock(sender, foreign.wallet().id().value(), "200").value();
            Escrow released = complete(escrow, PROOF).value();

            assertThat(escrow.receiverWallet()).contains(foreign.wallet().id());
            assertThat(released.status()).isEqualTo(EscrowStatus.RELEASED);
            assertThat(balanceOf(foreign)).isEqualTo(Usdc.parse("200"));
            assertThat(core.ledger.balanceOf(foreign.wallet().address().base58())).isEqualTo(200_000_000L);
        }

        @Test
        void refusesToPayTheWalletThatFundsItByIdOrByAddress() {
            FundedWallet sender = senderUnder(rules(), "1000");

            Result<Escrow> byId = lock(sender, sender.wallet().id().value(), "10");
            Result<Escrow> byAddress = lock(sender, sender.wallet().address().base58(), "10");

            assertThat(byId.rejection()).isInstanceOf(Rejection.InvalidInput.class);
            assertThat(byAddress.rejection()).isInstanceOf(Rejection.InvalidInput.class);
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("1000"));
            assertThat(core.storage.allEscrows()).isEmpty();
        }

        @Test
        void refusesAnUnknownReceivingWalletId() {
            FundedWallet sender = senderUnder(rules(), "1000");

            Result<Escrow> result = lock(sender, "wal_" + "q".repeat(24), "10");

            assertThat(result.rejection()).isInstanceOf(Rejection.NotFound.class);
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("1000"));
        }

        @Test
        void refusesAnUnknownSendingWallet() {
            Result<Escrow> result = core.escrows.lock(new LockEscrow(org, new WalletId("wal_" + "q".repeat(24)),
                    EXTERNAL_AGENT, Usdc.parse("1"), "task", TIMEOUT_SECONDS, Optional.empty(), Optional.empty()), RequestKey.none());

            assertThat(result.rejection()).isInstanceOf(Rejection.NotFound.class);
        }

        @Test
        void refusesAReceiverThatIsNeitherAWalletIdNorAnAddress() {
            FundedWallet sender = senderUnder(rules(), "1000");

            assertThatThrownBy(() -> lock(sender, "not-an-address", "10"))
                    .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.param()).isEqualTo("to_wallet"));
        }

        @Test
        void refusesAFrozenSenderBeforeAnyPolicyCheck() {
            FundedWallet sender = senderUnder(rules(), "1000");
            core.wallets.update(org, sender.wallet().id(), new WalletUpdate(FieldUpdate.keep(), FieldUpdate.keep(),
                    Optional.of(WalletStatus.FROZEN))).value();

            Result<Escrow> result = lock(sender, EXTERNAL_AGENT, "10");

            assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(transactionsOf(sender)).noneMatch(tx -> tx.type() == TransactionType.ESCROW_LOCK);
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("1000"));
        }

        @Test
        void runsThePolicyChecksAndRecordsABlockedLock() {
            FundedWallet sender = senderUnder(rules().maxPerTx("100"), "1000");

            Result<Escrow> result = lock(sender, EXTERNAL_AGENT, "100.01");

            assertViolation(result, ViolationRule.MAX_PER_TX);
            assertThat(core.storage.allEscrows()).isEmpty();
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("1000"));
            assertThat(transactionsOf(sender)).filteredOn(tx -> tx.type() == TransactionType.ESCROW_LOCK)
                    .singleElement().satisfies(tx -> {
                        assertThat(tx.status()).isEqualTo(TransactionStatus.BLOCKED);
                        assertThat(tx.recipient()).isEqualTo(EXTERNAL_AGENT);
                    });
            assertThat(outbox.ofType(EventType.TRANSACTION_BLOCKED)).hasSize(1);
        }

        @Test
        void needsAValidSessionToken() {
            FundedWallet sender = senderUnder(rules(), "1000");

            Result<Escrow> result = core.escrows.lock(new LockEscrow(org, sender.wallet().id(), EXTERNAL_AGENT,
                    Usdc.parse("1"), "task", TIMEOUT_SECONDS, Optional.empty(), Optional.empty()), RequestKey.none());

            assertViolation(result, ViolationRule.SESSION_TOKEN);
        }

        @Test
        void refusesAnAmountAtTheCoSignThresholdButNotJustBelow() {
            FundedWallet sender = senderUnder(rules().coSignAtOrAbove("500", new TestCoSigner(3)), "1000");

            Result<Escrow> atThreshold = lock(sender, EXTERNAL_AGENT, "500");
            Result<Escrow> below = lock(sender, EXTERNAL_AGENT, "499.999999");

            assertViolation(atThreshold, ViolationRule.REQUIRE_CO_SIGN);
            assertThat(below.value().status()).isEqualTo(EscrowStatus.LOCKED);
        }

        @Test
        void countsTowardTheSendersDayCap() {
            FundedWallet sender = senderUnder(rules().maxPerDay("300"), "1000");
            lock(sender, EXTERNAL_AGENT, "250").value();

            assertViolation(lock(sender, EXTERNAL_AGENT, "50.01"), ViolationRule.MAX_PER_DAY);
            assertThat(pay(sender, "50").isOk()).isTrue();
        }

        @Test
        void aLockTheLedgerRefusesIsRefundedAsLockFailedWithBalanceAndCapsBack() {
            FundedWallet sender = senderUnder(rules().maxPerDay("300"), "1000");
            core.ledger.rejectWhen(i -> i instanceof LedgerInstruction.EscrowLock);

            Escrow escrow = lock(sender, EXTERNAL_AGENT, "300").value();
            core.ledger.behaveNormally();

            assertThat(escrow.status()).isEqualTo(EscrowStatus.REFUNDED);
            assertThat(escrow.settleReason()).contains(EscrowMachine.REASON_LOCK_FAILED);
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("1000"));
            assertThat(core.ledger.balanceOf(vaultOf(escrow))).isZero();
            assertThat(lockTransactionOf(escrow).status()).isEqualTo(TransactionStatus.FAILED);
            assertThat(outbox.ofType(EventType.ESCROW_REFUNDED)).singleElement()
                    .satisfies(e -> assertThat(((DomainEvent.EscrowSettled) e.event()).escrow()).isEqualTo(escrow));
            assertThat(pay(sender, "300").isOk()).isTrue();
        }
    }

    @Nested
    class Completion {
        @Test
        void theExpectedProofReleasesTheFundsToTheReceiver() {
            FundedWallet sender = senderUnder(rules(), "1000");
            Escrow escrow = lockExpecting(sender, receiver.wallet().id().value(), "200", PROOF).value();

            Escrow released = complete(escrow, PROOF).value();

            assertThat(released.status()).isEqualTo(EscrowStatus.RELEASED);
            assertThat(released.proof()).contains(PROOF);
            assertThat(released.settleReason()).contains(EscrowMachine.REASON_PROOF);
            assertThat(balanceOf(receiver)).isEqualTo(Usdc.parse("200"));
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("800"));
            assertThat(core.ledger.balanceOf(vaultOf(escrow))).isZero();
            assertThat(core.ledger.balanceOf(receiver.wallet().address().base58())).isEqualTo(200_000_000L);
            assertThat(outbox.typesAbout(escrow.id()))
                    .containsExactly(EventType.ESCROW_CREATED, EventType.ESCROW_RELEASED);
        }

        @Test
        void withoutAnExpectedProofAnyProofReleasesToAnExternalAddress() {
            FundedWallet sender = senderUnder(rules(), "1000");
            Escrow escrow = lock(sender, EXTERNAL_AGENT, "200").value();

            Escrow released = complete(escrow, OTHER_PROOF).value();

            assertThat(released.status()).isEqualTo(EscrowStatus.RELEASED);
            assertThat(core.ledger.balanceOf(EXTERNAL_AGENT)).isEqualTo(200_000_000L);
        }

        @Test
        void aProofOtherThanTheExpectedOneIsAMismatchAndMovesNothing() {
            FundedWallet sender = senderUnder(rules(), "1000");
            Escrow escrow = lockExpecting(sender, receiver.wallet().id().value(), "200", PROOF).value();

            Result<Escrow> result = complete(escrow, OTHER_PROOF);

            assertThat(result.rejection()).isInstanceOf(Rejection.ProofMismatch.class);
            assertThat(result.rejection()).isInstanceOf(Rejection.ProofMismatch.class);
            assertThat(reload(escrow).status()).isEqualTo(EscrowStatus.LOCKED);
            assertThat(balanceOf(receiver)).isEqualTo(Usdc.ZERO);
            assertThat(core.ledger.balanceOf(vaultOf(escrow))).isEqualTo(200_000_000L);
        }

        @Test
        void aReleasedEscrowKeepsCountingTowardTheSendersCaps() {
            FundedWallet sender = senderUnder(rules().maxPerDay("300"), "1000");
            Escrow escrow = lock(sender, EXTERNAL_AGENT, "300").value();
            complete(escrow, PROOF).value();

            assertViolation(core.payments.pay(paymentFrom(sender).to(EXTERNAL_AGENT).amount("1").build()),
                    ViolationRule.MAX_PER_DAY);
        }

        @Test
        void aReleasedEscrowCannotBeCompletedAgain() {
            FundedWallet sender = senderUnder(rules(), "1000");
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "200").value();
            complete(escrow, PROOF).value();

            assertThat(complete(escrow, PROOF).rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(balanceOf(receiver)).isEqualTo(Usdc.parse("200"));
        }
    }

    @Nested
    class Disputes {
        @Test
        void aDisputeHoldsTheFundsUntilAnOperatorResolves() {
            FundedWallet sender = senderUnder(rules(), "1000");
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "200").value();

            Escrow disputed = core.escrows.dispute(Requester.of(org), escrow.id(), "work not delivered", EVIDENCE).value();

            assertThat(disputed.status()).isEqualTo(EscrowStatus.DISPUTED);
            assertThat(disputed.dispute()).hasValueSatisfying(d -> assertThat(d.reason()).isEqualTo("work not delivered"));
            assertThat(outbox.single(EventType.ESCROW_DISPUTED, DomainEvent.EscrowDisputed.class).escrow())
                    .isEqualTo(disputed);
            assertThat(complete(escrow, PROOF).rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(core.ledger.balanceOf(vaultOf(escrow))).isEqualTo(200_000_000L);
        }

        @Test
        void aDisputedEscrowDoesNotTimeOut() {
            FundedWallet sender = senderUnder(rules(), "1000");
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "200").value();
            core.escrows.dispute(Requester.of(org), escrow.id(), "late", EVIDENCE).value();
            core.clock.advance(Duration.ofSeconds(TIMEOUT_SECONDS * 2));

            int refunded = core.escrows.refundTimedOut(100);

            assertThat(refunded).isZero();
            assertThat(reload(escrow).status()).isEqualTo(EscrowStatus.DISPUTED);
        }

        @Test
        void resolvingWithReleasePaysTheReceiver() {
            FundedWallet sender = senderUnder(rules(), "1000");
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "200").value();
            core.escrows.dispute(Requester.of(org), escrow.id(), "late", EVIDENCE).value();

            Escrow resolved = core.escrows.resolve(org, escrow.id(), EscrowCommand.Outcome.RELEASE).value();

            assertThat(resolved.status()).isEqualTo(EscrowStatus.RELEASED);
            assertThat(resolved.settleReason()).contains(EscrowMachine.REASON_DISPUTE);
            assertThat(balanceOf(receiver)).isEqualTo(Usdc.parse("200"));
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("800"));
        }

        @Test
        void resolvingWithRefundPaysTheSenderBackAndFreesItsCaps() {
            FundedWallet sender = senderUnder(rules().maxPerDay("200"), "1000");
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "200").value();
            core.escrows.dispute(Requester.of(org), escrow.id(), "late", EVIDENCE).value();

            Escrow resolved = core.escrows.resolve(org, escrow.id(), EscrowCommand.Outcome.REFUND).value();

            assertThat(resolved.status()).isEqualTo(EscrowStatus.REFUNDED);
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("1000"));
            assertThat(balanceOf(receiver)).isEqualTo(Usdc.ZERO);
            assertThat(core.ledger.balanceOf(sender.wallet().address().base58())).isEqualTo(1_000_000_000L);
            assertThat(pay(sender, "200").isOk()).isTrue();
        }

        @Test
        void onlyADisputedEscrowCanBeResolved() {
            FundedWallet sender = senderUnder(rules(), "1000");
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "200").value();

            Result<Escrow> result = core.escrows.resolve(org, escrow.id(), EscrowCommand.Outcome.RELEASE);

            assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(balanceOf(receiver)).isEqualTo(Usdc.ZERO);
        }
    }

    @Nested
    class Timeouts {
        @Test
        void aDeadlineWithinASecondIsTheNextWholeSecondAsOnChain() {
            FundedWallet sender = senderUnder(rules(), "1000");
            core.clock.advance(Duration.ofMillis(250));
            Instant now = core.clock.instant();

            Escrow escrow = lock(sender, receiver.wallet().id().value(), "10").value();

            assertThat(escrow.timeoutAt()).isEqualTo(now.plusSeconds(TIMEOUT_SECONDS).plusMillis(750));
        }

        @Test
        void aLockedEscrowIsRefundedAtItsTimeoutNotBeforeAndLeavesTheDayCap() {
            FundedWallet sender = senderUnder(rules().maxPerDay("300"), "1000");
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "300").value();

            core.clock.advance(Duration.ofSeconds(TIMEOUT_SECONDS).minusMillis(1));
            int early = core.escrows.refundTimedOut(100);
            core.clock.advance(Duration.ofMillis(1));
            int onTime = core.escrows.refundTimedOut(100);

            assertThat(early).isZero();
            assertThat(onTime).isEqualTo(1);
            Escrow refunded = reload(escrow);
            assertThat(refunded.status()).isEqualTo(EscrowStatus.REFUNDED);
            assertThat(refunded.settleReason()).contains(EscrowMachine.REASON_TIMEOUT);
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("1000"));
            assertThat(core.ledger.balanceOf(vaultOf(escrow))).isZero();
            assertThat(core.ledger.balanceOf(sender.wallet().address().base58())).isEqualTo(1_000_000_000L);
            assertThat(outbox.typesAbout(escrow.id())).endsWith(EventType.ESCROW_REFUNDED);
            assertThat(pay(sender, "300", longSession(sender)).isOk()).isTrue();
        }

        /**
         * A completion accepted just before the deadline whose release reaches the ledger after it:
         * the program refuses it (only a refund is left on chain), so the release fails, the escrow
         * is locked again and the clockwork refunds the sender; the receiver is never credited.
         */
        @Test
        void aReleaseTheLedgerRefusesForTheDeadlineIsUndoneAndTheSenderRefunded() {
            FundedWallet sender = senderUnder(rules(), "1000");
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "300").value();
            core.ledger.leaveUnansweredWhen(i -> i instanceof LedgerInstruction.EscrowRelease);
            Escrow released = complete(escrow, PROOF).value();
            core.clock.advance(Duration.ofSeconds(TIMEOUT_SECONDS));
            core.ledger.behaveNormally();
            core.ledger.rejectWhen(i -> i instanceof LedgerInstruction.EscrowRelease,
                    ProgramError.ESCROW_EXPIRED);

            core.settlement.recover(Duration.ZERO, 10);

            Transaction release = core.payments.get(org, released.settleTx().orElseThrow()).value();
            assertThat(release.status()).isEqualTo(TransactionStatus.FAILED);
            assertThat(release.failureReason()).hasValueSatisfying(
                    reason -> assertThat(reason).startsWith("escrow_expired"));
            Escrow reopened = reload(escrow);
            assertThat(reopened.status()).isEqualTo(EscrowStatus.LOCKED);
            assertThat(reopened.proof()).isEmpty();
            assertThat(reopened.settleTx()).isEmpty();

            core.ledger.behaveNormally();
            assertThat(core.escrows.refundTimedOut(10)).isEqualTo(1);

            Escrow refunded = reload(escrow);
            assertThat(refunded.status()).isEqualTo(EscrowStatus.REFUNDED);
            assertThat(refunded.settleReason()).contains(EscrowMachine.REASON_TIMEOUT);
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("1000"));
            assertThat(balanceOf(receiver)).isEqualTo(Usdc.parse("0"));
            assertThat(core.ledger.balanceOf(vaultOf(escrow))).isZero();
            assertThat(core.ledger.balanceOf(receiver.wallet().address().base58())).isZero();
            assertThat(outbox.typesAbout(escrow.id())).endsWith(EventType.ESCROW_REFUNDED);
        }

        @Test
        void completionAndDisputeAreRefusedFromTheTimeoutOnEvenBeforeTheRefund() {
            FundedWallet sender = senderUnder(rules(), "1000");
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "300").value();
            core.clock.advance(Duration.ofSeconds(TIMEOUT_SECONDS));

            assertThat(complete(escrow, PROOF).rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(core.escrows.dispute(Requester.of(org), escrow.id(), "late", EVIDENCE).rejection())
                    .isInstanceOf(Rejection.InvalidState.class);
            assertThat(balanceOf(receiver)).isEqualTo(Usdc.ZERO);
        }

        @Test
        void aRefundedEscrowRefusesCompletion() {
            FundedWallet sender = senderUnder(rules(), "1000");
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "300").value();
            core.clock.advance(Duration.ofSeconds(TIMEOUT_SECONDS));
            core.escrows.refundTimedOut(100);

            Result<Escrow> result = complete(escrow, PROOF);

            assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(balanceOf(receiver)).isEqualTo(Usdc.ZERO);
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("1000"));
        }
    }

    /**
     * The ledger may not have answered a lock yet when the escrow settles. The fault model here
     * answers nothing for a vault payout while the vault is short, as the program would refuse it,
     * so the settlement must wait for the lock.
     */
    @Nested
    class LocksWithoutAnAnswerYet {
        @Test
        void aCompletionIsRefusedUntilTheLockIsConfirmedThenPaysTheReceiverOnce() {
            FundedWallet sender = senderUnder(rules(), "1000");
            leaveUnanswered(i -> i instanceof LedgerInstruction.EscrowLock);
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "200").value();

            assertThat(complete(escrow, PROOF).rejection()).isInstanceOf(Rejection.InvalidState.class);
            leaveUnanswered(i -> false);
            recoverAll();
            complete(escrow, PROOF).value();

            assertThat(reload(escrow).status()).isEqualTo(EscrowStatus.RELEASED);
            assertThat(balanceOf(receiver)).isEqualTo(Usdc.parse("200"));
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("800"));
            assertThat(core.ledger.balanceOf(receiver.wallet().address().base58())).isEqualTo(200_000_000L);
            assertThat(core.ledger.balanceOf(vaultOf(escrow))).isZero();
        }

        @Test
        void aLockRefusedAfterItsEscrowTimedOutGivesTheSenderItsMoneyBackOnce() {
            FundedWallet sender = senderUnder(rules(), "1000");
            leaveUnanswered(i -> i instanceof LedgerInstruction.EscrowLock);
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "200").value();
            core.clock.advance(Duration.ofSeconds(TIMEOUT_SECONDS));
            core.escrows.refundTimedOut(100);

            core.ledger.rejectWhen(i -> i instanceof LedgerInstruction.EscrowLock);
            leaveUnanswered(i -> false);
            recoverAll();
            core.ledger.behaveNormally();
            recoverAll();

            assertThat(lockTransactionOf(escrow).status()).isEqualTo(TransactionStatus.FAILED);
            assertThat(reload(escrow).status()).isEqualTo(EscrowStatus.REFUNDED);
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("1000"));
            assertThat(core.ledger.balanceOf(sender.wallet().address().base58())).isEqualTo(1_000_000_000L);
            assertThat(pendingTransactionsOf(sender)).isEmpty();
        }

        @Test
        void aLockRefusedAfterItsEscrowWasReleasedGivesTheSenderItsMoneyBackAndPaysNobody() {
            FundedWallet sender = senderUnder(rules(), "1000");
            leaveUnanswered(i -> i instanceof LedgerInstruction.EscrowLock);
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "200").value();
            // Accepting the completion before the lock is confirmed, or refusing it, are both fine here:
            // either way the sender must end with its money back once the ledger refuses the lock.
            complete(escrow, PROOF);

            core.ledger.rejectWhen(i -> i instanceof LedgerInstruction.EscrowLock);
            leaveUnanswered(i -> false);
            recoverAll();
            core.ledger.behaveNormally();
            recoverAll();

            assertThat(lockTransactionOf(escrow).status()).isEqualTo(TransactionStatus.FAILED);
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("1000"));
            assertThat(balanceOf(receiver)).isEqualTo(Usdc.ZERO);
            assertThat(pendingTransactionsOf(sender)).isEmpty();
        }

        @Test
        void aDisputeWaitsForTheLockAndALockRefusedMeanwhileRefundsTheEscrowAsLockFailed() {
            FundedWallet sender = senderUnder(rules(), "1000");
            leaveUnanswered(i -> i instanceof LedgerInstruction.EscrowLock);
            Escrow escrow = lock(sender, receiver.wallet().id().value(), "200").value();
            assertThat(core.escrows.dispute(Requester.of(org), escrow.id(), "not delivered", EVIDENCE).rejection())
                    .isInstanceOf(Rejection.InvalidState.class);

            core.ledger.rejectWhen(i -> i instanceof LedgerInstruction.EscrowLock);
            leaveUnanswered(i -> false);
            recoverAll();

            assertThat(lockTransactionOf(escrow).status()).isEqualTo(TransactionStatus.FAILED);
            assertThat(reload(escrow).status()).isEqualTo(EscrowStatus.REFUNDED);
            assertThat(reload(escrow).settleReason()).contains(EscrowMachine.REASON_LOCK_FAILED);
            assertThat(balanceOf(sender)).isEqualTo(Usdc.parse("1000"));
            assertThat(pendingTransactionsOf(sender)).isEmpty();
        }

        /** Leaves matching instructions unanswered, and vault payouts too while the vault cannot cover them. */
        private void leaveUnanswered(Predicate<LedgerInstruction> condition) {
            core.ledger.leaveUnansweredWhen(condition.or(core.ledger::vaultCannotCover));
        }

        private void recoverAll() {
            core.settlement.recover(Duration.ZERO, 100);
            core.settlement.recover(Duration.ZERO, 100);
        }
    }

    private FundedWallet senderUnder(RulesBuilder rules, String funding) {
        Policy policy = given.policy(org, rules.build());
        return given.wallet(org, policy, "sender-" + core.storage.allWallets().size(), funding);
    }

    private FundedWallet foreignWallet() {
        OrgId otherOrg = given.organisation("1");
        return given.wallet(otherOrg, given.policy(otherOrg, rules().build()), "foreign", "0");
    }

    private Result<Escrow> lock(FundedWallet sender, String to, String amount) {
        return core.escrows.lock(lockCommand(sender, to, amount, Optional.empty()), RequestKey.none());
    }

    private Result<Escrow> lockExpecting(FundedWallet sender, String to, String amount, String expectedProof) {
        return core.escrows.lock(lockCommand(sender, to, amount, Optional.of(expectedProof)), RequestKey.none());
    }

    private LockEscrow lockCommand(FundedWallet sender, String to, String amount, Optional<String> expectedProof) {
        return new LockEscrow(org, sender.wallet().id(), to, Usdc.parse(amount), "summarise the report",
                TIMEOUT_SECONDS, expectedProof, Optional.of(sender.session()));
    }

    private Result<Escrow> complete(Escrow escrow, String proof) {
        return core.escrows.complete(Requester.of(escrow.orgId()), escrow.id(), Proof.OUTPUT_HASH, proof);
    }

    private Result<PaymentResult> pay(FundedWallet sender, String amount) {
        return pay(sender, amount, sender.session());
    }

    private Result<PaymentResult> pay(FundedWallet sender, String amount, SessionGrant session) {
        return core.payments.pay(paymentFrom(sender).to(EXTERNAL_AGENT).amount(amount).session(session).build());
    }

    private SessionGrant longSession(FundedWallet wallet) {
        return core.wallets.rotateSession(org, wallet.wallet().id(), Optional.of(Duration.ofDays(30))).value();
    }

    private static void assertViolation(Result<?> result, ViolationRule rule) {
        assertThat(result.isOk()).as("should be blocked by " + rule).isFalse();
        assertThat(result.rejection()).isInstanceOf(Rejection.PolicyViolated.class);
        assertThat(((Rejection.PolicyViolated) result.rejection()).violation().rule()).isEqualTo(rule);
    }

    private Escrow reload(Escrow escrow) {
        return core.escrows.get(Requester.of(escrow.orgId()), escrow.id()).value();
    }

    private Transaction lockTransactionOf(Escrow escrow) {
        return core.payments.get(escrow.orgId(), escrow.lockTx()).value();
    }

    private List<Transaction> transactionsOf(FundedWallet wallet) {
        return core.payments.list(wallet.wallet().orgId(), TransactionStore.Query.ofWallet(wallet.wallet().id()),
                PageRequest.first(100)).data();
    }

    private List<Transaction> pendingTransactionsOf(FundedWallet wallet) {
        return transactionsOf(wallet).stream().filter(tx -> !tx.status().isTerminal()).toList();
    }

    private Usdc balanceOf(FundedWallet wallet) {
        Wallet current = core.wallets.get(wallet.wallet().orgId(), wallet.wallet().id()).value();
        return current.balance();
    }

    private static String vaultOf(Escrow escrow) {
        return "vault:" + escrow.id().value();
    }
}
