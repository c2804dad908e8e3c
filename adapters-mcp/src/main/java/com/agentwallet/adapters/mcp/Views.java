package com.agentwallet.adapters.mcp;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.wallet.Allowance;
import com.agentwallet.core.wallet.Wallet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.agentwallet.adapters.mcp.Answers.usdc;

/** The structured content and the sentences of wallets, transactions and escrows, as the tools answer them. */
final class Views {
    private Views() {
    }

    static Map<String, Object> wallet(Allowance allowance) {
        Wallet wallet = allowance.wallet();
        PolicyRules rules = allowance.rules();
        Map<String, Object> policy = new LinkedHashMap<>();
        policy.put("max_per_payment", amount(rules.maxPerTx()));
        policy.put("max_per_day", amount(rules.maxPerDay()));
        policy.put("left_today", amount(allowance.leftToday()));
        policy.put("max_per_month", amount(rules.maxPerMonth()));
        policy.put("left_this_month", amount(allowance.leftThisMonth()));
        policy.put("velocity_cap", rules.velocityCap().orElse(null));
        policy.put("payments_left_this_hour", allowance.paymentsLeftThisHour().orElse(null));
        policy.put("co_sign_at_or_above", amount(rules.requireCoSign()));
        policy.put("allowed_recipients", rules.allowedRecipients());
        policy.put("expires_at", rules.expiry().map(Timestamps::format).orElse(null));
        policy.put("expired", allowance.isExpired());
        policy.put("largest_payment_now", allowance.largestPayment().toString());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("wallet_id", wallet.id().value());
        json.put("agent_id", wallet.agentId());
        json.put("label", wallet.label());
        json.put("status", wallet.status().wireName());
        json.put("balance", wallet.balance().toString());
        json.put("currency", Usdc.CURRENCY);
        json.put("policy_id", wallet.policyId().value());
        json.put("policy", policy);
        json.put("as_of", Timestamps.format(allowance.at()));
        return json;
    }

    static String walletText(Allowance allowance) {
        Wallet wallet = allowance.wallet();
        PolicyRules rules = allowance.rules();
        List<String> allows = new ArrayList<>();
        allows.add(rules.maxPerTx().map(cap -> "at most " + usdc(cap) + " per payment").orElse("no per-payment cap"));
        allows.add(rules.maxPerDay().map(cap -> usdc(allowance.leftToday().orElseThrow())
                + " more in the rolling 24 hours (cap " + usdc(cap) + ")").orElse("no daily cap"));
        allows.add(rules.maxPerMonth().map(cap -> usdc(allowance.leftThisMonth().orElseThrow())
                + " more in the rolling 30 days (cap " + usdc(cap) + ")").orElse("no monthly cap"));
        allows.add(rules.velocityCap().map(cap -> allowance.paymentsLeftThisHour().orElseThrow()
                + " more payments in the rolling hour (cap " + cap + ")").orElse("no cap on payments per hour"));
        rules.requireCoSign().ifPresent(threshold -> allows.add("payments of " + usdc(threshold)
                + " or more wait for an operator's co-signature"));
        if (!rules.allowedRecipients().isEmpty()) {
            allows.add("only to " + String.join(", ", rules.allowedRecipients()));
        }
        rules.expiry().ifPresent(expiry -> allows.add((allowance.isExpired() ? "it expired at " : "it expires at ")
                + Timestamps.format(expiry)));
        return "Wallet " + wallet.id().value() + " (agent " + wallet.agentId() + ") is " + wallet.status().wireName()
                + " and holds " + usdc(wallet.balance()) + ".\nIts policy allows now: " + String.join("; ", allows)
                + ".\nThe largest single payment no cap or the balance refuses now: "
                + usdc(allowance.largestPayment()) + ".";
    }

    static Map<String, Object> transaction(Transaction tx) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("payment_id", tx.id().value());
        json.put("type", tx.type().wireName());
        json.put("status", tx.status().wireName());
        json.put("amount", tx.amount().toString());
        json.put("currency", Usdc.CURRENCY);
        json.put("to", tx.recipient());
        json.put("memo", tx.memo().orElse(null));
        json.put("violation", tx.violation().map(Answers::violation).orElse(null));
        json.put("tx_signature", tx.signature().orElse(null));
        json.put("escrow_id", tx.escrowId().map(id -> id.value()).orElse(null));
        json.put("failure_reason", tx.failureReason().orElse(null));
        json.put("co_sign_expires_at", tx.coSign().map(coSign -> Timestamps.format(coSign.expiresAt())).orElse(null));
        json.put("created_at", Timestamps.format(tx.createdAt()));
        return json;
    }

    /** "tx_… payment of 12.50 USDC to 7Ec…: confirmed (2026-11-28T01:02:03.000Z)". */
    static String transactionLine(Transaction tx) {
        return tx.id().value() + " " + tx.type().wireName().replace('_', ' ') + " of " + usdc(tx.amount()) + " to "
                + tx.recipient() + ": " + tx.status().wireName() + " (" + Timestamps.format(tx.createdAt()) + ")"
                + tx.violation().map(violation -> " — " + Answers.blocked(violation)).orElse("")
                + tx.failureReason().map(reason -> " — " + reason).orElse("");
    }

    static Map<String, Object> escrow(Escrow escrow) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("escrow_id", escrow.id().value());
        json.put("status", escrow.status().wireName());
        json.put("from_wallet", escrow.fromWallet().value());
        json.put("to_wallet", escrow.toWallet());
        json.put("amount", escrow.amount().toString());
        json.put("currency", Usdc.CURRENCY);
        json.put("task_description", escrow.taskDescription());
        json.put("deadline", Timestamps.format(escrow.timeoutAt()));
        json.put("expected_proof", escrow.expectedProof().orElse(null));
        json.put("proof", escrow.proof().orElse(null));
        json.put("dispute_reason", escrow.dispute().map(dispute -> dispute.reason()).orElse(null));
        json.put("created_at", Timestamps.format(escrow.createdAt()));
        return json;
    }

    static String escrowLine(Escrow escrow) {
        return "Escrow " + escrow.id().value() + " of " + usdc(escrow.amount()) + " from " + escrow.fromWallet().value()
                + " to " + escrow.toWallet() + " is " + escrow.status().wireName() + " (deadline "
                + Timestamps.format(escrow.timeoutAt()) + ").";
    }

    private static String amount(Optional<Usdc> amount) {
        return amount.map(Usdc::toString).orElse(null);
    }
}
