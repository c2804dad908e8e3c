package com.agentwallet.core.ledger.solana;

import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import static com.agentwallet.core.ledger.solana.AccountMeta.readonly;
import static com.agentwallet.core.ledger.solana.AccountMeta.signer;
import static com.agentwallet.core.ledger.solana.AccountMeta.signerWritable;
import static com.agentwallet.core.ledger.solana.AccountMeta.writable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The compiled message of a co-signed payment against its known bytes (the same header, accounts
 * and instructions as {@code @solana/web3.js}'s {@code compileToLegacyMessage}, which only orders the
 * read-only accounts differently, a program before the accounts of its instruction), and Solana's
 * account ordering rules.
 */
class LegacyMessageTest {
    private static final LedgerAddress PROGRAM = new LedgerAddress("AgentWa11etProgram1111111111111111111111111");
    /**
     * A co-signed payment of 150 USDC requested at 2026-01-01T00:00:00.900Z (counted at 1767225600) on nonce
     * 07…07, keys 01…01 to 06…06, operation {@code tx_vector}.
     */
    private static final String CO_SIGN_MESSAGE = ""
            + "0302060d0101010101010101010101010101010101010101010101010101010101010101020202020202020202020202"
            + "020202020202020202020202020202020202020206060606060606060606060606060606060606060606060606060606"
            + "06060606fbfd9d3a52f315f2f8297f05c793ca64d9c76e05aed4722924359c8b1eff185e030303030303030303030303"
            + "030303030303030303030303030303030303030319b1623c647bde37844b4541846af56638f38c04e407af7ed145480a"
            + "bd00ae8c5498d4cfd6f625cc22a74fae19c5e8f84532bed7fc2124e9b5f49dd8f9f0e14906a7d517192c568ee08a845f"
            + "73d29788cf035c3145b21ab344d8062ea940000000000000000000000000000000000000000000000000000000000000"
            + "0000000004040404040404040404040404040404040404040404040404040404040404043b442cb3912157f13a933d01"
            + "34282d032b5ffecd01a2dbf1b7790608df002ea706ddf6e1d765a193d9cbe146ceeb79ac1cb485ed5f5b37913a8cf585"
            + "7eff00a9027b0fbba5ebc48cce497dde187a3f4ee4ad44319caed3ef475bba6534000000070707070707070707070707"
            + "070707070707070707070707070707070707070702080303070004040000000c0801040509060a0b02110880d1f00800"
            + "00000000b9556900000000";

    @Test
    void aCoSignedPaymentCompilesToItsKnownBytes() {
        PaymentTransaction payment = new PaymentTransaction(PROGRAM, SolanaPrograms.DEVNET_USDC_MINT, filled(1),
                filled(2), filled(3), filled(4), filled(5), Usdc.parse("150"), Instant.parse("2026-01-01T00:00:00.900Z"),
                Optional.of(filled(6)));

        LegacyMessage message = payment.coSignMessage("tx_vector", bytes(7));

        assertThat(HexFormat.of().formatHex(message.bytes())).isEqualTo(CO_SIGN_MESSAGE);
        assertThat(message.signers()).containsExactly(filled(1), filled(2), filled(6));
        assertThat(Arrays.copyOfRange(message.bytes(), message.blockhashOffset(), message.blockhashOffset() + 32))
                .isEqualTo(bytes(7));
    }

    @Test
    void accountsAreOrderedFeePayerWritableSignersReadonlySignersWritableThenReadonlyEachInOrderOfFirstUse() {
        LedgerAddress payer = filled(1);
        LedgerAddress readonlyFirst = filled(10);
        LedgerAddress signerLater = filled(11);
        LedgerAddress writtenLater = filled(12);
        LedgerAddress readOnlySigner = filled(13);
        LedgerAddress program = filled(14);
        Instruction first = new Instruction(program, List.of(readonly(readonlyFirst), readonly(signerLater),
                readonly(writtenLater), signer(readOnlySigner)), new byte[]{1});
        Instruction second = new Instruction(program, List.of(signerWritable(signerLater), writable(writtenLater),
                readonly(payer)), new byte[]{2, 3});

        LegacyMessage message = LegacyMessage.compile(payer, List.of(first, second), bytes(9));

        assertThat(message.accounts()).containsExactly(payer, signerLater, readOnlySigner, writtenLater, readonlyFirst,
                program);
        assertThat(message.signers()).containsExactly(payer, signerLater, readOnlySigner);
        byte[] bytes = message.bytes();
        assertThat(Arrays.copyOf(bytes, 4)).as("signers, read-only signers, read-only others, accounts")
                .containsExactly(3, 1, 2, 6);
        assertThat(HexFormat.of().formatHex(Arrays.copyOfRange(bytes, message.blockhashOffset() + 32, bytes.length)))
                .as("two instructions as indexes into the accounts").isEqualTo("02" + "05" + "04" + "04010302" + "0101"
                        + "05" + "03" + "010300" + "020203");
        assertThat(message.transactionSize()).isEqualTo(1 + 3 * 64 + bytes.length);
    }

    @Test
    void aTransactionNeedsOneSignatureOfSixtyFourBytesPerSigner() {
        LegacyMessage message = LegacyMessage.compile(filled(1), List.of(SystemProgram.advanceNonceAccount(filled(2),
                filled(1))), bytes(3));

        assertThat(message.transaction(List.of(bytes64(5)))).startsWith(1, 5, 5);
        assertThatThrownBy(() -> message.transaction(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> message.transaction(List.of(new byte[63]))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LegacyMessage.compile(filled(1), List.of(), new byte[31]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    static LedgerAddress filled(int value) {
        return LedgerAddress.of(bytes(value));
    }

    private static byte[] bytes(int value) {
        byte[] bytes = new byte[32];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }

    private static byte[] bytes64(int value) {
        byte[] bytes = new byte[64];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }
}
