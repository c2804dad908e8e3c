package com.agentwallet.core.testing;

import com.agentwallet.core.common.FieldUpdate;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyPatch;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/** Readable policy patches for tests: {@code patch().maxPerTx("150").clearMaxPerDay().build()}; unnamed fields are kept. */
public final class PatchBuilder {
    private FieldUpdate<String> name = FieldUpdate.keep();
    private FieldUpdate<Usdc> maxPerTx = FieldUpdate.keep();
    private FieldUpdate<Usdc> maxPerDay = FieldUpdate.keep();
    private FieldUpdate<Usdc> maxPerMonth = FieldUpdate.keep();
    private FieldUpdate<Integer> velocityCap = FieldUpdate.keep();
    private FieldUpdate<List<String>> allowedRecipients = FieldUpdate.keep();
    private FieldUpdate<Set<String>> blockedCategories = FieldUpdate.keep();
    private FieldUpdate<Instant> expiry = FieldUpdate.keep();
    private FieldUpdate<Usdc> requireCoSign = FieldUpdate.keep();
    private FieldUpdate<String> coSigner = FieldUpdate.keep();

    private PatchBuilder() {
    }

    public static PatchBuilder patch() {
        return new PatchBuilder();
    }

    public PatchBuilder name(String value) {
        name = FieldUpdate.set(value);
        return this;
    }

    public PatchBuilder maxPerTx(String amount) {
        maxPerTx = FieldUpdate.set(Usdc.parse(amount));
        return this;
    }

    public PatchBuilder maxPerDay(String amount) {
        maxPerDay = FieldUpdate.set(Usdc.parse(amount));
        return this;
    }

    public PatchBuilder clearMaxPerDay() {
        maxPerDay = FieldUpdate.clear();
        return this;
    }

    public PatchBuilder maxPerMonth(String amount) {
        maxPerMonth = FieldUpdate.set(Usdc.parse(amount));
        return this;
    }

    public PatchBuilder velocityCap(int payments) {
        velocityCap = FieldUpdate.set(payments);
        return this;
    }

    public PatchBuilder allowedRecipients(String... recipients) {
        allowedRecipients = FieldUpdate.set(List.of(recipients));
        return this;
    }

    public PatchBuilder blockedCategories(String... categories) {
        blockedCategories = FieldUpdate.set(Set.of(categories));
        return this;
    }

    public PatchBuilder expiry(Instant at) {
        expiry = FieldUpdate.set(at);
        return this;
    }

    public PatchBuilder coSignAtOrAbove(String threshold, TestCoSigner signer) {
        requireCoSign = FieldUpdate.set(Usdc.parse(threshold));
        coSigner = FieldUpdate.set(signer.publicKey());
        return this;
    }

    public PolicyPatch build() {
        return new PolicyPatch(name, maxPerTx, maxPerDay, maxPerMonth, velocityCap, allowedRecipients,
                blockedCategories, expiry, requireCoSign, coSigner);
    }
}
