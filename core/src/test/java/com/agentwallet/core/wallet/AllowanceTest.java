package com.agentwallet.core.wallet;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.Scenario;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/** What a wallet's policy still allows, read through the use case as spends enter and leave the windows. */
class AllowanceTest {
    private static final String SHOP = Addresses.external("shop");

    private final CoreFixture core = new CoreFixture();
    private final Scenario scenario = new Scenario(core);
    private final OrgId org = scenario.organisation("10000.00");

    private Allowance allowanceOf(Scenario.FundedWallet wallet) {
        return core.wallets.allowance(org, wallet.wallet().id()).value();
    }

    @Test
    void theWindowsShrinkWithEachPaymentAndGrowBackAsItLeavesThem() {
        Policy policy = scenario.policy(org, rules().maxPerTx("50.00").maxPerDay("100.00").maxPerMonth("1000.00")
                .velocityCap(3).build());
        Scenario.FundedWallet wallet = scenario.wallet(org, policy, "agent-1", "500.00");
        scenario.pay(wallet, SHOP, "40.00").value();
        scenario.pay(wallet, SHOP, "30.00").value();

        Allowance now = allowanceOf(wallet);
        assertThat(now.leftToday()).contains(Usdc.parse("30.00"));
        assertThat(now.leftThisMonth()).contains(Usdc.parse("930.00"));
        assertThat(now.paymentsLeftThisHour()).contains(1);
        assertThat(now.largestPayment()).isEqualTo(Usdc.parse("30.00"));

        core.clock.advance(Duration.ofHours(25));
        Allowance nextDay = allowanceOf(wallet);
        assertThat(nextDay.leftToday()).contains(Usdc.parse("100.00"));
        assertThat(nextDay.leftThisMonth()).contains(Usdc.parse("930.00"));
        assertThat(nextDay.paymentsLeftThisHour()).contains(3);
        assertThat(nextDay.largestPayment()).isEqualTo(Usdc.parse("50.00"));
    }

    @Test
    void noPaymentFitsWhenTheHourIsUsedUpOrThePolicyExpired() {
        Policy hourly = scenario.policy(org, rules().velocityCap(1).build());
        Scenario.FundedWallet busy = scenario.wallet(org, hourly, "agent-busy", "100.00");
        scenario.pay(busy, SHOP, "1.00").value();
        Policy expiring = scenario.policy(org, rules().expiry(core.clock.instant().plus(Duration.ofMinutes(1))).build());
        Scenario.FundedWallet late = scenario.wallet(org, expiring, "agent-late", "100.00");
        core.clock.advance(Duration.ofMinutes(2));

        assertThat(allowanceOf(busy).largestPayment()).isEqualTo(Usdc.ZERO);
        assertThat(allowanceOf(late).isExpired()).isTrue();
        assertThat(allowanceOf(late).largestPayment()).isEqualTo(Usdc.ZERO);
    }

    @Test
    void withoutCapsTheBalanceIsTheBound() {
        Scenario.FundedWallet wallet = scenario.wallet(org, scenario.policy(org, rules().build()), "agent-free", "12.50");

        Allowance allowance = allowanceOf(wallet);
        assertThat(allowance.leftToday()).isEqualTo(Optional.empty());
        assertThat(allowance.paymentsLeftThisHour()).isEqualTo(Optional.empty());
        assertThat(allowance.largestPayment()).isEqualTo(Usdc.parse("12.50"));
    }
}
