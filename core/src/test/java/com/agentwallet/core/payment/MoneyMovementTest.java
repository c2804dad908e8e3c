package com.agentwallet.core.payment;

import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowCommand;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.escrow.Proof;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.ledger.ProgramError;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.Outbox;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.wallet.Wallet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each type of transaction settles as its own movement: the instruction it sends, where its money
 * arrives once confirmed, where a failed one's goes back, and which refusals end it. Each movement
 * is applied here to a transaction its use case left pending, on the in-memory books.
 */
class MoneyMovementTest {
    private static final String PROOF = Hashing.sha256Hex("the finished work");
    private static final long TIMEOUT_SECONDS = 3600;
    private static final LedgerOutcome.Rejected ANY_REFUSAL = new LedgerOutcome.Rejected("fake_rejection", "refused");
    private static final LedgerOutcome.Rejected TOO_LATE = ProgramError.ESCROW_EXPIRED.rejected("past the deadline");
    private static final LedgerOutcome.Rejected DISPUTED = ProgramError.ESCROW_DISPUTED.rejected("vault disputed");

    private final CoreFixture core = new CoreFixture();
    private final Scenario given = new Scenario(core);
    private final Outbox outbox = new Outbox(core);
    private OrgId org;
    private FundedWallet sender;
    private FundedWallet receiver;

    @BeforeEach
    void anOrganisationWithAFundedAndAnEmptyWallet() {
        org = given.organisation("1000");
        Policy policy = given.policy(org, rules().build());
        sender = given.wallet(org, policy, "sender", "300");
        receiver = given.wallet(org, policy, "receiver", "0");
    }

    @Test
    void everyTypeMovesAsAClassOfItsOwn() {
        assertThat(EnumSet.allOf(TransactionType.class).stream()
                .map(type -> MoneyMovement.of(Transaction.open(core.ids.tx(), org, sender.wallet().id(), type,
                        TransactionStatus.PENDING, Usdc.parse("1"), "anywhere", core.clock.instant())).getClass())
                .distinct()).hasSize(TransactionType.values().length);
    }

