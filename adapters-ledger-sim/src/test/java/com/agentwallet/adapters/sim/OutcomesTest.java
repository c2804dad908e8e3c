package com.agentwallet.adapters.sim;

import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import org.junit.jupiter.api.Test;

import java.util.function.BiFunction;

import static org.assertj.core.api.Assertions.assertThat;

class OutcomesTest {
    /** A confirmation whose signature names the kind it was made from. */
    private static final BiFunction<Class<? extends LedgerInstruction>, Long, LedgerOutcome.Confirmed> NAMING_THE_KIND =
            (kind, slot) -> new LedgerOutcome.Confirmed(kind.getSimpleName(), slot);

    @Test
    void everyConfirmationIsFoundWithItsSlotAfterTheTableHasGrownManyTimes() {
        Outcomes outcomes = new Outcomes();
        int count = 50_000;
        for (int i = 0; i < count; i++) {
            outcomes.confirmed(Outcomes.Id.of("op-" + i), LedgerInstruction.Deposit.class, 1_000L + i);
        }

        for (int i = 0; i < count; i++) {
            assertThat(outcomes.find(Outcomes.Id.of("op-" + i), NAMING_THE_KIND)).as("op-%d", i)
                    .isEqualTo(new LedgerOutcome.Confirmed("Deposit", 1_000L + i));
        }
        assertThat(outcomes.find(Outcomes.Id.of("op-" + count), NAMING_THE_KIND)).as("an operation never confirmed").isNull();
        assertThat(outcomes.find(Outcomes.Id.of("op-"), NAMING_THE_KIND)).isNull();
    }

    @Test
    void aConfirmationIsMadeAgainFromTheKindOfItsInstruction() {
        Outcomes outcomes = new Outcomes();
        outcomes.confirmed(Outcomes.Id.of("deposit-1"), LedgerInstruction.Deposit.class, 7);
        outcomes.confirmed(Outcomes.Id.of("fund-1"), LedgerInstruction.Fund.class, 8);

        assertThat(outcomes.find(Outcomes.Id.of("deposit-1"), NAMING_THE_KIND)).isEqualTo(new LedgerOutcome.Confirmed("Deposit", 7));
        assertThat(outcomes.find(Outcomes.Id.of("fund-1"), NAMING_THE_KIND)).isEqualTo(new LedgerOutcome.Confirmed("Fund", 8));
    }

    @Test
    void aRefusalIsAnsweredWithItsCodeAndMessage() {
        Outcomes outcomes = new Outcomes();
        LedgerOutcome.Rejected refusal = new LedgerOutcome.Rejected("insufficient_funds", "the wallet holds 1.00");
        outcomes.refused(Outcomes.Id.of("op-refused"), refusal);
        outcomes.confirmed(Outcomes.Id.of("op-confirmed"), LedgerInstruction.Deposit.class, 3);

        assertThat(outcomes.find(Outcomes.Id.of("op-refused"), NAMING_THE_KIND)).isEqualTo(refusal);
        assertThat(outcomes.find(Outcomes.Id.of("op-confirmed"), NAMING_THE_KIND)).isEqualTo(new LedgerOutcome.Confirmed("Deposit", 3));
    }
}
