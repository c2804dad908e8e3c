package com.agentwallet.core.testing;

import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.policy.CreatePolicy;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.CreatedWallet;
import com.agentwallet.core.wallet.Wallet;

import java.util.List;
import java.util.Optional;

/** Short ways to set up the usual starting points of a core test. */
public final class Scenario {
    public static final Actor ADMIN = new Actor("key_admin");

    private final CoreFixture core;

    public Scenario(CoreFixture core) {
        this.core = core;
    }

    /** An organisation with {@code deposit} USDC in its treasury. */
    public OrgId organisation(String deposit) {
        Organisation org = core.organisations.create("Org");
        core.organisations.deposit(org.id(), Usdc.parse(deposit)).value();
        return org.id();
    }

    public Policy policy(OrgId orgId, PolicyRules rules) {
        return core.policies.create(new CreatePolicy(orgId, "Policy", rules, ADMIN), RequestKey.none()).value();
    }

    /** A wallet under {@code policy}, funded with {@code funding} (zero for none). */
    public FundedWallet wallet(OrgId orgId, Policy policy, String agentId, String funding) {
        CreatedWallet created = core.wallets.create(new CreateWallet(orgId, agentId, "label", policy.id(), List.of(),
                Optional.empty()), RequestKey.none()).value();
        Usdc amount = Usdc.parse(funding);
        Wallet wallet = amount.isZero() ? created.wallet() : core.wallets.fund(orgId, created.wallet().id(), amount, RequestKey.none()).value();
        return new FundedWallet(wallet, created.session());
    }

    public Result<PaymentResult> pay(FundedWallet wallet, String to, String amount) {
        return core.payments.pay(payment(wallet, to, amount));
    }

    public PayCommand payment(FundedWallet wallet, String to, String amount) {
        return new PayCommand(wallet.wallet().orgId(), wallet.wallet().id(), to, Usdc.parse(amount), Optional.empty(),
                Optional.empty(), false, Optional.of(wallet.session()), Optional.empty());
    }

    /** A wallet and the grant of its current session token. */
    public record FundedWallet(Wallet wallet, SessionGrant session) {
    }
}
