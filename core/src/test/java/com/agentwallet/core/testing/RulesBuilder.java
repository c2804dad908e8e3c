package com.agentwallet.core.testing;

import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Readable policy rules for tests: {@code rules().maxPerTx("100").maxPerDay("500").build()}. */
public final class RulesBuilder {
    private Optional<Usdc> maxPerTx = Optional.empty();
    private Optional<Usdc> maxPerDay = Optional.empty();
    private Optional<Usdc> maxPerMonth = Optional.empty();
    private Optional<Integer> velocityCap = Optional.empty();
    private List<String> allowedRecipients = List.of();
    private Set<String> blockedCategories = Set.of();
    private Optional<Instant> expiry = Optional.empty();
    private Optional<Usdc> requireCoSign = Optional.empty();
    private Optional<String> coSigner = Optional.empty();

    private RulesBuilder() {
    }

    /** No caps, any recipient, no expiry, no co-sign. */
    public static RulesBuilder rules() {
        return new RulesBuilder();
    }

    public RulesBuilder maxPerTx(String amount) {
        maxPerTx = Optional.of(Usdc.parse(amount));
        return this;
    }

    public RulesBuilder maxPerDay(String amount) {
        maxPerDay = Optional.of(Usdc.parse(amount));
        return this;
    }

    public RulesBuilder maxPerMonth(String amount) {
        maxPerMonth = Optional.of(Usdc.parse(amount));
        return this;
    }

    public RulesBuilder velocityCap(int payments) {
        velocityCap = Optional.of(payments);
        return this;
    }

    public RulesBuilder allowedRecipients(String... recipients) {
        allowedRecipients = List.of(recipients);
        return this;
    }

    public RulesBuilder blockedCategories(String... categories) {
        blockedCategories = Set.of(categories);
        return this;
    }

    public RulesBuilder expiry(Instant at) {
        expiry = Optional.of(at);
        return this;
    }

    /** Payments at or above {@code threshold} wait for {@code coSigner}'s signature. */
    public RulesBuilder coSignAtOrAbove(String threshold, TestCoSigner signer) {
        requireCoSign = Optional.of(Usdc.parse(threshold));
        coSigner = Optional.of(signer.publicKey());
        return this;
    }

    /** A co-signer without a threshold: only payments sent with co-sign intent wait for it. */
    public RulesBuilder coSigner(TestCoSigner signer) {
        coSigner = Optional.of(signer.publicKey());
        return this;
    }

    public PolicyRules build() {
        return new PolicyRules(maxPerTx, maxPerDay, maxPerMonth, velocityCap, allowedRecipients, blockedCategories,
                expiry, requireCoSign, coSigner);
    }
}
