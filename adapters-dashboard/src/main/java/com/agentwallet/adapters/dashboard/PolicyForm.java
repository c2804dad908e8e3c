package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.common.FieldUpdate;
import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyPatch;
import com.agentwallet.core.policy.PolicyRules;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The policy form's fields as typed, named as on the wire. A blank field is a rule not set; the
 * recipients and the blocked categories are one per line. Turned into the same {@link PolicyPatch}
 * that /v1 builds from JSON, so the rules are checked by the core alike:
 * <ul>
 * <li>on creation, the set fields apply to a policy with no rules ({@link #forCreation});</li>
 * <li>on an edit, only the fields whose value differs from the policy's go in the patch: a field
 * emptied clears the rule (as {@code null} does in a PATCH), except the recipients and categories,
 * which an emptied box sets to an empty list (as {@code []} does: any recipient, no category
 * blocked), and the name, which cannot be cleared ({@link #changesTo}).</li>
 * </ul>
 */
record PolicyForm(String name, String maxPerTx, String maxPerDay, String maxPerMonth, String velocityCap,
                  String allowedRecipients, String blockedCategories, String expiry, String requireCoSign,
                  String coSigner) {
    static final PolicyForm EMPTY = new PolicyForm("", "", "", "", "", "", "", "", "", "");

    PolicyForm {
        name = orEmpty(name);
        maxPerTx = orEmpty(maxPerTx);
        maxPerDay = orEmpty(maxPerDay);
        maxPerMonth = orEmpty(maxPerMonth);
        velocityCap = orEmpty(velocityCap);
        allowedRecipients = orEmpty(allowedRecipients);
        blockedCategories = orEmpty(blockedCategories);
        expiry = orEmpty(expiry);
        requireCoSign = orEmpty(requireCoSign);
        coSigner = orEmpty(coSigner);
    }

    /** The fields of a submitted form, by their wire names; a field not sent is blank. */
    static PolicyForm of(Map<String, List<String>> form) {
        Function<String, String> field = name -> Optional.ofNullable(form.get(name))
                .flatMap(values -> values.stream().findFirst()).orElse("");
        return new PolicyForm(field.apply("name"), field.apply("max_per_tx"), field.apply("max_per_day"),
                field.apply("max_per_month"), field.apply("velocity_cap"), field.apply("allowed_recipients"),
                field.apply("blocked_categories"), field.apply("expiry"), field.apply("require_co_sign"),
                field.apply("co_signer"));
    }

    /** The policy as the form shows it: amounts and times in their wire form, unset rules blank. */
    static PolicyForm of(Policy policy) {
        PolicyRules rules = policy.rules();
        return new PolicyForm(policy.name(), amount(rules.maxPerTx()), amount(rules.maxPerDay()),
                amount(rules.maxPerMonth()), rules.velocityCap().map(String::valueOf).orElse(""),
                String.join("\n", rules.allowedRecipients()), String.join("\n", new TreeSet<>(rules.blockedCategories())),
                rules.expiry().map(Timestamps::format).orElse(""), amount(rules.requireCoSign()),
                rules.coSigner().orElse(""));
    }

    /** The name a new policy gets; blank is the core's refusal naming {@code name}. */
    String newName() {
        return Policy.requireName(name.trim());
    }

    /** The rules of a new policy: what is filled in, the rest not set. */
    PolicyRules forCreation() {
        return new PolicyPatch(FieldUpdate.keep(),
                setIfFilled(maxPerTx, text -> Usdc.parse(text, "max_per_tx")),
                setIfFilled(maxPerDay, text -> Usdc.parse(text, "max_per_day")),
                setIfFilled(maxPerMonth, text -> Usdc.parse(text, "max_per_month")),
                setIfFilled(velocityCap, PolicyForm::velocity),
                setIfFilled(allowedRecipients, PolicyForm::lines),
                setIfFilled(blockedCategories, text -> Set.copyOf(lines(text))),
                setIfFilled(expiry, text -> Timestamps.parse(text, "expiry")),
                setIfFilled(requireCoSign, text -> Usdc.parsePositive(text, "require_co_sign")),
                setIfFilled(coSigner, text -> text)).applyTo(PolicyRules.NONE);
    }

    /** The patch that makes {@code current} read as this form: the changed fields only. */
    PolicyPatch changesTo(Policy current) {
        PolicyRules rules = current.rules();
        String typedName = name.trim();
        return new PolicyPatch(
                typedName.equals(current.name()) ? FieldUpdate.keep()
                        : typedName.isEmpty() ? FieldUpdate.clear() : FieldUpdate.set(typedName),
                change(rules.maxPerTx(), maxPerTx, text -> Usdc.parse(text, "max_per_tx")),
                change(rules.maxPerDay(), maxPerDay, text -> Usdc.parse(text, "max_per_day")),
                change(rules.maxPerMonth(), maxPerMonth, text -> Usdc.parse(text, "max_per_month")),
                change(rules.velocityCap(), velocityCap, PolicyForm::velocity),
                changeAll(rules.allowedRecipients(), lines(allowedRecipients)),
                changeAll(rules.blockedCategories(), Set.copyOf(lines(blockedCategories))),
                change(rules.expiry(), expiry, text -> Timestamps.parse(text, "expiry")),
                change(rules.requireCoSign(), requireCoSign, text -> Usdc.parsePositive(text, "require_co_sign")),
                change(rules.coSigner(), coSigner, text -> text));
    }

    private static <T> FieldUpdate<T> setIfFilled(String text, Function<String, T> parse) {
        return text.isBlank() ? FieldUpdate.keep() : FieldUpdate.set(parse.apply(text.trim()));
    }

    /** Keep when the typed value is the current one, clear when emptied, else set. */
    private static <T> FieldUpdate<T> change(Optional<T> current, String text, Function<String, T> parse) {
        Optional<T> typed = text.isBlank() ? Optional.empty() : Optional.of(parse.apply(text.trim()));
        if (typed.equals(current)) {
            return FieldUpdate.keep();
        }
        return typed.map(FieldUpdate::set).orElseGet(FieldUpdate::clear);
    }

    private static <T> FieldUpdate<T> changeAll(T current, T typed) {
        return Objects.equals(current, typed) ? FieldUpdate.keep() : FieldUpdate.set(typed);
    }

    private static Integer velocity(String text) {
        ValidationException.check(text.chars().allMatch(Character::isDigit) && text.length() <= 9, "velocity_cap",
                "'velocity_cap' must be a whole number of payments, between 0 and " + PolicyRules.MAX_VELOCITY_CAP);
        return Integer.valueOf(text);
    }

    /** The non-blank lines, trimmed, each once, in the order typed. */
    private static List<String> lines(String text) {
        return List.copyOf(new LinkedHashSet<>(Arrays.stream(text.split("\\R")).map(String::trim)
                .filter(line -> !line.isEmpty()).toList()));
    }

    private static String amount(Optional<Usdc> value) {
        return value.map(Usdc::toString).orElse("");
    }

    private static String orEmpty(String text) {
        return text == null ? "" : text;
    }
}
