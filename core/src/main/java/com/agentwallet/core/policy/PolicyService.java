package com.agentwallet.core.policy;

import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerAdmin;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * Use cases of policies and of the recipient categories they block. Every change writes an audit
 * entry with the diff of changed fields and fires {@code policy.updated} with the same diff; the
 * chain's copy of the policy is rewritten in the same step.
 */
public final class PolicyService {
    private final Storage storage;
    private final LedgerPort ledger;
    private final EventPublisher events;
    private final IdGenerator ids;
    private final Clock clock;

    public PolicyService(Storage storage, LedgerPort ledger, EventPublisher events, IdGenerator ids, Clock clock) {
        this.storage = requireNonNull(storage, "storage is null");
        this.ledger = requireNonNull(ledger, "ledger is null");
        this.events = requireNonNull(events, "events is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** A new policy; a replay of {@code key} answers the policy it made, as it is now. */
    public Result<Policy> create(CreatePolicy command, RequestKey key) {
        return storage.inTransaction(stores -> key.once(stores, clock.instant(),
                () -> Result.ok(insert(stores, command.orgId(), command.name(), command.rules(), command.actor())),
                policy -> policy.id().value(), subject -> madeBefore(stores, command.orgId(), subject)));
    }

    /** A new policy from an existing one with {@code overrides} applied; named "… (copy)" unless renamed. */
    public Result<Policy> clone(OrgId orgId, PolicyId sourceId, PolicyPatch overrides, Actor actor, RequestKey key) {
        return storage.inTransaction(stores -> key.once(stores, clock.instant(),
                () -> Result.found(stores.policies().find(orgId, sourceId), "policy", sourceId).map(source -> {
                    PolicyPatch patch = overrides.name().isKeep()
                            ? overrides.withName(copyName(source.name())) : overrides;
                    return insert(stores, orgId, patch.applyToName(source.name()), patch.applyTo(source.rules()), actor);
                }), policy -> policy.id().value(), subject -> madeBefore(stores, orgId, subject)));
    }

    /** The policy a request key's first use made; deleted since, it is not found. */
    private static Result<Policy> madeBefore(Stores stores, OrgId orgId, String subject) {
        PolicyId id = new PolicyId(subject);
        return Result.found(stores.policies().find(orgId, id), "policy", id);
    }

    /** Applies a PATCH; a patch that changes nothing writes nothing and fires nothing. */
    public Result<Policy> update(OrgId orgId, PolicyId policyId, PolicyPatch patch, Actor actor) {
        return storage.inTransaction(stores -> Result.found(stores.policies().lock(orgId, policyId), "policy", policyId)
                .map(current -> {
                    Instant now = clock.instant();
                    Policy candidate = new Policy(policyId, orgId, patch.applyToName(current.name()),
                            patch.applyTo(current.rules()), current.version() + 1, current.createdAt(), now);
                    List<FieldChange> changes = FieldChange.diff(current.fields(), candidate.fields());
                    if (changes.isEmpty()) {
                        return current;
                    }
                    stores.policies().update(candidate);
                    writeToLedger(stores, candidate);
                    stores.policyAudit().append(new PolicyAuditEntry(policyId, orgId, candidate.version(),
                            PolicyAuditEntry.Action.UPDATED, actor, now, changes));
                    events.publish(stores, new DomainEvent.PolicyUpdated(orgId, policyId, candidate.version(), changes, now));
                    return candidate;
                }));
    }

    /** Deletes a policy no wallet uses; its audit log stays. */
    public Result<Policy> delete(OrgId orgId, PolicyId policyId, Actor actor) {
        return storage.inTransaction(stores -> Result.found(stores.policies().lock(orgId, policyId), "policy", policyId)
                .flatMap(policy -> {
                    if (stores.wallets().anyUsesPolicy(orgId, policyId)) {
                        return Result.refused(new Rejection.InvalidState(
                                "Policy " + policyId + " is attached to a wallet; attach another policy first"));
                    }
                    stores.policies().delete(orgId, policyId);
                    stores.policyAudit().append(new PolicyAuditEntry(policyId, orgId, policy.version() + 1,
                            PolicyAuditEntry.Action.DELETED, actor, clock.instant(), List.of()));
                    return Result.ok(policy);
                }));
    }

    public Result<Policy> get(OrgId orgId, PolicyId policyId) {
        return storage.inTransaction(stores -> Result.found(stores.policies().find(orgId, policyId), "policy", policyId));
    }

    public Page<Policy> list(OrgId orgId, PageRequest page) {
        return storage.inTransaction(stores -> stores.policies().list(orgId, page));
    }

    public Result<Page<PolicyAuditEntry>> auditLog(OrgId orgId, PolicyId policyId, PageRequest page) {
        return storage.inTransaction(stores -> Result.found(stores.policies().find(orgId, policyId), "policy", policyId)
                .map(policy -> stores.policyAudit().list(orgId, policyId, page)));
    }

    /**
     * Puts a recipient in a category (or moves it). Policies blocking the old or new category get
     * their on-chain copy rewritten, since the chain blocks recipients, not categories.
     */
    public void categorise(OrgId orgId, String recipient, String category) {
        ValidationException.check(PolicyRules.isRecipient(recipient), "recipient", "not a valid recipient");
        ValidationException.check(PolicyRules.CATEGORY.matcher(category).matches(), "category",
                "category names are lowercase letters, digits, '_', '.' and '-' (at most 64)");
        storage.inTransaction(stores -> {
            Optional<String> previous = stores.recipientCategories().categoryOf(orgId, recipient);
            stores.recipientCategories().put(orgId, recipient, category);
            Set<String> touched = new TreeSet<>(Set.of(category));
            previous.ifPresent(touched::add);
            for (Policy policy : stores.policies().blockingAny(orgId, touched)) {
                writeToLedger(stores, policy);
            }
            return touched;
        });
    }

    public Optional<String> categoryOf(OrgId orgId, String recipient) {
        return storage.inTransaction(stores -> stores.recipientCategories().categoryOf(orgId, recipient));
    }

    private Policy insert(Stores stores, OrgId orgId, String name, PolicyRules rules, Actor actor) {
        Instant now = clock.instant();
        Policy policy = new Policy(ids.policy(), orgId, name, rules, 1, now, now);
        stores.policies().insert(policy);
        writeToLedger(stores, policy);
        Map<String, Object> unset = new LinkedHashMap<>();
        policy.fields().keySet().forEach(field -> unset.put(field, null));
        stores.policyAudit().append(new PolicyAuditEntry(policy.id(), orgId, policy.version(),
                PolicyAuditEntry.Action.CREATED, actor, now, FieldChange.diff(unset, policy.fields())));
        return policy;
    }

    private void writeToLedger(Stores stores, Policy policy) {
        Set<String> blocked = new TreeSet<>(stores.recipientCategories()
                .recipientsIn(policy.orgId(), policy.rules().blockedCategories()));
        LedgerAdmin.requireSequenced(ledger, stores.adminSequence(), sequence -> new LedgerInstruction.WritePolicy(
                "policy:" + policy.id() + ":v" + policy.version() + ":s" + sequence, policy.orgId(), policy.id(),
                sequence, policy.rules(), blocked));
    }

    private static String copyName(String name) {
        String copy = name + " (copy)";
        return copy.length() <= Policy.MAX_NAME_LENGTH ? copy : name;
    }
}
