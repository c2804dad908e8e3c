package com.agentwallet.core.wallet;

import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.Transition;
import com.agentwallet.core.event.DomainEvent;

import java.time.Instant;

/**
 * The wallet state machine: {@code active ⇄ frozen}, policy expiry freezes an active wallet, and
 * archiving ends either. Archived is terminal. A command that would not change anything (freezing
 * a frozen wallet) is refused by name rather than ignored.
 */
public final class WalletMachine {

    private WalletMachine() {
    }

    public static Result<Transition<Wallet>> apply(Wallet wallet, WalletCommand command, Instant now) {
        if (wallet.status() == WalletStatus.ARCHIVED) {
            return Transition.refuse("Wallet " + wallet.id() + " is archived");
        }
        if (command instanceof WalletCommand.Freeze) {
            return wallet.status() == WalletStatus.ACTIVE
                    ? move(wallet, WalletStatus.FROZEN, now)
                    : Transition.refuse("Wallet " + wallet.id() + " is already frozen");
        }
        if (command instanceof WalletCommand.Unfreeze) {
            return wallet.status() == WalletStatus.FROZEN
                    ? move(wallet, WalletStatus.ACTIVE, now)
                    : Transition.refuse("Wallet " + wallet.id() + " is already active");
        }
        if (command instanceof WalletCommand.PolicyExpired expired) {
            if (wallet.status() != WalletStatus.ACTIVE) {
                return Transition.refuse("Wallet " + wallet.id() + " is already frozen");
            }
            if (now.isBefore(expired.expiry())) {
                return Transition.refuse("The policy of wallet " + wallet.id() + " has not expired");
            }
            Wallet frozen = wallet.withStatus(WalletStatus.FROZEN, now);
            return Transition.to(frozen, new DomainEvent.PolicyExpired(frozen, expired.expiry(), now));
        }
        return move(wallet, WalletStatus.ARCHIVED, now);
    }

    /** An operator's change of status, announced as wallet.frozen, wallet.unfrozen or wallet.archived. */
    private static Result<Transition<Wallet>> move(Wallet wallet, WalletStatus next, Instant now) {
        Wallet moved = wallet.withStatus(next, now);
        return Transition.to(moved, new DomainEvent.WalletStatusChanged(moved, now));
    }
}
