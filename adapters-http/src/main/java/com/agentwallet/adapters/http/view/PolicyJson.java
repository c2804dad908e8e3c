package com.agentwallet.adapters.http.view;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyAuditEntry;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.FieldChange;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A spending policy on the wire: every rule, unset ones as null. */
public record PolicyJson(String object, String id, String name, String maxPerTx, String maxPerDay, String maxPerMonth,
                         Integer velocityCap, List<String> allowedRecipients, List<String> blockedCategories,
                         String expiry, String requireCoSign, String coSigner, long version, String createdAt,
                         String updatedAt) {

    public static PolicyJson of(Policy policy) {
        PolicyRules rules = policy.rules();
        return new PolicyJson("policy", policy.id().value(), policy.name(), amount(rules.maxPerTx()),
                amount(rules.maxPerDay()), amount(rules.maxPerMonth()), rules.velocityCap().orElse(null),
                rules.allowedRecipients(), rules.blockedCategories().stream().sorted().toList(),
                rules.expiry().map(Timestamps::format).orElse(null), amount(rules.requireCoSign()),
                rules.coSigner().orElse(null), policy.version(), Timestamps.format(policy.createdAt()),
                Timestamps.format(policy.updatedAt()));
    }

    private static String amount(Optional<Usdc> value) {
        return value.map(Usdc::toString).orElse(null);
    }

    /** One entry of a policy's change history: who changed what, when, as a diff of wire values. */
    public record AuditEntryJson(String object, String policyId, long version, String action, String actor,
                                 String createdAt, Map<String, Object> changes) {
        public static AuditEntryJson of(PolicyAuditEntry entry) {
            return new AuditEntryJson("policy_audit_entry", entry.policyId().value(), entry.version(),
                    entry.action().wireName(), entry.actor().id(), Timestamps.format(entry.at()),
                    FieldChange.toPayload(entry.changes()));
        }
    }
}
