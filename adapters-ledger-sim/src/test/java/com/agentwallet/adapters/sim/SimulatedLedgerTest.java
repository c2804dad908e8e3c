package com.agentwallet.adapters.sim;

import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Sequences;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.NamedParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/** What the simulator promises beyond the ledger contract: determinism, and slots that follow the clock. */
class SimulatedLedgerTest {
    private static final Instant GENESIS = SimulatedLedger.DEFAULT_GENESIS;

    @Test
    void theSameSeedAndInputsGiveTheSameSignaturesAndSlots() {
        List<LedgerOutcome> first = script(11L);
        List<LedgerOutcome> second = script(11L);

        assertThat(first).hasSize(13).isEqualTo(second);
        assertThat(first).filteredOn(LedgerOutcome.Confirmed.class::isInstance).hasSize(11);
        assertThat(first).filteredOn(LedgerOutcome.Rejected.class::isInstance).hasSize(2);
    }

    @Test
    void anotherSeedGivesOtherSignaturesButTheSameSlotsAndRefusals() {
        List<LedgerOutcome> first = script(11L);
        List<LedgerOutcome> other = script(12L);

        assertThat(other).hasSameSizeAs(first);
        for (int i = 0; i < first.size(); i++) {
            if (first.get(i) instanceof LedgerOutcome.Confirmed confirmed) {
                LedgerOutcome.Confirmed otherConfirmed = (LedgerOutcome.Confirmed) other.get(i);
                assertThat(otherConfirmed.signature()).as("signature %d", i).isNotEqualTo(confirmed.signature());
                assertThat(otherConfirmed.slot()).as("slot %d", i).isEqualTo(confirmed.slot());
            } else {
                assertThat(other.get(i)).as("refusal %d", i).isEqualTo(first.get(i));
            }
        }
    }

    /** Checked with the JDK's own Ed25519, so that the signing library can change without the signatures changing. */
    @Test
    void signaturesAreTheFeePayersEd25519SignaturesOfTheOperation() throws Exception {
        byte[] secret = Hashing.sha256("agent-wallet-sim/fee-payer/11".getBytes(StandardCharsets.UTF_8));
        KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
        generator.initialize(NamedParameterSpec.ED25519, new SecureRandom() {
            @Override
            public void nextBytes(byte[] bytes) {
                System.arraycopy(secret, 0, bytes, 0, bytes.length);
            }
        });
        PublicKey feePayer = generator.generateKeyPair().getPublic();
        SimulatedLedger ledger = SimulatedLedger.inMemory(MutableClock.atTestEpoch(), 11L);
        OrgId org = new RandomIdGenerator(new Random(7)).org();
        LedgerInstruction.Deposit deposit = new LedgerInstruction.Deposit("tx_signed", org, Usdc.parse("1"));

        LedgerOutcome.Confirmed confirmed = (LedgerOutcome.Confirmed) ledger.submit(deposit);

        Signature verifier = Signature.getInstance("Ed25519");
        verifier.initVerify(feePayer);
        verifier.update("agent-wallet-sim/tx|Deposit|tx_signed".getBytes(StandardCharsets.UTF_8));
        assertThat(verifier.verify(Base58.decode(confirmed.signature(), 64).orElseThrow())).isTrue();
    }

    @Test
    void slotsAre400MillisecondsEachFromGenesis() {
        MutableClock clock = new MutableClock(GENESIS.plusSeconds(4));
        SimulatedLedger ledger = SimulatedLedger.inMemory(clock, 1L);
        assertThat(ledger.currentSlot()).isEqualTo(10);

        clock.set(GENESIS);
        assertThat(ledger.currentSlot()).isZero();
        clock.set(GENESIS.plusMillis(399));
        assertThat(ledger.currentSlot()).isZero();
        clock.set(GENESIS.plusMillis(400));
        assertThat(ledger.currentSlot()).isEqualTo(1);
        clock.set(GENESIS.plusSeconds(4).minusMillis(1));
        assertThat(ledger.currentSlot()).isEqualTo(9);
        clock.set(GENESIS.plus(Duration.ofDays(1)));
        assertThat(ledger.currentSlot()).isEqualTo(216_000);
        clock.set(GENESIS.minusSeconds(60));
        assertThat(ledger.currentSlot()).as("before genesis").isZero();
    }

    @Test
    void aConfirmationLandsInTheSlotOfItsChainTime() {
        MutableClock clock = new MutableClock(GENESIS.plusSeconds(4));
        SimulatedLedger ledger = SimulatedLedger.inMemory(clock, 1L);
        OrgId org = new RandomIdGenerator(new Random(1)).org();

        LedgerOutcome first = ledger.submit(new LedgerInstruction.Deposit("op-1", org, Usdc.parse("1")));
        clock.advance(Duration.ofMillis(1_000));
        LedgerOutcome second = ledger.submit(new LedgerInstruction.Deposit("op-2", org, Usdc.parse("1")));

        assertThat(first).isInstanceOfSatisfying(LedgerOutcome.Confirmed.class, c -> assertThat(c.slot()).isEqualTo(10));
        assertThat(second).isInstanceOfSatisfying(LedgerOutcome.Confirmed.class, c -> assertThat(c.slot()).isEqualTo(12));
        clock.advance(Duration.ofHours(1));
        assertThat(ledger.submit(new LedgerInstruction.Deposit("op-1", org, Usdc.parse("1"))))
                .as("a resubmission answers the first confirmation, slot included").isEqualTo(first);
        assertThat(ledger.submit(new LedgerInstruction.Deposit("op-1", org, Usdc.parse("5"))))
                .as("the operation id decides, not the instruction that carries it").isEqualTo(first);
        assertThat(ledger.submit(new LedgerInstruction.Withdraw("op-2", org, new LedgerAddress(Addresses.external("w")),
                Usdc.parse("1")))).as("nor its kind, which the signature is made from").isEqualTo(second);
        assertThat(ledger.balance(new LedgerAccount.Treasury(org))).as("nothing moved again").isEqualTo(Usdc.parse("2"));
    }