    @Test
    void aPaymentMovementMovesPaymentsOnly() {
        Transaction funding = Transaction.open(core.ids.tx(), org, sender.wallet().id(), TransactionType.FUNDING,
                TransactionStatus.PENDING, Usdc.parse("1"), "anywhere", core.clock.instant());

        assertThatThrownBy(() -> new PaymentMovement(funding)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPaymentAFundingAWithdrawalAndALockEndAtAnyRefusalAndSendNothingInstead() {
        List<Transaction> pending = List.of(paymentLeftPending(), fundingLeftPending(), withdrawalLeftPending(),
                lockLeftPending());

        assertThat(pending).allSatisfy(tx -> {
            MoneyMovement movement = MoneyMovement.of(tx);
            assertThat(movement.refusalIsFinal(ANY_REFUSAL)).isTrue();
            assertThat(movement.refusalIsFinal(TOO_LATE)).isTrue();
            assertThat(movement.resentAfter(instructionOf(tx), DISPUTED)).isEmpty();
        });
    }

    @Nested
    class Payments {
        private Transaction payment;

        @BeforeEach
        void aPaymentToTheOtherWalletLeftPending() {
            payment = paymentLeftPending();
        }

        @Test
        void itPaysFromTheWalletUnderItsSession() {
            assertThat(instructionOf(payment)).isEqualTo(new LedgerInstruction.Pay(payment.id().value(),
                    sender.wallet().address(), receiver.wallet().address().base58(), Usdc.parse("25"),
                    payment.createdAt(), wallet(sender).sessionVersion(), Optional.empty()));
        }

        @Test
        void confirmedItCreditsTheWalletAtItsRecipientsAddress() {
            credit(payment);

            assertThat(wallet(receiver).balance()).isEqualTo(Usdc.parse("25"));
        }

        @Test
        void failedItGivesTheAmountAndItsPlaceInTheCapsBack() {
            giveBack(failed(payment));

            assertThat(wallet(sender).balance()).isEqualTo(Usdc.parse("300"));
            assertThat(wallet(sender).spend().day()).isEqualTo(Usdc.ZERO);
        }
    }

    @Nested
    class Fundings {
        private Transaction funding;

        @BeforeEach
        void aFundingOfTheEmptyWalletLeftPending() {
            funding = fundingLeftPending();
        }

        @Test
        void itMovesMoneyFromTheTreasuryToTheWallet() {
            assertThat(instructionOf(funding)).isEqualTo(new LedgerInstruction.Fund(funding.id().value(), org,
                    receiver.wallet().address(), Usdc.parse("50")));
        }

        @Test
        void confirmedItCreditsTheWalletAndAnnouncesIt() {
            int mark = outbox.mark();

            credit(funding);

            assertThat(wallet(receiver).balance()).isEqualTo(Usdc.parse("50"));
            assertThat(outbox.since(mark)).extracting(e -> e.event().type()).containsExactly(EventType.WALLET_FUNDED);
        }

        @Test
        void failedItGivesTheAmountBackToTheOrganisation() {
            assertThat(organisationBalance()).isEqualTo(Usdc.parse("650"));

            giveBack(failed(funding));

            assertThat(organisationBalance()).isEqualTo(Usdc.parse("700"));
            assertThat(wallet(receiver).balance()).isEqualTo(Usdc.ZERO);
        }
    }

    @Nested
    class Withdrawals {
        private Transaction withdrawal;

        @BeforeEach
        void aWithdrawalFromTheFundedWalletLeftPending() {
            withdrawal = withdrawalLeftPending();
        }

        @Test
        void itMovesMoneyFromTheWalletToTheTreasury() {
            assertThat(instructionOf(withdrawal)).isEqualTo(new LedgerInstruction.Withdraw(withdrawal.id().value(), org,
                    sender.wallet().address(), Usdc.parse("40")));
        }

        @Test
        void confirmedItCreditsTheOrganisationAndAnnouncesIt() {
            int mark = outbox.mark();

            credit(withdrawal);

            assertThat(organisationBalance()).isEqualTo(Usdc.parse("740"));
            assertThat(outbox.since(mark)).extracting(e -> e.event().type())
                    .containsExactly(EventType.WALLET_WITHDRAWN);
        }

        @Test
        void failedItGivesTheAmountBackToTheWallet() {
            giveBack(failed(withdrawal));

            assertThat(wallet(sender).balance()).isEqualTo(Usdc.parse("300"));
            assertThat(organisationBalance()).isEqualTo(Usdc.parse("700"));
        }
    }

    @Nested
    class EscrowLocks {
        private Transaction lock;
        private Escrow escrow;

        @BeforeEach
        void aLockLeftPending() {
            lock = lockLeftPending();
            escrow = escrow(lock.escrowId().orElseThrow());
        }

        @Test
        void itMovesMoneyIntoTheVaultOnItsEscrowsTerms() {
            assertThat(instructionOf(lock)).isEqualTo(new LedgerInstruction.EscrowLock(lock.id().value(), escrow.id(),
                    sender.wallet().address(), receiver.wallet().address().base58(), Usdc.parse("60"),
                    escrow.timeoutAt(), Optional.empty(), wallet(sender).sessionVersion()));
        }

        @Test
        void confirmedItMovesNothingInTheBooks() {
            int mark = outbox.mark();

            credit(lock);

            assertThat(wallet(sender).balance()).isEqualTo(Usdc.parse("240"));
            assertThat(escrow(escrow.id()).status()).isEqualTo(EscrowStatus.LOCKED);
            assertThat(outbox.since(mark)).isEmpty();
        }

        @Test
        void failedItGivesTheAmountBackAndRefundsTheEscrow() {
            giveBack(failed(lock));

            assertThat(wallet(sender).balance()).isEqualTo(Usdc.parse("300"));
            assertThat(wallet(sender).spend().day()).isEqualTo(Usdc.ZERO);
            assertThat(escrow(escrow.id()).status()).isEqualTo(EscrowStatus.REFUNDED);
            assertThat(outbox.types()).endsWith(EventType.ESCROW_REFUNDED);
        }
    }

    @Nested
    class EscrowReleases {
        private Escrow escrow;
        private Transaction release;

        @BeforeEach
        void aReleaseByProofLeftPending() {
            escrow = lockEscrow();
            release = leftPending(i -> i instanceof LedgerInstruction.EscrowRelease,
                    () -> core.escrows.complete(Requester.of(org), escrow.id(), Proof.OUTPUT_HASH, PROOF).value());
        }

        @Test
        void itPaysTheReceiverOutOfTheVaultWithTheProof() {
            assertThat(instructionOf(release)).isEqualTo(new LedgerInstruction.EscrowRelease(release.id().value(),
                    escrow.id(), sender.wallet().address(), receiver.wallet().address().base58(), Usdc.parse("60"),
                    Optional.of(PROOF)));
        }

        @Test
        void confirmedItCreditsTheWalletAtTheReceiversAddress() {
            credit(release);

            assertThat(wallet(receiver).balance()).isEqualTo(Usdc.parse("60"));
        }

        @Test
        void failedItLocksTheEscrowAgainWithoutItsProof() {
            giveBack(failed(release));

            Escrow reopened = escrow(escrow.id());
            assertThat(reopened.status()).isEqualTo(EscrowStatus.LOCKED);
            assertThat(reopened.proof()).isEmpty();
            assertThat(reopened.settleTx()).isEmpty();
            assertThat(wallet(sender).balance()).isEqualTo(Usdc.parse("240"));
        }

        @Test
        void onlyAReleaseTooLateIsFinal() {
            MoneyMovement movement = MoneyMovement.of(release);

            assertThat(movement.refusalIsFinal(TOO_LATE)).isTrue();
            assertThat(movement.refusalIsFinal(ANY_REFUSAL)).isFalse();
            assertThat(movement.refusalIsFinal(DISPUTED)).isFalse();
        }

        @Test
        void refusedForADisputeTheBooksNeverHadItIsSentAgainAsTheResolution() {
            LedgerInstruction.EscrowRelease sent = (LedgerInstruction.EscrowRelease) instructionOf(release);
            LedgerInstruction.EscrowRelease resolution = new LedgerInstruction.EscrowRelease(
                    release.id().value() + ":resolution", escrow.id(), sent.wallet(), sent.receiver(), sent.amount(),
                    Optional.empty());
            MoneyMovement movement = MoneyMovement.of(release);

            assertThat(movement.resentAfter(sent, DISPUTED)).contains(resolution);
            assertThat(movement.resentAfter(sent, ANY_REFUSAL)).isEmpty();
            assertThat(movement.resentAfter(resolution, DISPUTED)).isEmpty();
        }
    }

    @Nested
    class EscrowRefunds {
        private Escrow escrow;

        @BeforeEach
        void aLockedEscrow() {
            escrow = lockEscrow();
        }

        @Test
        void afterTheTimeoutItPaysTheSenderBackOutOfTheVault() {
            Transaction refund = timeoutRefundLeftPending();

            assertThat(instructionOf(refund)).isEqualTo(new LedgerInstruction.EscrowRefund(refund.id().value(),
                    escrow.id(), sender.wallet().address(), Usdc.parse("60"), false));
        }

        @Test
        void afterADisputeItIsTheResolution() {
            core.escrows.dispute(new Requester.Agent(org, sender.wallet().id()), escrow.id(), "late",
                    Hashing.sha256Hex("evidence")).value();
            Transaction refund = leftPending(i -> i instanceof LedgerInstruction.EscrowRefund,
                    () -> core.escrows.resolve(org, escrow.id(), EscrowCommand.Outcome.REFUND).value());

            assertThat(instructionOf(refund)).isEqualTo(new LedgerInstruction.EscrowRefund(refund.id().value(),
                    escrow.id(), sender.wallet().address(), Usdc.parse("60"), true));
        }

        @Test
        void confirmedItCreditsTheSendersWallet() {
            Transaction refund = timeoutRefundLeftPending();

            credit(refund);

            assertThat(wallet(sender).balance()).isEqualTo(Usdc.parse("300"));
        }

        @Test
        void noRefusalIsFinalSoNoneGivesAnythingBack() {
            Transaction refund = timeoutRefundLeftPending();
            MoneyMovement movement = MoneyMovement.of(refund);

            assertThat(movement.refusalIsFinal(ANY_REFUSAL)).isFalse();
            assertThat(movement.refusalIsFinal(TOO_LATE)).isFalse();
            assertThat(movement.refusalIsFinal(DISPUTED)).isFalse();
            assertThatThrownBy(() -> giveBack(failed(refund))).isInstanceOf(IllegalStateException.class);
        }

        @Test
        void refusedForADisputeTheBooksNeverHadItIsSentAgainAsTheResolution() {
            Transaction refund = timeoutRefundLeftPending();
            LedgerInstruction.EscrowRefund sent = (LedgerInstruction.EscrowRefund) instructionOf(refund);
            LedgerInstruction.EscrowRefund resolution = new LedgerInstruction.EscrowRefund(
                    refund.id().value() + ":resolution", escrow.id(), sent.wallet(), sent.amount(), true);
            MoneyMovement movement = MoneyMovement.of(refund);

            assertThat(movement.resentAfter(sent, DISPUTED)).contains(resolution);
            assertThat(movement.resentAfter(sent, ANY_REFUSAL)).isEmpty();
            assertThat(movement.resentAfter(resolution, DISPUTED)).isEmpty();
        }

        private Transaction timeoutRefundLeftPending() {
            core.clock.advance(Duration.ofSeconds(TIMEOUT_SECONDS));
            return leftPending(i -> i instanceof LedgerInstruction.EscrowRefund,
                    () -> core.escrows.refundTimedOut(1));
        }
    }

    private Transaction paymentLeftPending() {
        return leftPending(i -> i instanceof LedgerInstruction.Pay,
                () -> given.pay(sender, receiver.wallet().address().base58(), "25").value());
    }

    private Transaction fundingLeftPending() {
        return leftPending(i -> i instanceof LedgerInstruction.Fund,
                () -> core.wallets.fund(org, receiver.wallet().id(), Usdc.parse("50"), RequestKey.none()).value());
    }

    private Transaction withdrawalLeftPending() {
        return leftPending(i -> i instanceof LedgerInstruction.Withdraw,
                () -> core.wallets.withdraw(org, sender.wallet().id(), Optional.of(Usdc.parse("40")), RequestKey.none()).value());
    }

    private Transaction lockLeftPending() {
        return leftPending(i -> i instanceof LedgerInstruction.EscrowLock, this::lockEscrow);
    }

    /** Books a transaction with the ledger leaving its instruction unanswered, and answers it as it stays: pending. */
    private Transaction leftPending(Predicate<LedgerInstruction> instruction, Supplier<?> booking) {
        core.ledger.leaveUnansweredWhen(instruction);
        booking.get();
        core.ledger.behaveNormally();
        return core.storage.inTransaction(stores -> stores.transactions()
                .pendingSince(core.clock.instant().plusSeconds(1), 10)).stream()
                .filter(tx -> instruction.test(instructionOf(tx)))
                .reduce((one, other) -> {
                    throw new AssertionError("more than one transaction left pending");
                })
                .orElseThrow();
    }

    private Escrow lockEscrow() {
        return core.escrows.lock(new LockEscrow(org, sender.wallet().id(), receiver.wallet().id().value(),
                Usdc.parse("60"), "summarise the report", TIMEOUT_SECONDS, Optional.empty(),
                Optional.of(sender.session())), RequestKey.none()).value();
    }

    private LedgerInstruction instructionOf(Transaction tx) {
        return core.storage.inTransaction(stores -> MoneyMovement.of(tx).instruction(stores,
                stores.wallets().find(tx.orgId(), tx.walletId()).orElseThrow()));
    }

    private void credit(Transaction confirmed) {
        core.storage.inTransaction(stores -> {
            MoneyMovement.of(confirmed).credit(stores, core.events, core.clock.instant());
            return null;
        });
    }

    private void giveBack(Transaction failed) {
        core.storage.inTransaction(stores -> {
            MoneyMovement.of(failed).giveBack(stores, core.events, core.clock.instant());
            return null;
        });
    }

    private Transaction failed(Transaction pending) {
        return pending.endedWithout(TransactionStatus.FAILED, "fake_rejection: refused", core.clock.instant());
    }

    private Wallet wallet(FundedWallet wallet) {
        return core.wallets.get(org, wallet.wallet().id()).value();
    }

    private Escrow escrow(EscrowId id) {
        return core.escrows.get(Requester.of(org), id).value();
    }

    private Usdc organisationBalance() {
        return core.organisations.get(org).value().balance();
    }
}
