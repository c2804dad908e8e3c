package com.agentwallet.adapters.sim;

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
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.wallet.WalletStatus;
import com.agentwallet.core.testing.Sequences;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cases in which the simulator decides as the on-chain program does, each found by the differential
 * test against the real program (bootstrap's {@code LedgerDifferentialTest}); here without a localnet.
 */
class SimProgramTwinTest {
    private static final String PAYEE = Addresses.external("payee");
    private final IdGenerator ids = new RandomIdGenerator(new Random(7));
    private final OrgId org = ids.org();
    private final OrgId otherOrg = ids.org();
    private final PolicyId policy = ids.policy();

    private final MutableClock clock = MutableClock.atTestEpoch();
    private final SimulatedLedger ledger = SimulatedLedger.inMemory(clock, 1);
    private int operations;

    @Test
    void escrowsAreTheLockingWallets() {
        LedgerAddress first = fundedWallet(org, "agent-1");
        LedgerAddress second = fundedWallet(org, "agent-2");
        EscrowId escrow = ids.escrow();

        assertThat(code(lock(escrow, first, "10"))).isEqualTo("confirmed");
        assertThat(code(lock(escrow, second, "20"))).as("the same id locked by another wallet").isEqualTo("confirmed");
        assertThat(code(new LedgerInstruction.EscrowDispute(op(), escrow, fundedWallet(org, "agent-3"))))
                .as("naming a wallet that locked no such escrow").isEqualTo("account_not_found");
        assertThat(code(new LedgerInstruction.EscrowRelease(op(), ids.escrow(), first,
                PAYEE, Usdc.parse("10"), Optional.of("ab".repeat(32))))).as("never locked").isEqualTo("account_not_found");
        assertThat(code(new LedgerInstruction.EscrowRelease(op(), escrow, second, PAYEE, Usdc.parse("1"),
                Optional.of("ab".repeat(32))))).as("another amount").isEqualTo("confirmed");

        assertThat(ledger.receivedBy(PAYEE)).as("the vault pays out what it holds").isEqualTo(Usdc.parse("20"));
        assertThat(ledger.balance(new LedgerAccount.Vault(escrow, first))).isEqualTo(Usdc.parse("10"));
    }

    @Test
    void policiesAreTheOrganisations() {
        deposit(org);
        deposit(otherOrg);
        write(org, policy, PolicyRules.NONE);

        assertThat(code(new LedgerInstruction.OpenWallet(op(), ledger.walletAddress(otherOrg, "agent-1"), otherOrg,
                "agent-1", policy))).as("under another organisation's policy").isEqualTo("account_not_found");
        assertThat(code(new LedgerInstruction.WritePolicy(op(), otherOrg, policy, Sequences.next(), PolicyRules.NONE, Set.of())))
                .as("the other organisation's policy of that id").isEqualTo("confirmed");
        assertThat(code(new LedgerInstruction.OpenWallet(op(), ledger.walletAddress(otherOrg, "agent-1"), otherOrg,
                "agent-1", policy))).isEqualTo("confirmed");
    }

    @Test
    void aWalletPayingItsOwnAddressIsAnAccountPassedTwice() {
        LedgerAddress wallet = fundedWallet(org, "agent-1");

        assertThat(code(pay(wallet, wallet.base58(), "1"))).isEqualTo("account_mismatch");
        assertThat(ledger.balance(new LedgerAccount.Wallet(wallet))).isEqualTo(Usdc.parse("100"));
    }

    @Test
    void aWalletOpensWithWhatItsAddressWasPaidBefore() {
        LedgerAddress payer = fundedWallet(org, "agent-1");
        LedgerAddress toCome = ledger.walletAddress(org, "agent-2");

        assertThat(code(pay(payer, toCome.base58(), "7"))).isEqualTo("confirmed");
        assertThat(code(new LedgerInstruction.OpenWallet(op(), toCome, org, "agent-2", policy))).isEqualTo("confirmed");

        assertThat(ledger.balance(new LedgerAccount.Wallet(toCome))).isEqualTo(Usdc.parse("7"));
    }

    @Test
    void anArchivedWalletGetsNoSessionKey() {
        LedgerAddress wallet = fundedWallet(org, "agent-1");
        assertThat(code(new LedgerInstruction.UpdateWallet(op(), wallet, WalletStatus.ARCHIVED, policy, Sequences.next())))
                .isEqualTo("confirmed");

        assertThat(code(session(wallet, 1, clock.instant().plus(Duration.ofHours(1))))).isEqualTo("wallet_not_active");
    }

    @Test
    void theChainCountsWholeSeconds() {
        LedgerAddress wallet = fundedWallet(org, "agent-1");
        Instant second = clock.instant().plusSeconds(10);
        assertThat(code(session(wallet, 1, second.plusMillis(500)))).isEqualTo("confirmed");
        EscrowId escrow = ids.escrow();
        assertThat(code(new LedgerInstruction.EscrowLock(op(), escrow, wallet, PAYEE, Usdc.parse("1"),
                second.plusMillis(500), Optional.empty(), 1))).isEqualTo("confirmed");

        clock.set(second.plusMillis(200));
        assertThat(code(pay(wallet, PAYEE, "1"))).as("the session expires at its second").isEqualTo("session_token");
        clock.set(second.plusMillis(700));
        assertThat(code(refund(escrow, wallet))).as("the deadline is the next second").isEqualTo("escrow_not_due");
        clock.set(second.plusSeconds(1));
        assertThat(code(refund(escrow, wallet))).isEqualTo("confirmed");
    }

    @Test
    void aCoSignatureIsCheckedBeforeTheProgramWhereThePolicyAsksForOne() {
        TestCoSigner operator = new TestCoSigner(1);
        deposit(org);
        write(org, policy, rules().coSignAtOrAbove("50", operator).build());
        LedgerAddress wallet = openFunded(org, "agent-1", policy);
        LedgerInstruction.Pay below = pay(wallet, PAYEE, "1");
        String strangers = new TestCoSigner(2).sign(Base64.getEncoder().encodeToString(ledger.coSignMessage(below)));

        assertThat(code(below.withCoSignature("not-a-signature"))).isEqualTo("co_signature_invalid");
        assertThat(code(below.withCoSignature(strangers))).as("below the threshold too").isEqualTo("co_signature_invalid");
        assertThat(code(new LedgerInstruction.UpdateWallet(op(), wallet, WalletStatus.FROZEN, policy, Sequences.next())))
                .isEqualTo("confirmed");
        assertThat(code(pay(wallet, PAYEE, "1").withCoSignature("not-a-signature")))
                .as("before the wallet's status").isEqualTo("co_signature_invalid");
    }

    @Test
    void aCoSignatureAPolicyDoesNotAskForIsLeftOut() {
        deposit(org);
        write(org, policy, rules().coSigner(new TestCoSigner(1)).build());
        LedgerAddress wallet = openFunded(org, "agent-1", policy);
        LedgerInstruction.Pay pay = pay(wallet, PAYEE, "1");
        String strangers = new TestCoSigner(2).sign(Base64.getEncoder().encodeToString(ledger.coSignMessage(pay)));

        assertThat(code(pay.withCoSignature(strangers))).isEqualTo("confirmed");
    }

    private LedgerAddress fundedWallet(OrgId org, String agent) {
        deposit(org);
        write(org, policy, PolicyRules.NONE);
        return openFunded(org, agent, policy);
    }

    private LedgerAddress openFunded(OrgId org, String agent, PolicyId policy) {
        LedgerAddress wallet = ledger.walletAddress(org, agent);
        confirmed(new LedgerInstruction.OpenWallet(op(), wallet, org, agent, policy));
        confirmed(session(wallet, 1, clock.instant().plus(Duration.ofDays(1))));
        confirmed(new LedgerInstruction.Fund(op(), org, wallet, Usdc.parse("100")));
        return wallet;
    }

    private void deposit(OrgId org) {
        confirmed(new LedgerInstruction.Deposit(op(), org, Usdc.parse("1000")));
    }

    private void write(OrgId org, PolicyId policy, PolicyRules rules) {
        confirmed(new LedgerInstruction.WritePolicy(op(), org, policy, Sequences.next(), rules, Set.of()));
    }

    private LedgerInstruction.SetSessionKey session(LedgerAddress wallet, long version, Instant expiresAt) {
        return new LedgerInstruction.SetSessionKey(op(), wallet, version, expiresAt, Sequences.next());
    }

    private LedgerInstruction.Pay pay(LedgerAddress wallet, String to, String amount) {
        return new LedgerInstruction.Pay(op(), wallet, to, Usdc.parse(amount), clock.instant(), 1, Optional.empty());
    }

    private LedgerInstruction.EscrowLock lock(EscrowId escrow, LedgerAddress wallet, String amount) {
        return new LedgerInstruction.EscrowLock(op(), escrow, wallet, PAYEE, Usdc.parse(amount),
                clock.instant().plus(Duration.ofHours(1)), Optional.empty(), 1);
    }

    private LedgerInstruction.EscrowRefund refund(EscrowId escrow, LedgerAddress wallet) {
        return new LedgerInstruction.EscrowRefund(op(), escrow, wallet, Usdc.parse("1"), false);
    }

    private void confirmed(LedgerInstruction instruction) {
        assertThat(code(instruction)).as(instruction.toString()).isEqualTo("confirmed");
    }

    private String code(LedgerInstruction instruction) {
        LedgerOutcome outcome = ledger.submit(instruction);
        return outcome instanceof LedgerOutcome.Rejected rejected ? rejected.code() : "confirmed";
    }

    private String op() {
        return "op-" + ++operations;
    }
}
