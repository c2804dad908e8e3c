package com.agentwallet.core.payment;

import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.Scenario;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class PaymentSmokeTest {
    @Test
    void aPaymentWithinPolicyIsConfirmedAndDebited() {
        CoreFixture core = new CoreFixture();
        Scenario given = new Scenario(core);
        var org = given.organisation("1000.00");
        var policy = given.policy(org, new PolicyRules(Optional.of(Usdc.parse("100")), Optional.empty(),
                Optional.empty(), Optional.empty(), java.util.List.of(), java.util.Set.of(), Optional.empty(),
                Optional.empty(), Optional.empty()));
        var wallet = given.wallet(org, policy, "agent-1", "500.00");
        var result = given.pay(wallet, "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV", "25.50");
        assertThat(result.value().transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(core.wallets.get(org, wallet.wallet().id()).value().balance()).isEqualTo(Usdc.parse("474.50"));
    }
}
