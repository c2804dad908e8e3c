package com.agentwallet.core.policy;

import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.Outbox;
import com.agentwallet.core.testing.RulesBuilder;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.Scenario;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.List;

import static com.agentwallet.core.testing.PatchBuilder.patch;
import static com.agentwallet.core.testing.PaymentRequest.paymentFrom;
import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

class PolicyServiceTest {
    private static final Actor ALICE = new Actor("key_alice");
    private static final String CASINO = Addresses.external("casino");
    private static final String GROCER = Addresses.external("grocer");

    private final CoreFixture core = new CoreFixture();
    private final Scenario given = new Scenario(core);
    private final Outbox outbox = new Outbox(core);
    private OrgId org;

    @BeforeEach
    void anOrganisation() {
        org = given.organisation("1000.00");
    }

    @Nested
    class Create {
        @Test
        void writesACreatedAuditEntryWithEveryFieldThatIsSet() {
            Policy policy = create("Daily spend", rules().maxPerTx("100").velocityCap(5));

            List<PolicyAuditEntry> audit = auditOf(policy.id());

            assertThat(policy.version()).isEqualTo(1);
            assertThat(audit).singleElement().satisfies(entry -> {
                assertThat(entry.action()).isEqualTo(PolicyAuditEntry.Action.CREATED);
                assertThat(entry.version()).isEqualTo(1);
                assertThat(entry.actor()).isEqualTo(ALICE);
                assertThat(entry.at()).isEqualTo(core.clock.instant());
                assertThat(entry.changes()).contains(
                        new FieldChange("name", null, "Daily spend"),
                        new FieldChange("max_per_tx", null, "100.00"),
                        new FieldChange("velocity_cap", null, 5));
                assertThat(entry.changes()).extracting(FieldChange::field).doesNotContain("max_per_day", "expiry");
            });
        }

        @Test
        void writesThePolicyToTheLedger() {
            Policy policy = create("Daily spend", rules().maxPerTx("100"));

            assertThat(core.ledger.executed()).filteredOn(i -> i instanceof LedgerInstruction.WritePolicy)
                    .singleElement()
                    .satisfies(i -> assertThat(((LedgerInstruction.WritePolicy) i).policy()).isEqualTo(policy.id()));
        }
    }

    @Nested
    class Update {
        @Test
        void writesAnUpdatedAuditEntryWithTheDiffAndAnnouncesIt() {
            Policy policy = create("Daily spend", rules().maxPerTx("100").maxPerDay("500"));

            Policy updated = core.policies.update(org, policy.id(),
                    patch().name("Bigger spend").maxPerTx("150").build(), ALICE).value();

            assertThat(updated.version()).isEqualTo(2);
            assertThat(updated.rules().maxPerTx()).contains(Usdc.parse("150"));
            assertThat(updated.rules().maxPerDay()).contains(Usdc.parse("500"));
            assertThat(auditOf(policy.id())).first().satisfies(entry -> {
                assertThat(entry.action()).isEqualTo(PolicyAuditEntry.Action.UPDATED);
                assertThat(entry.version()).isEqualTo(2);
                assertThat(entry.changes()).containsExactly(
                        new FieldChange("name", "Daily spend", "Bigger spend"),
                        new FieldChange("max_per_tx", "100.00", "150.00"));
            });
            assertThat(outbox.single(EventType.POLICY_UPDATED).event()).isEqualTo(new DomainEvent.PolicyUpdated(org,
                    policy.id(), 2, List.of(new FieldChange("name", "Daily spend", "Bigger spend"),
                    new FieldChange("max_per_tx", "100.00", "150.00")), core.clock.instant()));
        }

        @Test
        void clearingAFieldRecordsNullAsItsNewValue() {
            Policy policy = create("Daily spend", rules().maxPerDay("500"));

            core.policies.update(org, policy.id(), patch().clearMaxPerDay().build(), ALICE).value();

            assertThat(((DomainEvent.PolicyUpdated) outbox.single(EventType.POLICY_UPDATED).event()).changes())
                    .containsExactly(new FieldChange("max_per_day", "500.00", null));
        }

