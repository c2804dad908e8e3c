package com.agentwallet.core.payment;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Transition;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.core.policy.ViolationRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class TransactionMachineTest {
    private static final Instant CREATED = Instant.parse("2026-04-01T12:00:00Z");
    private static final Instant CO_SIGN_EXPIRES = CREATED.plus(Duration.ofHours(72));
    private static final OrgId ORG = new OrgId("org_OOOOOOOOOOOOOOOOOOOOOOOO");
    private static final WalletId WALLET = new WalletId("wal_WWWWWWWWWWWWWWWWWWWWWWWW");
    private static final TxId TX = new TxId("tx_TTTTTTTTTTTTTTTTTTTTTTTT");
    private static final String RECIPIENT = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
    private static final Usdc AMOUNT = Usdc.parse("75.50");
    private static final String CO_SIGNATURE = "5coSignature";
    private static final String LEDGER_SIGNATURE = "3ledgerSignature";
    private static final long SLOT = 123_456_789L;

    /** Every command, with the instant it arrives at relative to the co-sign window. */
    enum Cmd {
        CO_SIGNED_IN_WINDOW(new TransactionCommand.CoSigned(CO_SIGNATURE), CO_SIGN_EXPIRES.minusMillis(1)),
        CO_SIGNED_AS_WINDOW_CLOSES(new TransactionCommand.CoSigned(CO_SIGNATURE), CO_SIGN_EXPIRES),
        CO_SIGNED_AFTER_WINDOW(new TransactionCommand.CoSigned(CO_SIGNATURE), CO_SIGN_EXPIRES.plusSeconds(1)),
        REJECT(new TransactionCommand.Reject("operator declined"), CREATED.plus(Duration.ofHours(1))),
        EXPIRE_BEFORE_WINDOW_CLOSES(new TransactionCommand.ExpireCoSign(), CO_SIGN_EXPIRES.minusMillis(1)),
        EXPIRE_AS_WINDOW_CLOSES(new TransactionCommand.ExpireCoSign(), CO_SIGN_EXPIRES),
        EXPIRE_AFTER_WINDOW(new TransactionCommand.ExpireCoSign(), CO_SIGN_EXPIRES.plus(Duration.ofDays(1))),
        CONFIRM(new TransactionCommand.Confirm(LEDGER_SIGNATURE, SLOT), CREATED.plusSeconds(2)),
        FAIL(new TransactionCommand.Fail("ledger refused"), CREATED.plusSeconds(2));

        final TransactionCommand command;
        final Instant at;

        Cmd(TransactionCommand command, Instant at) {
            this.command = command;
            this.at = at;
        }
    }

    /** The accepted (status, command) pairs; everything else must be refused. */
    private static final Map<TransactionStatus, Set<Cmd>> LEGAL = Map.of(
            TransactionStatus.PENDING_CO_SIGN, EnumSet.of(Cmd.CO_SIGNED_IN_WINDOW, Cmd.REJECT, Cmd.EXPIRE_AS_WINDOW_CLOSES,
                    Cmd.EXPIRE_AFTER_WINDOW),
            TransactionStatus.PENDING, EnumSet.of(Cmd.CONFIRM, Cmd.FAIL));

    static Stream<Arguments> illegal() {
        List<Arguments> pairs = new ArrayList<>();
        for (TransactionStatus status : TransactionStatus.values()) {
            for (Cmd cmd : Cmd.values()) {
                if (!LEGAL.getOrDefault(status, Set.of()).contains(cmd)) {
                    for (TransactionType type : TransactionType.values()) {
                        pairs.add(Arguments.of(status, cmd, type));
                    }
                }
            }
        }
        return pairs.stream();
    }

    @ParameterizedTest(name = "{2} {0} x {1} is refused")
    @MethodSource("illegal")
    void everyOtherCommandIsRefusedAsInvalidState(TransactionStatus status, Cmd cmd, TransactionType type) {
        Result<Transition<Transaction>> result = TransactionMachine.apply(tx(status, type), cmd.command, cmd.at);
        assertThat(result).isInstanceOf(Result.Refused.class);
        assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
        assertThat(result.rejection().message()).contains(TX.value());
    }

    @Test
    void exactlyTheLegalPairsAreAcceptedForAPayment() {
        for (TransactionStatus status : TransactionStatus.values()) {
            for (Cmd cmd : Cmd.values()) {
                boolean legal = LEGAL.getOrDefault(status, Set.of()).contains(cmd);
                assertThat(TransactionMachine.apply(tx(status, TransactionType.PAYMENT), cmd.command, cmd.at).isOk())
                        .as("%s x %s", status, cmd).isEqualTo(legal);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TransactionType.class)
    void aCoSignatureInTheWindowMovesToPendingAndAnnouncesOnlyPayments(TransactionType type) {
        Transaction tx = tx(TransactionStatus.PENDING_CO_SIGN, type);
        Transition<Transaction> transition = accepted(tx, Cmd.CO_SIGNED_IN_WINDOW);

        Transaction next = transition.state();
        assertThat(next.status()).isEqualTo(TransactionStatus.PENDING);
        assertThat(next.coSign()).contains(new CoSign("coSignerKey", "payload", CO_SIGN_EXPIRES, Optional.of(CO_SIGNATURE), Optional.empty()));
        assertThat(next.updatedAt()).isEqualTo(Cmd.CO_SIGNED_IN_WINDOW.at);
        assertThat(next.failureReason()).isEmpty();
        assertThat(transition.events()).isEqualTo(type == TransactionType.PAYMENT
                ? List.of(new DomainEvent.TransactionPending(next, Cmd.CO_SIGNED_IN_WINDOW.at))
                : List.of());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TransactionType.class)
    void aRejectionEndsTheTransactionAndIsAnnouncedForEveryType(TransactionType type) {
        assertEndedWithout(tx(TransactionStatus.PENDING_CO_SIGN, type), Cmd.REJECT, TransactionStatus.REJECTED,
                EventType.TRANSACTION_REJECTED, "operator declined");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TransactionType.class)
    void expiryFromTheInstantTheWindowClosesIsAnnouncedForEveryType(TransactionType type) {
        for (Cmd expire : List.of(Cmd.EXPIRE_AS_WINDOW_CLOSES, Cmd.EXPIRE_AFTER_WINDOW)) {
            Transaction next = assertEndedWithout(tx(TransactionStatus.PENDING_CO_SIGN, type), expire,
                    TransactionStatus.EXPIRED, EventType.TRANSACTION_EXPIRED, null);
            assertThat(next.failureReason()).hasValueSatisfying(reason -> assertThat(reason).isNotBlank());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TransactionType.class)
    void aConfirmationRecordsSignatureAndSlotAndAnnouncesOnlyPayments(TransactionType type) {
        Transaction tx = tx(TransactionStatus.PENDING, type);
        Transition<Transaction> transition = accepted(tx, Cmd.CONFIRM);

        Transaction next = transition.state();
        assertThat(next.status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(next.signature()).contains(LEDGER_SIGNATURE);
        assertThat(next.slot()).contains(SLOT);
        assertThat(next.updatedAt()).isEqualTo(Cmd.CONFIRM.at);
        assertThat(transition.events()).isEqualTo(type == TransactionType.PAYMENT
                ? List.of(new DomainEvent.TransactionCompleted(next, Cmd.CONFIRM.at))
                : List.of());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TransactionType.class)
    void aLedgerFailureEndsTheTransactionAndIsAnnouncedForEveryType(TransactionType type) {
        assertEndedWithout(tx(TransactionStatus.PENDING, type), Cmd.FAIL, TransactionStatus.FAILED,
                EventType.TRANSACTION_FAILED, "ledger refused");
    }

    @Test
    void theCompletedEventCarriesWhetherAPolicyIntervened() {
        Transaction untouched = tx(TransactionStatus.PENDING, TransactionType.PAYMENT).withPolicyTriggered(false);
        Transition<Transaction> confirmed = accepted(untouched, Cmd.CONFIRM);
        assertThat(confirmed.events()).containsExactly(new DomainEvent.TransactionCompleted(confirmed.state(), Cmd.CONFIRM.at));
        assertThat(confirmed.state().policyTriggered()).isFalse();
    }

    /** Checks an ending without payment; {@code reason} null means "whatever the machine says, as long as the event agrees". */
    private static Transaction assertEndedWithout(Transaction tx, Cmd cmd, TransactionStatus ending, EventType eventType,
                                                  String reason) {
        Transition<Transaction> transition = accepted(tx, cmd);
        Transaction next = transition.state();
        assertThat(next.status()).isEqualTo(ending);
        assertThat(next.updatedAt()).isEqualTo(cmd.at);
        assertThat(next.signature()).isEmpty();
        if (reason != null) {
            assertThat(next.failureReason()).contains(reason);
        }
        DomainEvent expected = new DomainEvent.TransactionEnded(next, cmd.at);
        assertThat(transition.events()).containsExactly(expected);
        assertThat(transition.events().get(0).type()).isEqualTo(eventType);
        return next;
    }

    private static Transition<Transaction> accepted(Transaction tx, Cmd cmd) {
        Result<Transition<Transaction>> result = TransactionMachine.apply(tx, cmd.command, cmd.at);
        assertThat(result.isOk()).as("%s x %s accepted, got %s", tx.status(), cmd, result).isTrue();
        return result.value();
    }

    /** A transaction in {@code status}; it waited for a co-signature (so a policy intervened) unless blocked. */
    private static Transaction tx(TransactionStatus status, TransactionType type) {
        Transaction open = Transaction.open(TX, ORG, WALLET, type, TransactionStatus.PENDING_CO_SIGN, AMOUNT, RECIPIENT, CREATED)
                .withCoSign(new CoSign("coSignerKey", "payload", CO_SIGN_EXPIRES, Optional.empty(), Optional.empty()))
                .withPolicyTriggered(true);
        return status == TransactionStatus.BLOCKED
                ? open.blockedBy(new Violation(ViolationRule.MAX_PER_TX, "10.00", "75.50"))
                : open.withStatus(status, CREATED);
    }
}