    @Test
    void equalInstructionsGetTheSameSignatureWhateverOrderTheirSetsWereBuiltIn() {
        List<String> pair = twoRecipientsWhoseSetOrderDependsOnInsertion();
        IdGenerator ids = new RandomIdGenerator(new Random(5));
        OrgId org = ids.org();
        PolicyId policy = ids.policy();
        long sequence = Sequences.next();
        LedgerInstruction.WritePolicy oneWay = new LedgerInstruction.WritePolicy("policy:v1", org, policy, sequence,
                PolicyRules.NONE, new LinkedHashSet<>(pair));
        LedgerInstruction.WritePolicy otherWay = new LedgerInstruction.WritePolicy("policy:v1", org, policy, sequence,
                PolicyRules.NONE, new LinkedHashSet<>(List.of(pair.get(1), pair.get(0))));
        assertThat(oneWay).isEqualTo(otherWay);

        MutableClock clock = MutableClock.atTestEpoch();
        LedgerOutcome first = SimulatedLedger.inMemory(clock, 11L).submit(oneWay);
        LedgerOutcome second = SimulatedLedger.inMemory(clock, 11L).submit(otherWay);

        assertThat(second).as("the same seed and equal inputs (a journal replay, another JVM)").isEqualTo(first);
    }

    /** Two recipients that {@code Set.copyOf} iterates in the order they were inserted in, on this JVM. */
    private static List<String> twoRecipientsWhoseSetOrderDependsOnInsertion() {
        for (int i = 0; i < 100; i++) {
            for (int j = i + 1; j < 100; j++) {
                String x = Addresses.external("recipient-" + i);
                String y = Addresses.external("recipient-" + j);
                if (!Set.copyOf(new LinkedHashSet<>(List.of(x, y))).toString()
                        .equals(Set.copyOf(new LinkedHashSet<>(List.of(y, x))).toString())) {
                    return List.of(x, y);
                }
            }
        }
        throw new AssertionError("no two recipients whose set order depends on insertion; the premise is gone");
    }

    /** A fixed run of instructions with the clock moving between them, on a fresh simulator with {@code seed}. */
    private static List<LedgerOutcome> script(long seed) {
        MutableClock clock = MutableClock.atTestEpoch();
        SimulatedLedger ledger = SimulatedLedger.inMemory(clock, seed);
        IdGenerator ids = new RandomIdGenerator(new Random(99));
        OrgId org = ids.org();
        PolicyId policy = ids.policy();
        LedgerAddress wallet = ledger.walletAddress(org, "agent-1");
        String merchant = Addresses.external("merchant");
        EscrowId escrow = ids.escrow();
        List<LedgerInstruction> instructions = List.of(
                new LedgerInstruction.Deposit(ids.tx().value(), org, Usdc.parse("1000")),
                new LedgerInstruction.WritePolicy(ids.tx().value(), org, policy, Sequences.next(),
                        rules().maxPerTx("100").build(), Set.of()),
                new LedgerInstruction.OpenWallet(ids.tx().value(), wallet, org, "agent-1", policy),
                new LedgerInstruction.SetSessionKey(ids.tx().value(), wallet, 0,
                        clock.instant().plus(Duration.ofDays(1)), Sequences.next()),
                new LedgerInstruction.Fund(ids.tx().value(), org, wallet, Usdc.parse("500")),
                new LedgerInstruction.Pay(ids.tx().value(), wallet, merchant, Usdc.parse("12.5"), clock.instant(), 0,
                        Optional.empty()),
                new LedgerInstruction.Pay(ids.tx().value(), wallet, merchant, Usdc.parse("101"), clock.instant(), 0,
                        Optional.empty()),
                new LedgerInstruction.Pay(ids.tx().value(), wallet, merchant, Usdc.parse("12.5"), clock.instant(), 0,
                        Optional.empty()),
                new LedgerInstruction.EscrowLock(ids.tx().value(), escrow, wallet, merchant, Usdc.parse("20"),
                        clock.instant().plusSeconds(3600), Optional.empty(), 0),
                new LedgerInstruction.EscrowDispute(ids.tx().value(), escrow, wallet),
                new LedgerInstruction.EscrowRefund(ids.tx().value(), escrow, wallet, Usdc.parse("20"), false),
                new LedgerInstruction.EscrowRefund(ids.tx().value(), escrow, wallet, Usdc.parse("20"), true),
                new LedgerInstruction.Withdraw(ids.tx().value(), org, wallet, Usdc.parse("7")));
        List<LedgerOutcome> outcomes = new ArrayList<>();
        long step = 0;
        for (LedgerInstruction instruction : instructions) {
            clock.advance(Duration.ofMillis(250 + 333 * step++));
            outcomes.add(ledger.submit(instruction));
        }
        assertThat(ledger.balance(new LedgerAccount.Wallet(wallet)))
                .isEqualTo(Usdc.parse("468"));
        return outcomes;
    }

    @Test
    void theScriptRefusesWhatItShould() {
        List<LedgerOutcome> outcomes = script(11L);
        assertThat(outcomes.get(6)).isInstanceOfSatisfying(LedgerOutcome.Rejected.class,
                r -> assertThat(r.code()).isEqualTo("max_per_tx"));
        assertThat(outcomes.get(10)).isInstanceOfSatisfying(LedgerOutcome.Rejected.class,
                r -> assertThat(r.code()).isEqualTo("escrow_disputed"));
    }
}