        @Test
        void aPatchThatChangesNothingWritesAndAnnouncesNothing() {
            Policy policy = create("Daily spend", rules().maxPerTx("100"));
            int ledgerWrites = core.ledger.executed().size();

            Policy same = core.policies.update(org, policy.id(),
                    patch().name("Daily spend").maxPerTx("100.000000").build(), ALICE).value();

            assertThat(same).isEqualTo(policy);
            assertThat(core.policies.get(org, policy.id()).value().version()).isEqualTo(1);
            assertThat(auditOf(policy.id())).hasSize(1);
            assertThat(outbox.ofType(EventType.POLICY_UPDATED)).isEmpty();
            assertThat(core.ledger.executed()).hasSize(ledgerWrites);
        }

        @Test
        void anUnknownPolicyIsNotFound() {
            Result<Policy> result = core.policies.update(org, new PolicyId("pol_" + "n".repeat(24)),
                    patch().maxPerTx("1").build(), ALICE);

            assertThat(result.rejection()).isInstanceOf(Rejection.NotFound.class);
        }

        @Test
        void theNewRulesApplyToTheNextPaymentOfAnAttachedWallet() {
            Policy policy = create("Daily spend", rules().maxPerTx("100"));
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "500");

            core.policies.update(org, policy.id(), patch().maxPerTx("10").build(), ALICE).value();
            Result<PaymentResult> result = core.payments.pay(paymentFrom(wallet).to(GROCER).amount("50").build());

