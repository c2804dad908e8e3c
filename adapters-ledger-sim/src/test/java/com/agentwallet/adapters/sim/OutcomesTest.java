package com.agentwallet.adapters.sim;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.testing.Addresses;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.function.BiFunction;

import static org.assertj.core.api.Assertions.assertThat;

class OutcomesTest {
    private static final OrgId ORG = new RandomIdGenerator(new Random(3)).org();
    /** A confirmation whose signature names the kind it was made from. */
    private static final BiFunction<Class<? extends LedgerInstruction>, Long, LedgerOutcome.Confirmed> NAMING_THE_KIND =
            (kind, slot) -> new LedgerOutcome.Confirmed(kind.getSimpleName(), slot);

    @Test
    void everyConfirmationIsFoundWithItsSlotAfterTheTableHasGrownManyTimes() {
        Outcomes outcomes = new Outcomes();
        int count = 50_000;
        for (int i = 0; i < count; i++) {
            outcomes.confirmed(deposit("op-" + i), 1_000L + i);
        }

        for (int i = 0; i < count; i++) {
            assertThat(outcomes.find("op-" + i, NAMING_THE_KIND)).as("op-%d", i)
                    .isEqualTo(new LedgerOutcome.Confirmed("Deposit", 1_000L + i));
        }
        assertThat(outcomes.find("op-" + count, NAMING_THE_KIND)).as("an operation never confirmed").isNull();
        assertThat(outcomes.find("op-", NAMING_THE_KIND)).isNull();
    }

    @Test
    void aConfirmationIsMadeAgainFromTheKindOfItsInstruction() {
        Outcomes outcomes = new Outcomes();
        outcomes.confirmed(deposit("deposit-1"), 7);
        outcomes.confirmed(new LedgerInstruction.Fund("fund-1", ORG, new LedgerAddress(Addresses.external("wallet")), Usdc.parse("2")), 8);

        assertThat(outcomes.find("deposit-1", NAMING_THE_KIND)).isEqualTo(new LedgerOutcome.Confirmed("Deposit", 7));
        assertThat(outcomes.find("fund-1", NAMING_THE_KIND)).isEqualTo(new LedgerOutcome.Confirmed("Fund", 8));
    }

    @Test
    void aRefusalIsAnsweredWithItsCodeAndMessage() {
        Outcomes outcomes = new Outcomes();
        LedgerOutcome.Rejected refusal = new LedgerOutcome.Rejected("insufficient_funds", "the wallet holds 1.00");
        outcomes.refused("op-refused", refusal);
        outcomes.confirmed(deposit("op-confirmed"), 3);

        assertThat(outcomes.find("op-refused", NAMING_THE_KIND)).isEqualTo(refusal);
        assertThat(outcomes.find("op-confirmed", NAMING_THE_KIND)).isEqualTo(new LedgerOutcome.Confirmed("Deposit", 3));
    }

    private static LedgerInstruction.Deposit deposit(String operationId) {
        return new LedgerInstruction.Deposit(operationId, ORG, Usdc.parse("1"));
    }
}
