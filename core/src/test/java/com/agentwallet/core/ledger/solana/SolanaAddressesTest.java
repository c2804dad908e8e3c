package com.agentwallet.core.ledger.solana;

import com.agentwallet.core.crypto.Ed25519Curve;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.ProgramAddress;
import org.junit.jupiter.api.Test;

import static com.agentwallet.core.ledger.solana.LegacyMessageTest.filled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Addresses derived as solanaj 1.27 derives them ({@code PublicKey.createWithSeed}, {@code findProgramAddress}). */
class SolanaAddressesTest {

    @Test
    void anOperationsNonceAccountIsCreateWithSeedOfTheFeePayerAndTheOperationsDigest() {
        assertThat(PaymentTransaction.nonceSeed("tx_vector")).isEqualTo("1bb4511c328667b344e70e7c92ee06e8");
        assertThat(SystemProgram.createWithSeed(filled(1), "1bb4511c328667b344e70e7c92ee06e8",
                SolanaPrograms.SYSTEM_PROGRAM)).isEqualTo(new LedgerAddress("HxfdXduS4sTHmBGFVxx4MM5jsaUahFjGtvxGd4UPaDVo"));
        assertThat(PaymentTransaction.nonceAccount(filled(1), "tx_vector"))
                .isEqualTo(new LedgerAddress("HxfdXduS4sTHmBGFVxx4MM5jsaUahFjGtvxGd4UPaDVo"));
        assertThatThrownBy(() -> SystemProgram.createWithSeed(filled(1), "x".repeat(33), SolanaPrograms.SYSTEM_PROGRAM))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anAssociatedTokenAccountIsTheProgramAddressOfOwnerTokenProgramAndMint() {
        ProgramAddress recipient = AssociatedTokenAccount.address(filled(5), SolanaPrograms.DEVNET_USDC_MINT);
        ProgramAddress wallet = AssociatedTokenAccount.address(filled(3), SolanaPrograms.DEVNET_USDC_MINT);

        assertThat(recipient.address()).isEqualTo(new LedgerAddress("6hEQruCFhgeqNVzxT9NZY4eR7RQ7E6Y98C3yRnJHtgNt"));
        assertThat(wallet.address()).isEqualTo(new LedgerAddress("2jJ59awscfMzNhj3pvzgtASqCWvW9gSNXVYFqDfaPRby"));
        assertThat(Ed25519Curve.isOnCurve(recipient.address().bytes())).isFalse();
    }
}
