package com.agentwallet.adapters.sim;

import com.agentwallet.core.crypto.Ed25519KeyPair;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.ledger.ProgramAddress;
import com.agentwallet.core.ledger.solana.LegacyMessage;
import com.agentwallet.core.ledger.solana.PaymentTransaction;
import com.agentwallet.core.ledger.solana.SessionKeys;
import com.agentwallet.core.ledger.solana.SolanaPrograms;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.LedgerUnavailableException;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.testing.Sequences;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The simulator's co-sign message is the Solana transaction message of the payment, as the Solana
 * adapter builds it (bootstrap's CoSignMessageParityTest compares the two on localnet): a signature
 * over it pays, one over anything else is {@code co_signature_invalid}, and it is the same however
 * often it is asked for and after a restart.
 */
class SimCoSignMessageTest {
    private static final String PAYEE = Addresses.external("payee");
    private static final LedgerAddress PROGRAM = new LedgerAddress(SimulatedLedger.DEFAULT_PROGRAM_ID);

    @TempDir
    Path folder;

    private final MutableClock clock = MutableClock.atTestEpoch();
    private final IdGenerator ids = new RandomIdGenerator(new Random(11));
    private final TestCoSigner operator = new TestCoSigner(3);
    private final OrgId org = ids.org();
    private final PolicyId policy = ids.policy();
    private final String agent = "agent-1";

    @Test
    void aCoSignatureOverThePaymentsSolanaMessagePays() {
        LedgerPort ledger = SimulatedLedger.inMemory(clock, 7);
        LedgerAddress wallet = coSignedWallet(ledger);
        LedgerInstruction.Pay pay = pay(wallet, "150");

        assertThat(ledger.submit(pay.withCoSignature(operator.sign(payload(ledger, pay)))))
                .isInstanceOf(LedgerOutcome.Confirmed.class);
        assertThat(((SimulatedLedger) ledger).receivedBy(PAYEE)).isEqualTo(Usdc.parse("150"));
    }

    @Test
    void theMessageIsTheSolanaTransactionOfThePaymentOnItsOperationsNonce() {
        LedgerPort ledger = SimulatedLedger.inMemory(clock, 7);
        LedgerAddress wallet = coSignedWallet(ledger);
        LedgerInstruction.Pay pay = pay(wallet, "150");
        Ed25519KeyPair feePayer = SimulatedLedger.defaultKey("fee-payer", 7);
        LedgerAddress session = new SessionKeys(SimulatedLedger.defaultKey("session-root", 7).secretKey())
                .publicKey(PROGRAM, wallet, 0);
        LedgerAddress policyAccount = ProgramAddress.policy(PROGRAM,
                Hashing.sha256(org.value().getBytes(StandardCharsets.UTF_8)), policy.value()).address();
        LegacyMessage expected = new PaymentTransaction(PROGRAM, SolanaPrograms.DEVNET_USDC_MINT,
                LedgerAddress.of(feePayer.publicKey()), session, wallet, policyAccount, new LedgerAddress(PAYEE),
                pay.amount(), pay.requestedAt(), Optional.of(new LedgerAddress(operator.publicKey())))
                .coSignMessage(pay.operationId(), CoSignMessages.nonce(pay.operationId()));

        assertThat(ledger.coSignMessage(pay)).isEqualTo(expected.bytes());
        assertThat(expected.signers()).containsExactly(LedgerAddress.of(feePayer.publicKey()), session,
                new LedgerAddress(operator.publicKey()));
    }

    @Test
    void aCoSignatureOverTheFormerTextOrAnotherPaymentsMessageIsInvalid() {
        LedgerPort ledger = SimulatedLedger.inMemory(clock, 7);
        LedgerAddress wallet = coSignedWallet(ledger);
        LedgerInstruction.Pay pay = pay(wallet, "150");
        LedgerInstruction.Pay other = pay(wallet, "150");
        String formerText = String.join("|", "agent-wallet/co-sign/v2", PROGRAM.base58(), pay.operationId(),
                wallet.base58(), PAYEE, Long.toString(pay.amount().micros()),
                Long.toString(pay.requestedAt().toEpochMilli()), Long.toString(pay.sessionVersion()));

        assertThat(code(ledger, pay.withCoSignature(operator.sign(Base64.getEncoder()
                .encodeToString(formerText.getBytes(StandardCharsets.UTF_8)))))).isEqualTo("co_signature_invalid");
        assertThat(code(ledger, pay.withCoSignature(operator.sign(payload(ledger, other)))))
                .isEqualTo("co_signature_invalid");
        assertThat(((SimulatedLedger) ledger).receivedBy(PAYEE)).isEqualTo(Usdc.ZERO);
    }

    @Test
    void theMessageIsTheSameWhenAskedAgainAndAfterARestartAndItsSignatureStillPays() throws Exception {
        LedgerInstruction.Pay pay;
        byte[] message;
        try (SimulatedLedger ledger = persisted(Map.of())) {
            pay = pay(coSignedWallet(ledger), "150");
            message = ledger.coSignMessage(pay);
            assertThat(ledger.coSignMessage(pay)).isEqualTo(message);
        }
        try (SimulatedLedger ledger = persisted(Map.of())) {
            assertThat(ledger.coSignMessage(pay)).isEqualTo(message);
            assertThat(ledger.submit(pay.withCoSignature(operator.sign(Base64.getEncoder().encodeToString(message)))))
                    .isInstanceOf(LedgerOutcome.Confirmed.class);
            assertThat(ledger.receivedBy(PAYEE)).isEqualTo(Usdc.parse("150"));
        }
    }

    @Test
    void aConfiguredFeePayerSessionRootAndMintMakeTheMessage() throws Exception {
        Ed25519KeyPair feePayer = Ed25519KeyPair.fromSeed(Hashing.sha256(new byte[]{42}));
        Ed25519KeyPair sessionRoot = Ed25519KeyPair.fromSeed(Hashing.sha256(new byte[]{43}));
        LedgerAddress mint = SolanaPrograms.TOKEN_PROGRAM;
        try (SimulatedLedger ledger = persisted(Map.of("fee_payer_keypair", keypairFile("fee-payer", feePayer),
                "session_root_keypair", keypairFile("session-root", sessionRoot), "usdc_mint", mint.base58(),
                "persist", "false"))) {
            LedgerAddress wallet = coSignedWallet(ledger);
            byte[] message = ledger.coSignMessage(pay(wallet, "150"));

            assertThat(Arrays.copyOfRange(message, 4, 36)).as("the fee payer comes first")
                    .isEqualTo(feePayer.publicKey());
            assertThat(Arrays.copyOfRange(message, 36, 68)).as("then the session key")
                    .isEqualTo(new SessionKeys(sessionRoot.secretKey()).publicKey(PROGRAM, wallet, 0).bytes());
            assertThat(indexOf(message, mint.bytes())).isPositive();
        }
    }

    private String keypairFile(String name, Ed25519KeyPair key) throws Exception {
        byte[] secret = key.secretKey();
        Path file = folder.resolve(name + ".json");
        Files.writeString(file, IntStream.range(0, secret.length).mapToObj(i -> Integer.toString(secret[i] & 0xff))
                .collect(Collectors.joining(",", "[", "]")));
        return file.toString();
    }

    @Test
    void noMessageIsMadeForARecipientThatIsNotASolanaAddress() {
        LedgerPort ledger = SimulatedLedger.inMemory(clock, 7);
        LedgerAddress wallet = coSignedWallet(ledger);
        LedgerInstruction.Pay pay = new LedgerInstruction.Pay(ids.tx().value(), wallet, "merchant@example",
                Usdc.parse("150"), clock.instant(), 0, Optional.empty());

        assertThatThrownBy(() -> ledger.coSignMessage(pay)).isInstanceOf(LedgerUnavailableException.class);
        assertThat(code(ledger, pay.withCoSignature(operator.sign(Base64.getEncoder().encodeToString(new byte[]{1})))))
                .isEqualTo("co_signature_invalid");
    }

    private SimulatedLedger persisted(Map<String, String> settings) {
        return (SimulatedLedger) new SimLedgerFactory().create(new LedgerContext(clock, folder, settings));
    }

    private LedgerAddress coSignedWallet(LedgerPort ledger) {
        LedgerAddress wallet = ledger.walletAddress(org, agent);
        confirmed(ledger, new LedgerInstruction.Deposit("deposit:" + org, org, Usdc.parse("1000")));
        confirmed(ledger, new LedgerInstruction.WritePolicy("policy:" + policy, org, policy, Sequences.next(),
                rules().coSignAtOrAbove("100", operator).build(), Set.of()));
        confirmed(ledger, new LedgerInstruction.OpenWallet("open:" + wallet, wallet, org, agent, policy));
        confirmed(ledger, new LedgerInstruction.SetSessionKey("session:" + wallet, wallet, 0,
                clock.instant().plus(Duration.ofDays(1)), Sequences.next()));
        confirmed(ledger, new LedgerInstruction.Fund("fund:" + wallet, org, wallet, Usdc.parse("500")));
        return wallet;
    }

    private LedgerInstruction.Pay pay(LedgerAddress wallet, String amount) {
        return new LedgerInstruction.Pay(ids.tx().value(), wallet, PAYEE, Usdc.parse(amount), clock.instant(), 0,
                Optional.empty());
    }

    private static String payload(LedgerPort ledger, LedgerInstruction.Pay pay) {
        return Base64.getEncoder().encodeToString(ledger.coSignMessage(pay));
    }

    private static void confirmed(LedgerPort ledger, LedgerInstruction instruction) {
        assertThat(ledger.submit(instruction)).as("%s", instruction).isInstanceOf(LedgerOutcome.Confirmed.class);
    }

    private static String code(LedgerPort ledger, LedgerInstruction instruction) {
        LedgerOutcome outcome = ledger.submit(instruction);
        return outcome instanceof LedgerOutcome.Rejected rejected ? rejected.code() : "confirmed";
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }
}
