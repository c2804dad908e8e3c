package com.agentwallet.adapters.http.view;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.wallet.AutoTopup;
import com.agentwallet.core.wallet.Wallet;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/** A wallet on the wire; the session token fields appear only in the response that created them. */
public record WalletJson(String object, String id, String agentId, String label, String ownerOrg, String policyId,
                         List<String> tags, String status, String solanaAddress, String usdcBalance, String currency,
                         AutoTopupJson autoTopup, String createdAt, String updatedAt,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String sessionToken,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String sessionTokenExpiresAt) {

    public record AutoTopupJson(boolean enabled, String triggerBelow, String topupAmount) {
        static AutoTopupJson of(AutoTopup rule) {
            return new AutoTopupJson(rule.enabled(), rule.triggerBelow().toString(), rule.topupAmount().toString());
        }
    }

    public static WalletJson of(Wallet wallet) {
        return new WalletJson("wallet", wallet.id().value(), wallet.agentId(), wallet.label(), wallet.orgId().value(),
                wallet.policyId().value(), wallet.tags(), wallet.status().wireName(), wallet.address().base58(),
                wallet.balance().toString(), "USDC", wallet.autoTopup().map(AutoTopupJson::of).orElse(null),
                Timestamps.format(wallet.createdAt()), Timestamps.format(wallet.updatedAt()), null, null);
    }

    public WalletJson withSession(SessionTokenJson session) {
        return new WalletJson(object, id, agentId, label, ownerOrg, policyId, tags, status, solanaAddress, usdcBalance,
                currency, autoTopup, createdAt, updatedAt, session.sessionToken(), session.expiresAt());
    }
}
