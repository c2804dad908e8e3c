package com.agentwallet.core.wallet;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Transition;
import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.SpendSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class WalletMachineTest {
    private static final Instant CREATED = Instant.parse("2026-03-01T00:00:00Z");
    private static final Instant NOW = Instant.parse("2026-04-01T12:00:00Z");
    private static final OrgId ORG = new OrgId("org_OOOOOOOOOOOOOOOOOOOOOOOO");
    private static final WalletId WALLET = new WalletId("wal_WWWWWWWWWWWWWWWWWWWWWWWW");
    private static final PolicyId POLICY = new PolicyId("pol_PPPPPPPPPPPPPPPPPPPPPPPP");

    /** Every command, with the policy-expiry variants relative to {@link #NOW}. */
    enum Cmd {
        FREEZE(new WalletCommand.Freeze()),
        UNFREEZE(new WalletCommand.Unfreeze()),
        POLICY_EXPIRES_LATER(new WalletCommand.PolicyExpired(NOW.plusMillis(1))),
        POLICY_EXPIRED_NOW(new WalletCommand.PolicyExpired(NOW)),
        POLICY_EXPIRED_EARLIER(new WalletCommand.PolicyExpired(NOW.minus(Duration.ofHours(1)))),
        ARCHIVE(new WalletCommand.Archive());

        final WalletCommand command;

        Cmd(WalletCommand command) {
            this.command = command;
        }
    }

    static Stream<Arguments> legal() {
        return Stream.of(
                Arguments.of(WalletStatus.ACTIVE, Cmd.FREEZE, WalletStatus.FROZEN, EventType.WALLET_FROZEN,
                        statusEvent(WalletStatus.ACTIVE, WalletStatus.FROZEN)),
                Arguments.of(WalletStatus.ACTIVE, Cmd.POLICY_EXPIRED_NOW, WalletStatus.FROZEN, EventType.POLICY_EXPIRED,
                        expiredEvent(NOW)),
                Arguments.of(WalletStatus.ACTIVE, Cmd.POLICY_EXPIRED_EARLIER, WalletStatus.FROZEN, EventType.POLICY_EXPIRED,
                        expiredEvent(NOW.minus(Duration.ofHours(1)))),
                Arguments.of(WalletStatus.ACTIVE, Cmd.ARCHIVE, WalletStatus.ARCHIVED, EventType.WALLET_ARCHIVED,
                        statusEvent(WalletStatus.ACTIVE, WalletStatus.ARCHIVED)),
                Arguments.of(WalletStatus.FROZEN, Cmd.UNFREEZE, WalletStatus.ACTIVE, EventType.WALLET_UNFROZEN,
                        statusEvent(WalletStatus.FROZEN, WalletStatus.ACTIVE)),
                Arguments.of(WalletStatus.FROZEN, Cmd.ARCHIVE, WalletStatus.ARCHIVED, EventType.WALLET_ARCHIVED,
                        statusEvent(WalletStatus.FROZEN, WalletStatus.ARCHIVED)));
    }

    static Stream<Arguments> illegal() {
        return Stream.of(
                Arguments.of(WalletStatus.ACTIVE, Cmd.UNFREEZE),
                Arguments.of(WalletStatus.ACTIVE, Cmd.POLICY_EXPIRES_LATER),
                Arguments.of(WalletStatus.FROZEN, Cmd.FREEZE),
                Arguments.of(WalletStatus.FROZEN, Cmd.POLICY_EXPIRES_LATER),
                Arguments.of(WalletStatus.FROZEN, Cmd.POLICY_EXPIRED_NOW),
                Arguments.of(WalletStatus.FROZEN, Cmd.POLICY_EXPIRED_EARLIER),
                Arguments.of(WalletStatus.ARCHIVED, Cmd.FREEZE),
                Arguments.of(WalletStatus.ARCHIVED, Cmd.UNFREEZE),
                Arguments.of(WalletStatus.ARCHIVED, Cmd.POLICY_EXPIRES_LATER),
                Arguments.of(WalletStatus.ARCHIVED, Cmd.POLICY_EXPIRED_NOW),
                Arguments.of(WalletStatus.ARCHIVED, Cmd.POLICY_EXPIRED_EARLIER),
                Arguments.of(WalletStatus.ARCHIVED, Cmd.ARCHIVE));
    }

    @ParameterizedTest(name = "{0} x {1} -> {2}, {3}")
    @MethodSource("legal")
    void legalCommandsMoveTheWalletAndAnnounceIt(WalletStatus from, Cmd cmd, WalletStatus to, EventType type,
                                                  DomainEvent event) {
        Wallet wallet = wallet(from);
        Result<Transition<Wallet>> result = WalletMachine.apply(wallet, cmd.command, NOW);

        assertThat(result.isOk()).as("accepted").isTrue();
        Transition<Wallet> transition = result.value();
        assertThat(transition.state()).isEqualTo(wallet.withStatus(to, NOW));
        assertThat(transition.state().updatedAt()).isEqualTo(NOW);
        assertThat(transition.events()).containsExactly(event);
        assertThat(event.type()).isEqualTo(type);
    }

    @ParameterizedTest(name = "{0} x {1} is refused")
    @MethodSource("illegal")
    void illegalCommandsAreRefusedAsInvalidState(WalletStatus from, Cmd cmd) {
        Result<Transition<Wallet>> result = WalletMachine.apply(wallet(from), cmd.command, NOW);
        assertThat(result).isInstanceOf(Result.Refused.class);
        assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
        assertThat(result.rejection().message()).contains(WALLET.value());
    }

    @Test
    void everyStatusAndCommandPairIsCovered() {
        Set<List<Object>> covered = new HashSet<>();
        Stream.concat(legal(), illegal()).forEach(args -> {
            boolean added = covered.add(List.of(args.get()[0], args.get()[1]));
            assertThat(added).as("listed twice: %s x %s", args.get()[0], args.get()[1]).isTrue();
        });
        assertThat(covered).hasSize(WalletStatus.values().length * Cmd.values().length);
    }

    private static DomainEvent statusEvent(WalletStatus from, WalletStatus to) {
        return new DomainEvent.WalletStatusChanged(wallet(from).withStatus(to, NOW), NOW);
    }

    private static DomainEvent expiredEvent(Instant expiry) {
        return new DomainEvent.PolicyExpired(wallet(WalletStatus.ACTIVE).withStatus(WalletStatus.FROZEN, NOW), expiry, NOW);
    }

    private static Wallet wallet(WalletStatus status) {
        return new Wallet(WALLET, ORG, "agent-1", "label", POLICY, List.of("tag"), status,
                new LedgerAddress(Base58.encode(new byte[32])), Usdc.parse("25.00"), SpendSummary.EMPTY, 2,
                Optional.empty(), CREATED, CREATED);
    }
}
