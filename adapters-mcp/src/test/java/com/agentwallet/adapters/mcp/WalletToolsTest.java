package com.agentwallet.adapters.mcp;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.testing.TestCoSigner;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The tools' logic on the core's in-memory ports: what a model reads back for each outcome. */
class WalletToolsTest {
    private static final String ORIGIN = "https://wallet.example:8443";
    private static final String SHOP = Addresses.external("shop");

    private final CoreFixture core = new CoreFixture();
    private final Scenario scenario = new Scenario(core);
    private final WalletTools tools = new WalletTools(core.wallets, core.payments, core.escrows);
    private final OrgId org = scenario.organisation("10000.00");
    private final TestCoSigner coSigner = new TestCoSigner(7);

    private Agent agent(Policy policy, String funding) {
        Scenario.FundedWallet wallet = scenario.wallet(org, policy, "agent-" + core.ids.randomPart(), funding);
        return new Agent(org, wallet.session(), ORIGIN);
    }

    private static Arguments arguments(Object... namesAndValues) {
        Map<String, Object> values = new HashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            values.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return new Arguments(values);
    }

    private static String text(CallToolResult result) {
        return ((TextContent) result.content().get(0)).text();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(CallToolResult result) {
        return (Map<String, Object>) result.structuredContent();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> error(CallToolResult result) {
        return (Map<String, Object>) structured(result).get("error");
    }

    @Test
    @SuppressWarnings("unchecked")
    void getWalletSaysWhatThePolicyStillAllowsAfterAPayment() {
        Agent agent = agent(scenario.policy(org, rules().maxPerTx("50.00").maxPerDay("200.00").velocityCap(10)
                .build()), "100.00");
        tools.pay(agent, arguments("to", SHOP, "amount", "30.00", "idempotency_key", "order-1"));

        CallToolResult wallet = tools.getWallet(agent, arguments());

        assertThat(wallet.isError()).isFalse();
        assertThat(text(wallet)).contains("holds 70.00 USDC", "at most 50.00 USDC per payment",
                "170.00 USDC more in the rolling 24 hours (cap 200.00 USDC)", "9 more payments in the rolling hour",
                "no monthly cap");
        assertThat(structured(wallet)).containsEntry("balance", "70.00").containsEntry("currency", "USDC")
                .containsEntry("status", "active");
        assertThat((Map<String, Object>) structured(wallet).get("policy")).containsEntry("left_today", "170.00")
                .containsEntry("payments_left_this_hour", 9).containsEntry("left_this_month", null)
                .containsEntry("largest_payment_now", "50.00");
    }

    @Test
    void aPaymentOverTheCapIsAnErrorResultWithTheRuleItsLimitAndTheAttempt() {
        Agent agent = agent(scenario.policy(org, rules().maxPerTx("50.00").build()), "100.00");

        CallToolResult blocked = tools.pay(agent, arguments("to", SHOP, "amount", "60.00", "idempotency_key", "k1"));

        assertThat(blocked.isError()).isTrue();
        assertThat(text(blocked)).contains("max_per_tx (limit 50.00 USDC, this payment would make it 60.00 USDC)");
        assertThat(error(blocked)).containsEntry("code", "policy_violation")
                .containsEntry("violation", Map.of("rule", "max_per_tx", "limit", "50.00", "attempted", "60.00"));
    }

    @Test
    void aPaymentAtTheThresholdIsPendingCoSignWithTheInboxLinkAndNotAnError() {
        Agent agent = agent(scenario.policy(org, rules().coSignAtOrAbove("100.00", coSigner).build()), "500.00");

        CallToolResult held = tools.pay(agent, arguments("to", SHOP, "amount", "100.00", "idempotency_key", "k1"));

        assertThat(held.isError()).isFalse();
        assertThat(structured(held)).containsEntry("status", "pending_co_sign")
                .containsEntry("co_sign_inbox", ORIGIN + "/dashboard/co-sign");
        assertThat(text(held)).contains("pending_co_sign", ORIGIN + "/dashboard/co-sign",
                "get_payment {\"payment_id\": \"" + structured(held).get("payment_id") + "\"}");
    }

    @Test
    void aRetryWithTheSameKeyAnswersTheSamePaymentAndAnotherBodyIsAConflict() {
        Agent agent = agent(scenario.policy(org, rules().build()), "100.00");
        Arguments payment = arguments("to", SHOP, "amount", "7.25", "idempotency_key", "order-7");

        CallToolResult first = tools.pay(agent, payment);
        CallToolResult retry = tools.pay(agent, payment);
        CallToolResult other = tools.pay(agent, arguments("to", SHOP, "amount", "8.00", "idempotency_key", "order-7"));

        assertThat(structured(retry)).containsEntry("payment_id", structured(first).get("payment_id"))
                .containsEntry("replayed", true);
        assertThat(text(retry)).contains("this is that same payment, not a new one");
        assertThat(error(other)).containsEntry("code", "idempotency_conflict");
        assertThat(core.wallets.get(org, agent.walletId()).value().balance().toString()).isEqualTo("92.75");
    }

    @Test
    void checkPaymentDecidesWithoutRecordingAnything() {
        Agent agent = agent(scenario.policy(org, rules().maxPerTx("50.00").build()), "100.00");

        CallToolResult allowed = tools.checkPayment(agent, arguments("to", SHOP, "amount", "10.00"));
        CallToolResult blocked = tools.checkPayment(agent, arguments("to", SHOP, "amount", "60.00"));

        assertThat(structured(allowed)).containsEntry("decision", "allowed");
        assertThat(blocked.isError()).isFalse();
        assertThat(structured(blocked)).containsEntry("decision", "blocked")
                .containsEntry("violation", Map.of("rule", "max_per_tx", "limit", "50.00", "attempted", "60.00"));
        assertThat((List<?>) structured(tools.listTransactions(agent, arguments("type", "payment")))
                .get("transactions")).isEmpty();
    }

    @Test
    void anotherWalletsPaymentAndAMalformedIdAreNotFound() {
        Policy policy = scenario.policy(org, rules().build());
        Agent mine = agent(policy, "100.00");
        Agent theirs = agent(policy, "100.00");
        Object theirPayment = structured(tools.pay(theirs, arguments("to", SHOP, "amount", "5.00",
                "idempotency_key", "theirs"))).get("payment_id");

        assertThat(error(tools.getPayment(mine, arguments("payment_id", theirPayment))))
                .containsEntry("code", "not_found");
        assertThat(error(tools.getPayment(mine, arguments("payment_id", "not-an-id"))))
                .containsEntry("code", "not_found");
        assertThat(structured(tools.getPayment(theirs, arguments("payment_id", theirPayment))))
                .containsEntry("payment_id", theirPayment);
    }

    @Test
    void escrowsMoveOnlyForTheirParties() {
        Policy policy = scenario.policy(org, rules().build());
        Agent sender = agent(policy, "100.00");
        Agent receiver = agent(policy, "0");
        Agent stranger = agent(policy, "100.00");
        CallToolResult locked = tools.createEscrow(sender, arguments("to_wallet", receiver.walletId().value(),
                "amount", "20.00", "timeout_seconds", 3600, "idempotency_key", "escrow-1"));
        Object escrowId = structured(locked).get("escrow_id");
        String proof = "a".repeat(64);

        assertThat(structured(locked)).containsEntry("status", "locked").containsEntry("amount", "20.00");
        assertThat(error(tools.completeEscrow(stranger, arguments("escrow_id", escrowId, "proof", proof))))
                .containsEntry("code", "not_found");
        assertThat(structured(tools.completeEscrow(receiver, arguments("escrow_id", escrowId, "proof", proof))))
                .containsEntry("status", "released");
    }

    @Test
    void anAmountOfSevenDecimalsIsRefusedNamingTheArgument() {
        Agent agent = agent(scenario.policy(org, rules().build()), "100.00");

        assertThatThrownBy(() -> tools.pay(agent, arguments("to", SHOP, "amount", "1.0000001",
                "idempotency_key", "k"))).isInstanceOfSatisfying(ValidationException.class,
                e -> assertThat(Answers.invalid(e).structuredContent())
                        .isEqualTo(Map.of("error", Map.of("code", "validation_error", "message", e.getMessage(),
                                "param", "amount"))));
    }
}
