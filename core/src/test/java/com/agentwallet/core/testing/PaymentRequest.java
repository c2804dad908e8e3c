package com.agentwallet.core.testing;

import com.agentwallet.core.common.Actor;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.policy.SessionGrant;

import java.util.Optional;

/**
 * A payment command built step by step:
 * {@code paymentFrom(wallet).to(address).amount("10").idempotencyKey("k").build()}. By default it
 * carries the wallet's session grant from {@link Scenario.FundedWallet}.
 */
public final class PaymentRequest {
    private final Scenario.FundedWallet from;
    private String to = Addresses.external("default-payee");
    private Usdc amount = Usdc.parse("1");
    private Optional<String> memo = Optional.empty();
    private Optional<String> idempotencyKey = Optional.empty();
    private boolean coSignIntent;
    private Optional<SessionGrant> session;
    private Optional<Actor> initiator = Optional.empty();

    private PaymentRequest(Scenario.FundedWallet from) {
        this.from = from;
        this.session = Optional.of(from.session());
    }

    public static PaymentRequest paymentFrom(Scenario.FundedWallet wallet) {
        return new PaymentRequest(wallet);
    }

    public PaymentRequest to(String recipient) {
        to = recipient;
        return this;
    }

    public PaymentRequest amount(String usdc) {
        amount = Usdc.parse(usdc);
        return this;
    }

    public PaymentRequest memo(String text) {
        memo = Optional.of(text);
        return this;
    }

    public PaymentRequest idempotencyKey(String key) {
        idempotencyKey = Optional.of(key);
        return this;
    }

    public PaymentRequest withCoSignIntent() {
        coSignIntent = true;
        return this;
    }

    public PaymentRequest session(SessionGrant grant) {
        session = Optional.of(grant);
        return this;
    }

    public PaymentRequest withoutSession() {
        session = Optional.empty();
        return this;
    }

    /** The credential making the payment, which may then not co-sign it. */
    public PaymentRequest by(Actor credential) {
        initiator = Optional.of(credential);
        return this;
    }

    public PayCommand build() {
        return new PayCommand(from.wallet().orgId(), from.wallet().id(), to, amount, memo, idempotencyKey,
                coSignIntent, session, initiator);
    }
}
