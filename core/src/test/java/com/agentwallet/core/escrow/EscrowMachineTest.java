package com.agentwallet.core.escrow;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Transition;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.money.Usdc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class EscrowMachineTest {
    private static final Instant CREATED = Instant.parse("2026-04-01T12:00:00Z");
    private static final long TIMEOUT_SECONDS = 3600;
    private static final Instant TIMEOUT_AT = CREATED.plusSeconds(TIMEOUT_SECONDS);
    private static final Instant BEFORE_TIMEOUT = TIMEOUT_AT.minusMillis(1);
    private static final OrgId ORG = new OrgId("org_OOOOOOOOOOOOOOOOOOOOOOOO");
    private static final EscrowId ESCROW = new EscrowId("escrow_EEEEEEEEEEEEEEEEEEEEEEEE");
    private static final WalletId FROM = new WalletId("wal_FFFFFFFFFFFFFFFFFFFFFFFF");
    private static final String TO = "wal_RRRRRRRRRRRRRRRRRRRRRRRR";
    private static final String RECEIVER = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
    private static final Usdc AMOUNT = Usdc.parse("40.00");
    private static final String EXPECTED_PROOF = "a".repeat(64);
    private static final String OTHER_PROOF = "b".repeat(64);
    private static final Dispute DISPUTE = new Dispute("work not delivered", "c".repeat(64), CREATED.plusSeconds(60));

    /** Every command, with whether the escrow names an expected proof and when the command arrives. */
    enum Cmd {
        COMPLETE_WITH_MATCHING_PROOF(new EscrowCommand.Complete(EXPECTED_PROOF), true, BEFORE_TIMEOUT),
        COMPLETE_WITH_MISMATCHING_PROOF(new EscrowCommand.Complete(OTHER_PROOF), true, BEFORE_TIMEOUT),
        COMPLETE_WITHOUT_EXPECTED_PROOF(new EscrowCommand.Complete(OTHER_PROOF), false, BEFORE_TIMEOUT),
        COMPLETE_AT_TIMEOUT(new EscrowCommand.Complete(EXPECTED_PROOF), true, TIMEOUT_AT),
        RAISE(new EscrowCommand.Raise(DISPUTE), true, BEFORE_TIMEOUT),
        RAISE_AT_TIMEOUT(new EscrowCommand.Raise(DISPUTE), true, TIMEOUT_AT),
        TIMEOUT_BEFORE_TIMEOUT(new EscrowCommand.Timeout(), true, BEFORE_TIMEOUT),
        TIMEOUT_AT_TIMEOUT(new EscrowCommand.Timeout(), true, TIMEOUT_AT),
        TIMEOUT_AFTER_TIMEOUT(new EscrowCommand.Timeout(), true, TIMEOUT_AT.plus(Duration.ofDays(2))),
        RESOLVE_RELEASE(new EscrowCommand.Resolve(EscrowCommand.Outcome.RELEASE), true, BEFORE_TIMEOUT),
        RESOLVE_REFUND(new EscrowCommand.Resolve(EscrowCommand.Outcome.REFUND), true, BEFORE_TIMEOUT),
        LOCK_FAILED(new EscrowCommand.LockFailed("insufficient funds on chain"), true, CREATED.plusSeconds(1)),
        RELEASE_EXPIRED(new EscrowCommand.ReleaseExpired(), true, TIMEOUT_AT.plusSeconds(5));

        final EscrowCommand command;
        final boolean withExpectedProof;
        final Instant at;

        Cmd(EscrowCommand command, boolean withExpectedProof, Instant at) {
            this.command = command;
            this.withExpectedProof = withExpectedProof;
            this.at = at;
        }
    }

    /** What an accepted command leads to. */
    record Outcome(EscrowStatus status, Optional<String> proof, String reason, EventType event) {
    }

    private static final Map<EscrowStatus, Map<Cmd, Outcome>> LEGAL = Map.of(
            EscrowStatus.LOCKED, Map.of(
                    Cmd.COMPLETE_WITH_MATCHING_PROOF, new Outcome(EscrowStatus.RELEASED, Optional.of(EXPECTED_PROOF),
                            "proof_verified", EventType.ESCROW_RELEASED),
                    Cmd.COMPLETE_WITHOUT_EXPECTED_PROOF, new Outcome(EscrowStatus.RELEASED, Optional.of(OTHER_PROOF),
                            "proof_verified", EventType.ESCROW_RELEASED),
                    Cmd.RAISE, new Outcome(EscrowStatus.DISPUTED, Optional.empty(), null, EventType.ESCROW_DISPUTED),
                    Cmd.TIMEOUT_AT_TIMEOUT, new Outcome(EscrowStatus.REFUNDED, Optional.empty(), "timeout",
                            EventType.ESCROW_REFUNDED),
                    Cmd.TIMEOUT_AFTER_TIMEOUT, new Outcome(EscrowStatus.REFUNDED, Optional.empty(), "timeout",
                            EventType.ESCROW_REFUNDED),
                    Cmd.LOCK_FAILED, new Outcome(EscrowStatus.REFUNDED, Optional.empty(), "lock_failed",
                            EventType.ESCROW_REFUNDED)),
            EscrowStatus.DISPUTED, Map.of(
                    Cmd.RESOLVE_RELEASE, new Outcome(EscrowStatus.RELEASED, Optional.empty(), "dispute_resolved",
                            EventType.ESCROW_RELEASED),
                    Cmd.RESOLVE_REFUND, new Outcome(EscrowStatus.REFUNDED, Optional.empty(), "dispute_resolved",
                            EventType.ESCROW_REFUNDED)));

    /** A legal pair: one of {@link #LEGAL}, or the undoing of a release the ledger refused (tested on its own). */
    private static boolean isLegal(EscrowStatus status, Cmd cmd) {
        return LEGAL.getOrDefault(status, Map.of()).containsKey(cmd)
                || status == EscrowStatus.RELEASED && cmd == Cmd.RELEASE_EXPIRED;
    }

    static Stream<Arguments> legal() {
        List<Arguments> pairs = new ArrayList<>();
        LEGAL.forEach((status, outcomes) -> outcomes.forEach((cmd, outcome) -> pairs.add(Arguments.of(status, cmd, outcome))));
        return pairs.stream();
    }

    static Stream<Arguments> illegal() {
        List<Arguments> pairs = new ArrayList<>();
        for (EscrowStatus status : EscrowStatus.values()) {
            for (Cmd cmd : Cmd.values()) {
                if (!isLegal(status, cmd)) {
                    boolean mismatch = status == EscrowStatus.LOCKED && cmd == Cmd.COMPLETE_WITH_MISMATCHING_PROOF;
                    pairs.add(Arguments.of(status, cmd, mismatch ? Rejection.ProofMismatch.class : Rejection.InvalidState.class));
                }
            }
        }
        return pairs.stream();
    }

    @ParameterizedTest(name = "{0} x {1} -> {2}")
    @MethodSource("legal")
    void legalCommandsMoveTheEscrowAndAnnounceIt(EscrowStatus from, Cmd cmd, Outcome outcome) {
        Escrow escrow = escrow(from, cmd.withExpectedProof);
        Result<Transition<Escrow>> result = EscrowMachine.apply(escrow, cmd.command, cmd.at);

        assertThat(result.isOk()).as("accepted, got %s", result).isTrue();
        Escrow next = result.value().state();
        assertThat(next.status()).isEqualTo(outcome.status());
        assertThat(next.proof()).isEqualTo(outcome.proof());
        assertThat(next.settleReason()).isEqualTo(Optional.ofNullable(outcome.reason()));
        assertThat(next.updatedAt()).isEqualTo(cmd.at);
        assertThat(next).usingRecursiveComparison()
                .ignoringFields("status", "proof", "settleReason", "dispute", "updatedAt").isEqualTo(escrow);

        DomainEvent expected = outcome.event() == EventType.ESCROW_DISPUTED
                ? new DomainEvent.EscrowDisputed(next, cmd.at)
                : new DomainEvent.EscrowSettled(next, cmd.at);
        assertThat(result.value().events()).containsExactly(expected);
        assertThat(expected.type()).isEqualTo(outcome.event());
    }

    /** The chain refused the release for the deadline: the escrow is locked again, announcing nothing, for the timeout to refund. */
    @Test
    void aReleaseTheLedgerRefusedForTheDeadlineLocksTheEscrowAgain() {
        Escrow released = EscrowMachine.apply(escrow(EscrowStatus.LOCKED, true), Cmd.COMPLETE_WITH_MATCHING_PROOF.command,
                BEFORE_TIMEOUT).value().state().withSettleTx(new TxId("tx_SSSSSSSSSSSSSSSSSSSSSSSS"));

        Transition<Escrow> reopened = EscrowMachine.apply(released, Cmd.RELEASE_EXPIRED.command, Cmd.RELEASE_EXPIRED.at)
                .value();

        assertThat(reopened.state().status()).isEqualTo(EscrowStatus.LOCKED);
        assertThat(reopened.state().proof()).isEmpty();
        assertThat(reopened.state().settleTx()).isEmpty();
        assertThat(reopened.state().settleReason()).isEmpty();
        assertThat(reopened.events()).isEmpty();
        assertThat(EscrowMachine.apply(reopened.state(), new EscrowCommand.Timeout(), Cmd.RELEASE_EXPIRED.at).value()
                .state().status()).isEqualTo(EscrowStatus.REFUNDED);
    }

    @Test
    void raisingADisputeRecordsIt() {
        Escrow disputed = EscrowMachine.apply(escrow(EscrowStatus.LOCKED, true), Cmd.RAISE.command, Cmd.RAISE.at)
                .value().state();
        assertThat(disputed.dispute()).contains(DISPUTE);
        assertThat(disputed.settleReason()).isEmpty();
    }

    @ParameterizedTest(name = "{0} x {1} is refused with {2}")
    @MethodSource("illegal")
    void everyOtherCommandIsRefusedByName(EscrowStatus from, Cmd cmd, Class<? extends Rejection> kind) {
        Result<Transition<Escrow>> result = EscrowMachine.apply(escrow(from, cmd.withExpectedProof), cmd.command, cmd.at);
        assertThat(result).isInstanceOf(Result.Refused.class);
        assertThat(result.rejection()).isInstanceOf(kind);
    }

    @Test
    void exactlyTheLegalPairsAreAccepted() {
        for (EscrowStatus status : EscrowStatus.values()) {
            for (Cmd cmd : Cmd.values()) {
                assertThat(EscrowMachine.apply(escrow(status, cmd.withExpectedProof), cmd.command, cmd.at).isOk())
                        .as("%s x %s", status, cmd).isEqualTo(isLegal(status, cmd));
            }
        }
    }

    @Test
    void theSettledEventCarriesTheEscrowAfterTheChangeInItsSendersOrder() {
        Transition<Escrow> refunded = EscrowMachine.apply(escrow(EscrowStatus.LOCKED, true),
                Cmd.TIMEOUT_AT_TIMEOUT.command, TIMEOUT_AT).value();
        assertThat(refunded.events()).containsExactly(new DomainEvent.EscrowSettled(refunded.state(), TIMEOUT_AT));
        assertThat(refunded.events().get(0).walletId()).contains(FROM);
        assertThat(refunded.events().get(0).type()).isEqualTo(EventType.ESCROW_REFUNDED);
        assertThat(refunded.state().settleReason()).contains("timeout");
    }

    private static Escrow escrow(EscrowStatus status, boolean withExpectedProof) {
        return new Escrow(ESCROW, ORG, FROM, TO, RECEIVER, Optional.empty(), AMOUNT, "summarise the report", TIMEOUT_SECONDS,
                TIMEOUT_AT, withExpectedProof ? Optional.of(EXPECTED_PROOF) : Optional.empty(), status,
                status == EscrowStatus.RELEASED ? Optional.of(EXPECTED_PROOF) : Optional.empty(),
                status == EscrowStatus.DISPUTED ? Optional.of(DISPUTE) : Optional.empty(),
                new TxId("tx_LLLLLLLLLLLLLLLLLLLLLLLL"), Optional.empty(),
                status.isTerminal() ? Optional.of("proof_verified") : Optional.empty(), CREATED, CREATED);
    }
}