            assertThat(((Rejection.PolicyViolated) result.rejection()).violation().rule()).isEqualTo(ViolationRule.MAX_PER_TX);
        }
    }

    @Nested
    class Clone {
        @Test
        void copiesTheRulesAppliesTheOverridesAndNamesTheCopy() {
            Policy source = create("Standard", rules().maxPerTx("100").maxPerDay("500").blockedCategories("gambling"));

            Policy copy = core.policies.clone(org, source.id(), patch().maxPerDay("800").build(), ALICE, RequestKey.none()).value();

            assertThat(copy.id()).isNotEqualTo(source.id());
            assertThat(copy.name()).isEqualTo("Standard (copy)");
            assertThat(copy.version()).isEqualTo(1);
            assertThat(copy.rules().maxPerTx()).contains(Usdc.parse("100"));
            assertThat(copy.rules().maxPerDay()).contains(Usdc.parse("800"));
            assertThat(copy.rules().blockedCategories()).containsExactly("gambling");
            assertThat(core.policies.get(org, source.id()).value()).isEqualTo(source);
            assertThat(auditOf(copy.id())).singleElement()
                    .satisfies(entry -> assertThat(entry.action()).isEqualTo(PolicyAuditEntry.Action.CREATED));
        }

        @Test
        void aNameOverrideNamesTheCopy() {
            Policy source = create("Standard", rules().maxPerTx("100"));

            Policy copy = core.policies.clone(org, source.id(), patch().name("Strict").build(), ALICE, RequestKey.none()).value();

            assertThat(copy.name()).isEqualTo("Strict");
            assertThat(copy.rules()).isEqualTo(source.rules());
        }

        @Test
        void aPolicyOfAnotherOrganisationCannotBeCloned() {
            OrgId otherOrg = given.organisation("1");
            Policy foreign = given.policy(otherOrg, rules().build());

            assertThat(core.policies.clone(org, foreign.id(), patch().build(), ALICE, RequestKey.none()).rejection())
                    .isInstanceOf(Rejection.NotFound.class);
        }
    }

    @Nested
    class Delete {
        @Test
        void isRefusedWhileAWalletUsesThePolicy() {
            Policy policy = create("Standard", rules());
            given.wallet(org, policy, "agent-1", "0");

            Result<Policy> result = core.policies.delete(org, policy.id(), ALICE);

            assertThat(result.rejection()).isInstanceOf(Rejection.InvalidState.class);
            assertThat(core.policies.get(org, policy.id()).isOk()).isTrue();
            assertThat(auditOf(policy.id())).hasSize(1);
        }

        @Test
        void succeedsOnceTheWalletIsArchivedAndKeepsTheAuditLog() {
            Policy policy = create("Standard", rules());
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "0");
            core.wallets.archive(org, wallet.wallet().id()).value();

            Policy deleted = core.policies.delete(org, policy.id(), ALICE).value();

            assertThat(deleted.id()).isEqualTo(policy.id());
            assertThat(core.policies.get(org, policy.id()).rejection()).isInstanceOf(Rejection.NotFound.class);
            List<PolicyAuditEntry> audit = core.storage.inTransaction(
                    stores -> stores.policyAudit().list(org, policy.id(), PageRequest.first(10)).data());
            assertThat(audit)
                    .extracting(PolicyAuditEntry::action)
                    .containsExactly(PolicyAuditEntry.Action.DELETED, PolicyAuditEntry.Action.CREATED);
        }
    }

    @Nested
    class Categories {
        @Test
        void aRecipientInABlockedCategoryIsBlockedAndOthersAreNot() {
            Policy policy = create("No gambling", rules().blockedCategories("gambling"));
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "500");

            core.policies.categorise(org, CASINO, "gambling");
            Result<PaymentResult> toCasino = core.payments.pay(paymentFrom(wallet).to(CASINO).amount("10").build());
            Result<PaymentResult> toGrocer = core.payments.pay(paymentFrom(wallet).to(GROCER).amount("10").build());

            assertThat(core.policies.categoryOf(org, CASINO)).contains("gambling");
            Violation violation = ((Rejection.PolicyViolated) toCasino.rejection()).violation();
            assertThat(violation.rule()).isEqualTo(ViolationRule.BLOCKED_CATEGORY);
            assertThat(violation.limit()).isEqualTo("gambling");
            assertThat(violation.attempted()).isEqualTo(CASINO);
            assertThat(toGrocer.value().transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void categorisingRewritesTheLedgerCopyOfEveryPolicyBlockingTheCategory() {
            Policy policy = create("No gambling", rules().blockedCategories("gambling"));

            core.policies.categorise(org, CASINO, "gambling");

            assertThat(core.ledger.executed()).filteredOn(i -> i instanceof LedgerInstruction.WritePolicy)
                    .map(i -> (LedgerInstruction.WritePolicy) i)
                    .filteredOn(w -> w.policy().equals(policy.id()))
                    .last()
                    .satisfies(w -> assertThat(w.blockedRecipients()).containsExactly(CASINO));
        }

        @Test
        void movingARecipientToAnotherCategoryUnblocksIt() {
            Policy policy = create("No gambling", rules().blockedCategories("gambling"));
            FundedWallet wallet = given.wallet(org, policy, "agent-1", "500");
            core.policies.categorise(org, CASINO, "gambling");

            core.policies.categorise(org, CASINO, "entertainment");
            Result<PaymentResult> toCasino = core.payments.pay(paymentFrom(wallet).to(CASINO).amount("10").build());

            assertThat(toCasino.value().transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }

        @Test
        void categoriesBelongToTheOrganisation() {
            OrgId otherOrg = given.organisation("100");
            Policy foreignPolicy = given.policy(otherOrg, rules().blockedCategories("gambling").build());
            FundedWallet foreignWallet = given.wallet(otherOrg, foreignPolicy, "agent-1", "100");

            core.policies.categorise(org, CASINO, "gambling");
            Result<PaymentResult> result = core.payments.pay(paymentFrom(foreignWallet).to(CASINO).amount("10").build());

            assertThat(result.value().transaction().status()).isEqualTo(TransactionStatus.CONFIRMED);
        }
    }

    private Policy create(String name, RulesBuilder rules) {
        return core.policies.create(new CreatePolicy(org, name, rules.build(), ALICE), RequestKey.none()).value();
    }

    /** The policy's audit log, newest first. */
    private List<PolicyAuditEntry> auditOf(PolicyId policyId) {
        return core.policies.auditLog(org, policyId, PageRequest.first(100)).value().data();
    }
}
