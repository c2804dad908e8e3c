package com.agentwallet.core.ledger;

import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.port.AdminSequence;
import com.agentwallet.core.port.LedgerUnavailableException;
import com.agentwallet.core.testing.FakeLedger;
import com.agentwallet.core.wallet.WalletStatus;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A sequenced administrative write: sent again under the next number when stale, and only then. */
class LedgerAdminTest {
    private static final LedgerAddress WALLET = LedgerAddress.of(new byte[32]);
    private static final PolicyId POLICY = new RandomIdGenerator(new Random(1)).policy();
    private final FakeLedger ledger = new FakeLedger();
    private final AtomicLong taken = new AtomicLong(10);
    private final AdminSequence sequence = taken::incrementAndGet;

    @Test
    void aWriteRefusedAsStaleIsSentAgainUnderTheNextNumberWithTheSameState() {
        ledger.rejectWhen(write -> ((LedgerInstruction.UpdateWallet) write).sequence() == 11, ProgramError.STALE_WRITE);

        LedgerAdmin.requireSequenced(ledger, sequence, this::freeze);

        assertThat(ledger.executed()).singleElement().isEqualTo(freeze(12));
    }

    @Test
    void anyOtherRefusalIsNotSentAgain() {
        ledger.rejectWhen(write -> true, ProgramError.WALLET_NOT_ACTIVE);

        assertThatThrownBy(() -> LedgerAdmin.requireSequenced(ledger, sequence, this::freeze))
                .isInstanceOf(LedgerUnavailableException.class).hasMessageContaining("wallet_not_active");
        assertThat(taken.get()).as("one number taken").isEqualTo(11);
    }

    @Test
    void aWriteStaleEveryTimeGivesUpAfterItsAttempts() {
        ledger.rejectWhen(write -> true, ProgramError.STALE_WRITE);

        assertThatThrownBy(() -> LedgerAdmin.requireSequenced(ledger, sequence, this::freeze))
                .isInstanceOf(LedgerUnavailableException.class).hasMessageContaining("stale_write");
        assertThat(taken.get()).isEqualTo(10 + LedgerAdmin.ATTEMPTS);
        assertThat(ledger.executed()).isEmpty();
    }

    private LedgerInstruction freeze(long number) {
        return new LedgerInstruction.UpdateWallet("wallet:s" + number, WALLET, WalletStatus.FROZEN, POLICY,
                number);
    }
}
