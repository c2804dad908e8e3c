package com.agentwallet.adapters.sim;

import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventType;
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
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.Decision;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;
import com.agentwallet.core.testing.Sequences;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chain is the backstop: a payment the service wrongly let through is still refused by the
 * wallet program, which checks its own copy of the policy, and the service then fails the payment
 * and gives the money back.
 */
class SimPolicyBackstopTest {
    /** The session version the wallets written straight to the chain pay under. */
    private static final long SESSION = 0;
    private final MutableClock clock = MutableClock.atTestEpoch();
    private final IdGenerator ids = new RandomIdGenerator(new Random(17));
    private final String merchant = Addresses.external("merchant");
    private final String casino = Addresses.external("casino");

    // ------------------------------------------------------------------ straight to the chain

    @Test
    void aPaymentThatBreaksTheChainsCopyOfThePolicyIsRefusedWithItsRule() {
        SimulatedLedger ledger = SimulatedLedger.inMemory(clock, 5L);
        OrgId org = ids.org();
        PolicyId policy = ids.policy();
        LedgerAddress wallet = ledger.walletAddress(org, "agent-1");
        confirmed(ledger, new LedgerInstruction.Deposit(op(), org, Usdc.parse("1000")));
        confirmed(ledger, new LedgerInstruction.WritePolicy(op(), org, policy, Sequences.next(), rules().maxPerTx("50")
                .maxPerDay("80").blockedCategories("gambling").build(), Set.of(casino)));
        confirmed(ledger, new LedgerInstruction.OpenWallet(op(), wallet, org, "agent-1", policy));
        confirmed(ledger, session(wallet, SESSION, clock.instant().plus(Duration.ofDays(365))));
        confirmed(ledger, new LedgerInstruction.Fund(op(), org, wallet, Usdc.parse("500")));
        confirmed(ledger, pay(wallet, merchant, "50"));

        Map<String, String> refusals = Map.of("50.01", "max_per_tx", "30.000001", "max_per_day");
        refusals.forEach((amount, code) -> assertRefusedAndNothingMoved(ledger, pay(wallet, merchant, amount), code,
                wallet));
        assertRefusedAndNothingMoved(ledger, pay(wallet, casino, "1"), "blocked_category", wallet);

        confirmed(ledger, pay(wallet, merchant, "30"));
        assertThat(ledger.balance(new LedgerAccount.Wallet(wallet))).isEqualTo(Usdc.parse("420"));
    }

    /**
     * Check 1, the session key, runs where the C program runs it: after the wallet's state and the
     * amount, before every policy check; a lock is checked like a payment.
     */
    @Test
    void theSessionKeyIsCheckedAfterTheWalletsStateAndBeforeThePolicy() {
        SimulatedLedger ledger = SimulatedLedger.inMemory(clock, 5L);
        OrgId org = ids.org();
        PolicyId policy = ids.policy();
        LedgerAddress wallet = ledger.walletAddress(org, "agent-1");
        EscrowId escrow = ids.escrow();
        confirmed(ledger, new LedgerInstruction.Deposit(op(), org, Usdc.parse("1000")));
        confirmed(ledger, new LedgerInstruction.WritePolicy(op(), org, policy, Sequences.next(), rules().maxPerTx("50")
                .blockedCategories("gambling").expiry(clock.instant().plus(Duration.ofMinutes(30))).build(),
                Set.of(casino)));
        confirmed(ledger, new LedgerInstruction.OpenWallet(op(), wallet, org, "agent-1", policy));
        confirmed(ledger, new LedgerInstruction.Fund(op(), org, wallet, Usdc.parse("100")));

        // No key on chain yet: the session speaks before the policy, but after the amount.
        assertRefusedAndNothingMoved(ledger, pay(wallet, merchant, "50.01"), "session_token", wallet);
        assertRefusedAndNothingMoved(ledger, pay(wallet, casino, "1"), "session_token", wallet);
        assertRefusedAndNothingMoved(ledger, new LedgerInstruction.EscrowLock(op(), escrow, wallet, merchant,
                Usdc.parse("50.01"), clock.instant().plus(Duration.ofHours(1)), Optional.empty(), SESSION),
                "session_token", wallet);
        assertRefusedAndNothingMoved(ledger, pay(wallet, merchant, "0"), "invalid_argument", wallet);

        confirmed(ledger, session(wallet, SESSION, clock.instant().plus(Duration.ofHours(1))));
        assertRefusedAndNothingMoved(ledger, pay(wallet, merchant, "50.01"), "max_per_tx", wallet);
        assertRefusedAndNothingMoved(ledger, payUnder(wallet, merchant, "50.01", SESSION + 1), "session_token",
                wallet);

        // Past the policy's expiry the key is still valid: the policy speaks.
        clock.advance(Duration.ofMinutes(30));
        assertRefusedAndNothingMoved(ledger, pay(wallet, merchant, "1"), "policy_expired", wallet);
        // Past the key's expiry as well: the session speaks first.
        clock.advance(Duration.ofMinutes(30));
        assertRefusedAndNothingMoved(ledger, pay(wallet, merchant, "1"), "session_token", wallet);
        assertRefusedAndNothingMoved(ledger, pay(wallet, merchant, "50.01"), "session_token", wallet);

        // The wallet's state comes before the session.
        confirmed(ledger, new LedgerInstruction.UpdateWallet(op(), wallet, WalletStatus.FROZEN, policy, Sequences.next()));
        assertRefusedAndNothingMoved(ledger, pay(wallet, merchant, "1"), "wallet_not_active", wallet);
        assertThat(ledger.balance(new LedgerAccount.Wallet(wallet))).isEqualTo(Usdc.parse("100"));
        assertThat(ledger.balance(new LedgerAccount.Vault(escrow, wallet))).isEqualTo(Usdc.ZERO);
    }

