package com.agentwallet.core.wallet;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.money.Usdc;

import static java.util.Objects.requireNonNull;

/**
 * A wallet's low-balance rule: when a debit takes the balance below {@code triggerBelow},
 * {@code balance.low} fires, and when enabled, {@code topupAmount} is allocated from the
 * organisation balance.
 */
public record AutoTopup(boolean enabled, Usdc triggerBelow, Usdc topupAmount) {
    public AutoTopup {
        requireNonNull(triggerBelow, "triggerBelow is null");
        requireNonNull(topupAmount, "topupAmount is null");
        ValidationException.check(!topupAmount.isZero(), "topup_amount", "'topup_amount' must be greater than zero");
    }

    /** Whether a debit from {@code before} to {@code after} crossed the trigger downwards. */
    public boolean crossedBy(Usdc before, Usdc after) {
        return !before.isLessThan(triggerBelow) && after.isLessThan(triggerBelow);
    }
}
