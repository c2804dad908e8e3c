package com.agentwallet.core.policy;

import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.money.Usdc;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Everything the policy engine looks at for one attempt. {@code spend} must already be advanced to
 * {@code now}; {@code recipientCategory} is the organisation's category of the recipient, if any.
 */
public record PaymentCheck(
        WalletId walletId,
        long sessionVersion,
        Optional<SessionGrant> session,
        Usdc amount,
        String recipient,
        Optional<String> recipientCategory,
        SpendSummary spend,
        Instant now,
        Kind kind) {

    /** A payment can wait for a co-signature; an escrow lock cannot. */
    public enum Kind {
        PAYMENT, PAYMENT_WITH_CO_SIGN_INTENT, ESCROW_LOCK
    }

    public PaymentCheck {
        requireNonNull(walletId, "walletId is null");
        requireNonNull(session, "session is null");
        requireNonNull(amount, "amount is null");
        requireNonNull(recipient, "recipient is null");
        requireNonNull(recipientCategory, "recipientCategory is null");
        requireNonNull(spend, "spend is null");
        requireNonNull(now, "now is null");
        requireNonNull(kind, "kind is null");
    }
}