    // ------------------------------------------------------------------ through the service

    @Test
    void whenTheChainsPolicyIsStricterTheServicesPaymentFailsAndTheMoneyComesBack() {
        CoreFixture core = CoreFixture.on(clock -> SimulatedLedger.inMemory(clock, 5L), 23L);
        SimulatedLedger chain = (SimulatedLedger) core.ledgerPort;
        Scenario scenario = new Scenario(core);
        OrgId org = scenario.organisation("1000");
        Policy policy = scenario.policy(org, rules().maxPerTx("500").build());
        Scenario.FundedWallet wallet = scenario.wallet(org, policy, "agent-1", "300");
        LedgerAddress address = wallet.wallet().address();

        // The chain's copy becomes stricter than the service's: a newer version written straight to the ledger.
        confirmed(chain, new LedgerInstruction.WritePolicy(op(), org, policy.id(), Sequences.next(),
                rules().maxPerTx("10").build(), Set.of(casino)));

        Transaction tooLarge = paid(scenario.pay(wallet, merchant, "50").value());
        assertFailedWithMoneyBack(core, tooLarge, "max_per_tx", "300");
        Transaction toBlocked = paid(scenario.pay(wallet, casino, "5").value());
        assertFailedWithMoneyBack(core, toBlocked, "blocked_category", "300");

        Transaction allowed = paid(scenario.pay(wallet, merchant, "10").value());
        assertThat(allowed.status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(core.wallets.get(org, wallet.wallet().id()).value().balance()).isEqualTo(Usdc.parse("290"));
        assertThat(chain.balance(new LedgerAccount.Wallet(address))).isEqualTo(Usdc.parse("290"));
        assertThat(chain.receivedBy(merchant)).isEqualTo(Usdc.parse("10"));
        assertThat(chain.receivedBy(casino)).isEqualTo(Usdc.ZERO);
    }

    @Test
    void whenTheChainHasTheWalletFrozenTheServicesPaymentFailsAndTheMoneyComesBack() {
        CoreFixture core = CoreFixture.on(clock -> SimulatedLedger.inMemory(clock, 5L), 29L);
        SimulatedLedger chain = (SimulatedLedger) core.ledgerPort;
        Scenario scenario = new Scenario(core);
        OrgId org = scenario.organisation("1000");
        Policy policy = scenario.policy(org, PolicyRules.NONE);
        Scenario.FundedWallet wallet = scenario.wallet(org, policy, "agent-1", "300");

        confirmed(chain, new LedgerInstruction.UpdateWallet(op(), wallet.wallet().address(), WalletStatus.FROZEN,
                policy.id(), Sequences.next()));

        Transaction payment = paid(scenario.pay(wallet, merchant, "50").value());
        assertFailedWithMoneyBack(core, payment, "wallet_not_active", "300");
    }

    @Test
    void whenTheChainsDayCapIsStricterTheCapIsGivenBackWithTheMoney() {
        CoreFixture core = CoreFixture.on(clock -> SimulatedLedger.inMemory(clock, 5L), 31L);
        SimulatedLedger chain = (SimulatedLedger) core.ledgerPort;
        Scenario scenario = new Scenario(core);
        OrgId org = scenario.organisation("1000");
        Policy policy = scenario.policy(org, rules().maxPerDay("100").build());
        Scenario.FundedWallet wallet = scenario.wallet(org, policy, "agent-1", "300");
        assertThat(paid(scenario.pay(wallet, merchant, "60").value()).status()).isEqualTo(TransactionStatus.CONFIRMED);

        confirmed(chain, new LedgerInstruction.WritePolicy(op(), org, policy.id(), Sequences.next(),
                rules().maxPerDay("70").build(), Set.of()));

        Transaction overTheChainsCap = paid(scenario.pay(wallet, merchant, "30").value());
        assertFailedWithMoneyBack(core, overTheChainsCap, "max_per_day", "240");
        // The failed 30 left the service's day total: 60 + 40 is exactly the service's cap of 100.
        assertThat(core.payments.decide(scenario.payment(wallet, merchant, "40")).value())
                .isInstanceOf(Decision.Allowed.class);

        core.clock.advance(Duration.ofHours(24));
        Scenario.FundedWallet later = new Scenario.FundedWallet(wallet.wallet(),
                core.wallets.rotateSession(org, wallet.wallet().id(), Optional.empty()).value());
        assertThat(paid(scenario.pay(later, merchant, "70").value()).status()).isEqualTo(TransactionStatus.CONFIRMED);
    }

    // ------------------------------------------------------------------ helpers

    private static Transaction paid(PaymentResult result) {
        return result.transaction();
    }

    private static void assertFailedWithMoneyBack(CoreFixture core, Transaction tx, String code, String balance) {
        assertThat(tx.status()).as("status of %s", tx.id()).isEqualTo(TransactionStatus.FAILED);
        assertThat(tx.failureReason()).hasValueSatisfying(reason -> assertThat(reason).startsWith(code + ":"));
        Wallet wallet = core.wallets.get(tx.orgId(), tx.walletId()).value();
        assertThat(wallet.balance()).as("the books' balance after the refusal").isEqualTo(Usdc.parse(balance));
        assertThat(core.ledgerPort.balance(new LedgerAccount.Wallet(wallet.address())))
                .as("the chain's balance after the refusal").isEqualTo(Usdc.parse(balance));
        assertThat(core.storage.spendsOf(tx.walletId())).as("the failed payment left the caps")
                .noneMatch(spend -> spend.txId().equals(tx.id()));
        assertThat(core.storage.outbox()).as("transaction.failed was announced")
                .anyMatch(event -> event.event() instanceof DomainEvent.TransactionEnded ended
                        && ended.tx().id().equals(tx.id()) && ended.type() == EventType.TRANSACTION_FAILED);
    }

    private void assertRefusedAndNothingMoved(SimulatedLedger ledger, LedgerInstruction instruction, String code,
                                              LedgerAddress wallet) {
        List<LedgerAccount> accounts = List.of(new LedgerAccount.Wallet(wallet),
                new LedgerAccount.Wallet(new LedgerAddress(merchant)), new LedgerAccount.Wallet(new LedgerAddress(casino)));
        List<Usdc> before = accounts.stream().map(ledger::balance).toList();
        LedgerOutcome outcome = ledger.submit(instruction);
        assertThat(outcome).as("%s", instruction).isInstanceOfSatisfying(LedgerOutcome.Rejected.class,
                rejected -> assertThat(rejected.code()).isEqualTo(code));
        assertThat(accounts.stream().map(ledger::balance).toList()).isEqualTo(before);
    }

    private static void confirmed(SimulatedLedger ledger, LedgerInstruction instruction) {
        assertThat(ledger.submit(instruction)).as("%s", instruction).isInstanceOf(LedgerOutcome.Confirmed.class);
    }

    private LedgerInstruction.SetSessionKey session(LedgerAddress wallet, long version, Instant expiresAt) {
        return new LedgerInstruction.SetSessionKey(op(), wallet, version, expiresAt, Sequences.next());
    }

    private LedgerInstruction.Pay pay(LedgerAddress wallet, String to, String amount) {
        return payUnder(wallet, to, amount, SESSION);
    }

    /** A payment signed by the key of the wallet's session {@code sessionVersion}. */
    private LedgerInstruction.Pay payUnder(LedgerAddress wallet, String to, String amount, long sessionVersion) {
        return new LedgerInstruction.Pay(op(), wallet, to, Usdc.parse(amount), clock.instant(), sessionVersion,
                Optional.empty());
    }

    private String op() {
        return ids.tx().value();
    }
}
