package com.agentwallet.bootstrap.ledger;

import com.agentwallet.adapters.solana.Localnet;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPlugins;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.testing.Sequences;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator's {@code co_sign_payload} is the Solana adapter's, byte for byte, for the same fee
 * payer, program, mint, wallet, session, recipient, amount and co-signer: an operator's tools sign
 * the same thing in a demo and on chain. Only the nonce value differs: the adapter reads its
 * nonce account on localnet, the simulator derives one from the operation id; so the messages are
 * compared with the adapter's nonce value put in the simulator's recent blockhash.
 */
class CoSignMessageParityTest {
    /** The payee, which holds its USDC token account on localnet as a recipient must. */
    private static final String PAYEE = Addresses.external("parity");
    private final MutableClock clock = MutableClock.atTestEpoch();
    private final RandomIdGenerator ids = new RandomIdGenerator(new Random(17));
    private final TestCoSigner operator = new TestCoSigner(5);

    @TempDir
    Path data;

    @Test
    void theSimulatorsCoSignMessageIsTheSolanaAdaptersWithItsOwnNonceValue() throws Exception {
        try (Localnet localnet = Localnet.start()) {
            LedgerPort solana = localnet.ledger(clock, data.resolve("solana"));
            localnet.openUsdcAccount(PAYEE);
            Map<String, String> keys = localnet.ledgerSettings(data.resolve("fee-payer.json"));
            LedgerPort sim = LedgerPlugins.find("sim", getClass().getClassLoader()).create(new LedgerContext(clock,
                    data.resolve("sim"), Map.of("persist", "false", "fee_payer_keypair", keys.get("fee_payer_keypair"),
                            "session_root_keypair", keys.get("session_root_keypair"))));
            try {
                OrgId org = ids.org();
                both(solana, sim, new LedgerInstruction.Deposit("deposit:" + org, org, Usdc.parse("1000")));
                LedgerAddress coSigned = wallet(solana, sim, org, "agent-co-signed",
                        rules().coSignAtOrAbove("100", operator).build());
                LedgerAddress plain = wallet(solana, sim, org, "agent-plain", PolicyRules.NONE);

                for (LedgerInstruction.Pay pay : List.of(pay(coSigned, "150"), pay(plain, "20"))) {
                    byte[] onChain = solana.coSignMessage(pay);
                    byte[] simulated = sim.coSignMessage(pay);

                    int blockhash = 4 + 32 * onChain[3];
                    assertThat(onChain[3]).as("fewer than 128 accounts: a one-byte count").isPositive();
                    assertThat(Arrays.copyOfRange(simulated, blockhash, blockhash + 32)).as("the simulator's own nonce")
                            .isNotEqualTo(Arrays.copyOfRange(onChain, blockhash, blockhash + 32));
                    System.arraycopy(onChain, blockhash, simulated, blockhash, 32);
                    assertThat(simulated).as("the message of %s", pay).isEqualTo(onChain);
                }

                LedgerInstruction.Pay pay = pay(coSigned, "150");
                for (LedgerPort ledger : List.of(solana, sim)) {
                    String signature = operator.sign(Base64.getEncoder().encodeToString(ledger.coSignMessage(pay)));
                    assertThat(ledger.submit(pay.withCoSignature(signature))).as("%s", ledger)
                            .isInstanceOf(LedgerOutcome.Confirmed.class);
                }
            } finally {
                ((AutoCloseable) solana).close();
                ((AutoCloseable) sim).close();
            }
        }
    }

    private LedgerAddress wallet(LedgerPort solana, LedgerPort sim, OrgId org, String agent, PolicyRules policyRules) {
        PolicyId policy = ids.policy();
        LedgerAddress wallet = solana.walletAddress(org, agent);
        assertThat(sim.walletAddress(org, agent)).isEqualTo(wallet);
        both(solana, sim, new LedgerInstruction.WritePolicy("policy:" + policy, org, policy, Sequences.next(), policyRules, Set.of()));
        both(solana, sim, new LedgerInstruction.OpenWallet("open:" + wallet, wallet, org, agent, policy));
        both(solana, sim, new LedgerInstruction.SetSessionKey("session:" + wallet, wallet, 0,
                clock.instant().plus(Duration.ofDays(1)), Sequences.next()));
        both(solana, sim, new LedgerInstruction.Fund("fund:" + wallet, org, wallet, Usdc.parse("500")));
        return wallet;
    }

    private LedgerInstruction.Pay pay(LedgerAddress wallet, String amount) {
        return new LedgerInstruction.Pay(ids.tx().value(), wallet, PAYEE, Usdc.parse(amount),
                clock.instant(), 0, Optional.empty());
    }

    private static void both(LedgerPort solana, LedgerPort sim, LedgerInstruction instruction) {
        assertThat(solana.submit(instruction)).as("Solana: %s", instruction).isInstanceOf(LedgerOutcome.Confirmed.class);
        assertThat(sim.submit(instruction)).as("simulator: %s", instruction).isInstanceOf(LedgerOutcome.Confirmed.class);
    }
}
