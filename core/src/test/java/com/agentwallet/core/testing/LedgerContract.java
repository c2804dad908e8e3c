package com.agentwallet.core.testing;

import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.ledger.ProgramAddress;
import com.agentwallet.core.ledger.ProgramError;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.wallet.WalletStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every {@link LedgerPort} that implements the on-chain wallet program must do, whatever it
 * runs on: the simulator runs this suite in memory, the Solana adapter will run it against a
 * validator. A subclass supplies the ledger, built on the clock the suite moves (the chain's time
 * follows it: windows, expiries and escrow deadlines are read from it), and, if it is not the
 * default, the program id its wallet addresses derive from.
 *
 * <p>Every test also checks, through {@link #refused}, that a refused instruction moves no money:
 * the balances of every account the test touched are compared before and after.
 */
public abstract class LedgerContract {
    public static final String DEFAULT_PROGRAM_ID = "AgentWa11etProgram1111111111111111111111111";
    private static final long ID_SEED = 20_260_401L;
    private static final String PROOF = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    /** The session version the suite's wallets pay under. */
    protected static final long SESSION = 0;
    private static final String OTHER_PROOF = "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752";
    private static final String EXPIRED = ProgramError.ESCROW_EXPIRED.wireName();

    protected MutableClock clock;
    protected LedgerPort ledger;
    protected IdGenerator ids;
    protected final TestCoSigner coSigner = new TestCoSigner(77);
    protected final TestCoSigner stranger = new TestCoSigner(78);
    /** Every account a test touched, so a refusal can be checked to have moved nothing. */
    private final List<LedgerAccount> touched = new ArrayList<>();
    private int agents;

    /** A new, empty ledger whose chain time is {@code clock}. */
    protected abstract LedgerPort newLedger(MutableClock clock);

    /** The program the wallet addresses derive from. */
    protected LedgerAddress programId() {
        return new LedgerAddress(DEFAULT_PROGRAM_ID);
    }

    /**
     * The seed of the ids (organisations, policies, escrows, operations) and payees the suite makes;
     * a ledger whose chain outlives one test gives each test its own.
     */
    protected long idSeed() {
        return ID_SEED;
    }

    @BeforeEach
    void startLedger() {
        clock = MutableClock.atTestEpoch();
        ledger = newLedger(clock);
        ids = new RandomIdGenerator(new Random(idSeed()));
    }

    @AfterEach
    void closeLedger() throws Exception {
        if (ledger instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    // ------------------------------------------------------------------ addresses

    @Test
    void theWalletAddressIsTheProgramAddressOfItsOrganisationAndAgent() {
        OrgId org = ids.org();
        for (String agent : List.of("agent-1", "agent-2", "research-bot@example", "a".repeat(128))) {
            assertThat(ledger.walletAddress(org, agent)).as("address of %s", agent)
                    .isEqualTo(ProgramAddress.wallet(programId(), org.value(), agent).address());
        }
        assertThat(ledger.walletAddress(org, "agent-1")).isEqualTo(ledger.walletAddress(org, "agent-1"))
                .isNotEqualTo(ledger.walletAddress(org, "agent-2"))
                .isNotEqualTo(ledger.walletAddress(ids.org(), "agent-1"));
    }

    @Test
    void aWalletIsOpenedOnlyAtTheProgramAddressOfItsSeeds() {
        OrgId org = organisation("100");
        PolicyId policy = policy(org, PolicyRules.NONE);
        LedgerAddress othersAddress = ledger.walletAddress(org, "agent-b");
        track(othersAddress);

        refused(new LedgerInstruction.OpenWallet(op(), othersAddress, org, "agent-a", policy), "account_mismatch");
        refused(new LedgerInstruction.OpenWallet(op(), new LedgerAddress(Addresses.external("not-a-pda")), org,
                "agent-a", policy), "account_mismatch");
        refused(new LedgerInstruction.OpenWallet(op(), ledger.walletAddress(org, "agent-a"), ids.org(), "agent-a",
                policy), "account_mismatch");

        // Nothing was opened at the address of agent-b: funding it finds no account.
        refused(new LedgerInstruction.Fund(op(), org, othersAddress, usdc("1")), "account_not_found");
    }

    @Test
    void openingAWalletIsAnIdempotentUpsertThatKeepsItsBalance() {
        OrgId org = organisation("100");
        PolicyId policy = policy(org, PolicyRules.NONE);
        LedgerAddress address = ledger.walletAddress(org, "agent-x");
        LedgerInstruction.OpenWallet open = new LedgerInstruction.OpenWallet("open:" + address, address, org,
                "agent-x", policy);
        LedgerOutcome first = confirmed(open);
        assertThat(ledger.submit(open)).isEqualTo(first);
        confirmed(new LedgerInstruction.Fund(op(), org, address, usdc("40")));

        confirmed(new LedgerInstruction.OpenWallet(op(), address, org, "agent-x", policy));

        assertThat(balanceOf(address)).isEqualTo(usdc("40"));
    }

    @Test
    void aWalletNeedsAnExistingPolicyAccount() {
        OrgId org = organisation("100");
        LedgerAddress address = ledger.walletAddress(org, "agent-y");
        track(address);

        refused(new LedgerInstruction.OpenWallet(op(), address, org, "agent-y", ids.policy()), "account_not_found");
    }

    // ------------------------------------------------------------------ moving money

    @Test
    void accountsTheLedgerHasNeverSeenHoldNothing() {
        assertThat(ledger.balance(new LedgerAccount.Treasury(ids.org()))).isEqualTo(Usdc.ZERO);
        assertThat(ledger.balance(new LedgerAccount.Wallet(new LedgerAddress(Addresses.external("nobody")))))
                .isEqualTo(Usdc.ZERO);
        assertThat(ledger.balance(new LedgerAccount.Vault(ids.escrow(), new LedgerAddress(Addresses.external("nobody")))))
                .isEqualTo(Usdc.ZERO);
    }

    @Test
    void depositsFundingsAndWithdrawalsMoveMoneyBetweenTreasuryAndWallet() {
        OrgId org = organisation("1000.00");
        assertThat(treasury(org)).isEqualTo(usdc("1000"));
        LedgerAddress wallet = wallet(org, policy(org, PolicyRules.NONE), "0");

        confirmed(new LedgerInstruction.Fund(op(), org, wallet, usdc("300.5")));
        assertThat(treasury(org)).isEqualTo(usdc("699.5"));
        assertThat(balanceOf(wallet)).isEqualTo(usdc("300.5"));

        confirmed(new LedgerInstruction.Withdraw(op(), org, wallet, usdc("100.25")));
        assertThat(treasury(org)).isEqualTo(usdc("799.75"));
        assertThat(balanceOf(wallet)).isEqualTo(usdc("200.25"));

        confirmed(new LedgerInstruction.Deposit(op(), org, usdc("0.000001")));
        assertThat(treasury(org)).isEqualTo(usdc("799.750001"));

        confirmed(new LedgerInstruction.Withdraw(op(), org, wallet, usdc("200.25")));
        assertThat(balanceOf(wallet)).isEqualTo(Usdc.ZERO);
        assertThat(treasury(org)).isEqualTo(usdc("1000.000001"));
    }

    @Test
    void aPaymentMovesMoneyToTheRecipientsAccount() {
        OrgId org = organisation("1000");
        PolicyId policy = policy(org, PolicyRules.NONE);
        LedgerAddress from = wallet(org, policy, "300");
        LedgerAddress colleague = wallet(org, policy, "0");
        OrgId otherOrg = organisation("10");
        LedgerAddress otherOrgsWallet = wallet(otherOrg, policy(otherOrg, PolicyRules.NONE), "0");
        String merchant = payee("merchant");

        confirmed(payment(from, merchant, "40"));
        confirmed(payment(from, colleague.base58(), "60.000001"));
        confirmed(payment(from, otherOrgsWallet.base58(), "0.5"));

        assertThat(balanceOf(from)).isEqualTo(usdc("199.499999"));
        assertThat(received(merchant)).isEqualTo(usdc("40"));
        assertThat(balanceOf(colleague)).isEqualTo(usdc("60.000001"));
        assertThat(balanceOf(otherOrgsWallet)).isEqualTo(usdc("0.5"));
        assertThat(treasury(org)).isEqualTo(usdc("700"));
        assertThat(treasury(otherOrg)).isEqualTo(usdc("10"));
    }

    @Test
    void theSameOperationSubmittedTwiceAnswersTheSameOutcomeAndMovesMoneyOnce() {
        OrgId org = organisation("1000");
        LedgerAddress wallet = wallet(org, policy(org, PolicyRules.NONE), "0");
        String merchant = payee("merchant");

        LedgerInstruction.Deposit deposit = new LedgerInstruction.Deposit(op(), org, usdc("50"));
        LedgerInstruction.Fund fund = new LedgerInstruction.Fund(op(), org, wallet, usdc("100"));
        LedgerInstruction.Pay pay = payment(wallet, merchant, "30");
        LedgerInstruction.Withdraw withdraw = new LedgerInstruction.Withdraw(op(), org, wallet, usdc("20"));
        EscrowId escrow = ids.escrow();
        LedgerInstruction.EscrowLock lock = lock(escrow, wallet, merchant, "10", Duration.ofHours(1), Optional.empty());
        track(new LedgerAccount.Vault(escrow, wallet));
        LedgerInstruction.EscrowRelease release = release(escrow, wallet, merchant, "10", PROOF);

        for (LedgerInstruction instruction : List.of(deposit, fund, pay, withdraw, lock, release)) {
            LedgerOutcome first = confirmed(instruction);
            Map<LedgerAccount, Usdc> before = balances();
            assertThat(ledger.submit(instruction)).as("resubmitted %s", instruction).isEqualTo(first);
            assertThat(balances()).as("balances after resubmitting %s", instruction).isEqualTo(before);
        }

        assertThat(treasury(org)).isEqualTo(usdc("970"));
        assertThat(balanceOf(wallet)).isEqualTo(usdc("40"));
        assertThat(received(merchant)).isEqualTo(usdc("40"));
        assertThat(ledger.balance(new LedgerAccount.Vault(escrow, wallet))).isEqualTo(Usdc.ZERO);
    }

    @Test
    void aRefusedOperationAnswersItsFirstRefusalWhenResubmitted() {
        OrgId org = organisation("1000");
        LedgerAddress wallet = wallet(org, policy(org, PolicyRules.NONE), "10");
        LedgerInstruction.Pay tooMuch = payment(wallet, payee("merchant"), "50");
        LedgerOutcome first = refused(tooMuch, "insufficient_funds");

        confirmed(new LedgerInstruction.Fund(op(), org, wallet, usdc("100")));

        Map<LedgerAccount, Usdc> before = balances();
        assertThat(ledger.submit(tooMuch)).isEqualTo(first);
        assertThat(balances()).isEqualTo(before);
    }

    @Test
    void aRefusedInstructionChangesNoBalance() {
        OrgId org = organisation("100");
        LedgerAddress wallet = wallet(org, policy(org, PolicyRules.NONE), "60");
        String merchant = payee("merchant");

        refused(new LedgerInstruction.Fund(op(), org, wallet, usdc("40.000001")), "insufficient_funds");
        refused(new LedgerInstruction.Withdraw(op(), org, wallet, usdc("60.000001")), "insufficient_funds");
        refused(payment(wallet, merchant, "60.000001"), "insufficient_funds");
        EscrowId escrow = ids.escrow();
        track(new LedgerAccount.Vault(escrow, wallet));
        refused(lock(escrow, wallet, merchant, "61", Duration.ofSeconds(60), Optional.empty()), "insufficient_funds");

        assertThat(treasury(org)).isEqualTo(usdc("40"));
        assertThat(balanceOf(wallet)).isEqualTo(usdc("60"));
        assertThat(received(merchant)).isEqualTo(Usdc.ZERO);
    }

    // ------------------------------------------------------------------ the program's checks, one by one

    @Test
    void maxPerTxCapsEachPaymentInclusively() {
        LedgerAddress wallet = walletUnder(rules().maxPerTx("50").build(), "500");

        confirmed(payment(wallet, payee("merchant"), "50"));
        refused(payment(wallet, payee("merchant"), "50.000001"), "max_per_tx");
    }

    @Test
    void allowedRecipientsLimitWhoCanBePaid() {
        String allowed = payee("allowed");
        String other = payee("other");
        LedgerAddress wallet = walletUnder(rules().allowedRecipients(allowed).build(), "500");

        refused(payment(wallet, other, "1"), "allowed_recipients");
        confirmed(payment(wallet, allowed, "1"));
    }

    @Test
    void blockedRecipientsAreRefusedAsABlockedCategory() {
        String casino = payee("casino");
        String grocer = payee("grocer");
        OrgId org = organisation("1000");
        PolicyId policy = policy(org, rules().blockedCategories("gambling").build(), casino);
        LedgerAddress wallet = wallet(org, policy, "500");

        refused(payment(wallet, casino, "1"), "blocked_category");
        confirmed(payment(wallet, grocer, "1"));
    }

    @Test
    void maxPerDayCountsTheLast24Hours() {
        LedgerAddress wallet = walletUnder(rules().maxPerDay("100").build(), "500");
        String merchant = payee("merchant");

        confirmed(payment(wallet, merchant, "60"));
        confirmed(payment(wallet, merchant, "40"));
        refused(payment(wallet, merchant, "0.000001"), "max_per_day");

        clock.advance(Duration.ofHours(23));
        refused(payment(wallet, merchant, "0.000001"), "max_per_day");

        clock.advance(Duration.ofHours(1));
        confirmed(payment(wallet, merchant, "100"));
        refused(payment(wallet, merchant, "0.000001"), "max_per_day");
    }

    @Test
    void maxPerMonthCountsTheLast30Days() {
        LedgerAddress wallet = walletUnder(rules().maxPerMonth("100").build(), "500");
        String merchant = payee("merchant");

        confirmed(payment(wallet, merchant, "70"));
        clock.advance(Duration.ofDays(2));
        confirmed(payment(wallet, merchant, "30"));
        refused(payment(wallet, merchant, "1"), "max_per_month");

        clock.advance(Duration.ofDays(27));
        refused(payment(wallet, merchant, "1"), "max_per_month");

        clock.advance(Duration.ofDays(1));
        confirmed(payment(wallet, merchant, "70"));
        refused(payment(wallet, merchant, "0.000001"), "max_per_month");
    }

    @Test
    void velocityCapCountsPaymentsInTheLastHour() {
        LedgerAddress wallet = walletUnder(rules().velocityCap(2).build(), "500");
        String merchant = payee("merchant");

        confirmed(payment(wallet, merchant, "1"));
        confirmed(payment(wallet, merchant, "1"));
        refused(payment(wallet, merchant, "1"), "velocity_cap");

        clock.advance(Duration.ofMinutes(59));
        refused(payment(wallet, merchant, "1"), "velocity_cap");

        clock.advance(Duration.ofMinutes(1));
        confirmed(payment(wallet, merchant, "1"));
    }

    @Test
    void aPolicyStopsPaymentsFromTheInstantItExpires() {
        LedgerAddress wallet = walletUnder(rules().expiry(clock.instant().plus(Duration.ofHours(1))).build(), "500");
        String merchant = payee("merchant");

        confirmed(payment(wallet, merchant, "1"));
        clock.advance(Duration.ofHours(1).minusMillis(1));
        confirmed(payment(wallet, merchant, "1"));

        clock.advance(Duration.ofMillis(1));
        refused(payment(wallet, merchant, "1"), "policy_expired");
    }

    @Test
    void aFrozenWalletCannotSpendButCanBeFundedAndWithdrawnFrom() {
        OrgId org = organisation("1000");
        PolicyId policy = policy(org, PolicyRules.NONE);
        LedgerAddress wallet = wallet(org, policy, "100");
        String merchant = payee("merchant");

        confirmed(new LedgerInstruction.UpdateWallet(op(), wallet, WalletStatus.FROZEN, policy, Sequences.next()));
        refused(payment(wallet, merchant, "1"), "wallet_not_active");
        EscrowId escrow = ids.escrow();
        track(new LedgerAccount.Vault(escrow, wallet));
        refused(lock(escrow, wallet, merchant, "1", Duration.ofSeconds(60), Optional.empty()), "wallet_not_active");
        confirmed(new LedgerInstruction.Fund(op(), org, wallet, usdc("10")));
        confirmed(new LedgerInstruction.Withdraw(op(), org, wallet, usdc("5")));

        confirmed(new LedgerInstruction.UpdateWallet(op(), wallet, WalletStatus.ACTIVE, policy, Sequences.next()));
        confirmed(payment(wallet, merchant, "1"));
        assertThat(balanceOf(wallet)).isEqualTo(usdc("104"));
    }

    // ------------------------------------------------------------------ the session key (check 1)

    @Test
    void onlyTheKeyOfTheWalletsCurrentSessionSpendsAndOnlyUntilItExpires() {
        OrgId org = organisation("1000");
        LedgerAddress wallet = wallet(org, policy(org, PolicyRules.NONE), "100");
        String merchant = payee("merchant");
        EscrowId escrow = ids.escrow();
        track(new LedgerAccount.Vault(escrow, wallet));

        refused(paymentUnder(wallet, merchant, "1", SESSION + 1), "session_token");
        confirmed(session(wallet, SESSION + 1, clock.instant().plus(Duration.ofHours(1))));
        refused(payment(wallet, merchant, "1"), "session_token");
        refused(lock(escrow, wallet, merchant, "1", Duration.ofMinutes(5), Optional.empty()), "session_token");
        confirmed(paymentUnder(wallet, merchant, "1", SESSION + 1));

        clock.advance(Duration.ofHours(1).minusSeconds(1));
        confirmed(paymentUnder(wallet, merchant, "1", SESSION + 1));
        clock.advance(Duration.ofSeconds(1));
        refused(paymentUnder(wallet, merchant, "1", SESSION + 1), "session_token");

        assertThat(balanceOf(wallet)).isEqualTo(usdc("98"));
        assertThat(received(merchant)).isEqualTo(usdc("2"));
    }

    @Test
    void aWalletWhoseSessionKeyWasNeverWrittenCannotSpend() {
        OrgId org = organisation("100");
        PolicyId policy = policy(org, PolicyRules.NONE);
        LedgerAddress address = ledger.walletAddress(org, "agent-without-session");
        track(address);
        confirmed(new LedgerInstruction.OpenWallet("open:" + address, address, org, "agent-without-session", policy));
        confirmed(new LedgerInstruction.Fund(op(), org, address, usdc("10")));

        refused(payment(address, payee("merchant"), "1"), "session_token");
        refused(session(ledger.walletAddress(org, "never-opened"), SESSION, clock.instant().plusSeconds(60)),
                "account_not_found");
    }

    @Test
    void insufficientFundsIsCheckedAfterThePolicy() {
        LedgerAddress wallet = walletUnder(rules().maxPerTx("50").build(), "10");
        String merchant = payee("merchant");

        refused(payment(wallet, merchant, "60"), "max_per_tx");
        refused(payment(wallet, merchant, "20"), "insufficient_funds");
        confirmed(payment(wallet, merchant, "10"));
    }

    @Test
    void instructionsOnAccountsThatDoNotExistAreRefused() {
        OrgId org = organisation("100");
        LedgerAddress wallet = wallet(org, policy(org, PolicyRules.NONE), "10");
        LedgerAddress neverOpened = ledger.walletAddress(org, "never-opened");
        track(neverOpened);
        String merchant = payee("merchant");

        refused(payment(neverOpened, merchant, "1"), "account_not_found");
        refused(new LedgerInstruction.Fund(op(), org, neverOpened, usdc("1")), "account_not_found");
        refused(new LedgerInstruction.Withdraw(op(), org, neverOpened, usdc("1")), "account_not_found");
        refused(new LedgerInstruction.UpdateWallet(op(), neverOpened, WalletStatus.FROZEN, ids.policy(), Sequences.next()),
                "account_not_found");
        OrgId otherOrg = organisation("100");
        refused(new LedgerInstruction.Fund(op(), otherOrg, wallet, usdc("1")), "account_not_found");
    }

    @Test
    void theChecksRunInTheProgramsEnforcementOrder() {
        String allowed = payee("allowed");
        String blocked = payee("allowed-but-blocked");
        String outsider = payee("not-allowed");
        Instant start = clock.instant();
        OrgId org = organisation("1000");
        PolicyId policy = policy(org, rules().maxPerTx("100").allowedRecipients(allowed, blocked)
                .blockedCategories("gambling").maxPerDay("150").maxPerMonth("160").velocityCap(2)
                .expiry(start.plus(Duration.ofHours(24)).plus(Duration.ofMinutes(30))).build(), blocked);
        LedgerAddress wallet = wallet(org, policy, "160");

        refused(payment(wallet, outsider, "101"), "max_per_tx");
        refused(payment(wallet, outsider, "100"), "allowed_recipients");
        refused(payment(wallet, blocked, "100"), "blocked_category");
        confirmed(payment(wallet, allowed, "100"));
        refused(payment(wallet, blocked, "60"), "blocked_category");
        // Over the day and month caps and over the balance: the day cap speaks first.
        refused(payment(wallet, allowed, "70"), "max_per_day");

        clock.advance(Duration.ofHours(24));
        confirmed(new LedgerInstruction.Fund(op(), org, wallet, usdc("200")));
        confirmed(payment(wallet, allowed, "10"));
        confirmed(payment(wallet, allowed, "10"));
        // Over the month cap and over the velocity cap: the month cap speaks first.
        refused(payment(wallet, allowed, "41"), "max_per_month");
        refused(payment(wallet, allowed, "10"), "velocity_cap");

        clock.advance(Duration.ofMinutes(30));
        // Expired and over the velocity cap: the velocity cap speaks first.
        refused(payment(wallet, allowed, "10"), "velocity_cap");

        clock.advance(Duration.ofHours(1));
        refused(payment(wallet, allowed, "10"), "policy_expired");
        refused(payment(wallet, outsider, "10"), "allowed_recipients");

        // The wallet's state comes before any policy check.
        confirmed(new LedgerInstruction.UpdateWallet(op(), wallet, WalletStatus.FROZEN, policy, Sequences.next()));
        refused(payment(wallet, outsider, "101"), "wallet_not_active");
    }

    @Test
    void aNewerPolicyWriteAppliesToTheNextPaymentAndAStaleOneIsRefusedWithoutUndoingIt() {
        OrgId org = organisation("1000");
        PolicyId policy = policy(org, PolicyRules.NONE);
        LedgerAddress wallet = wallet(org, policy, "500");
        String merchant = payee("merchant");
        confirmed(payment(wallet, merchant, "50"));

        long newer = Sequences.next();
        confirmed(writePolicy(org, policy, newer, rules().maxPerTx("10").build()));
        refused(payment(wallet, merchant, "50"), "max_per_tx");

        refused(writePolicy(org, policy, newer - 1, PolicyRules.NONE), "stale_write");
        refused(writePolicy(org, policy, newer, PolicyRules.NONE), "stale_write");
        refused(payment(wallet, merchant, "50"), "max_per_tx");
        confirmed(payment(wallet, merchant, "10"));
    }

    @Test
    void aStaleSessionKeyOrWalletUpdateIsRefusedAndChangesNothing() {
        OrgId org = organisation("1000");
        PolicyId policy = policy(org, PolicyRules.NONE);
        PolicyId strict = policy(org, rules().maxPerTx("5").build());
        LedgerAddress wallet = wallet(org, policy, "100");
        String merchant = payee("merchant");
        long sequence = Sequences.next();
        confirmed(new LedgerInstruction.UpdateWallet(op(), wallet, WalletStatus.ACTIVE, policy, sequence));

        refused(new LedgerInstruction.UpdateWallet(op(), wallet, WalletStatus.FROZEN, strict, sequence - 1),
                "stale_write");
        refused(new LedgerInstruction.UpdateWallet(op(), wallet, WalletStatus.FROZEN, strict, sequence), "stale_write");
        refused(new LedgerInstruction.SetSessionKey(op(), wallet, SESSION + 1, clock.instant().plus(Duration.ofDays(1)),
                sequence), "stale_write");
        confirmed(payment(wallet, merchant, "50"));
    }

    @Test
    void aWalletCanBeMovedToAnotherPolicyOfItsOrganisation() {
        OrgId org = organisation("1000");
        PolicyId lax = policy(org, PolicyRules.NONE);
        PolicyId strict = policy(org, rules().maxPerTx("5").build());
        LedgerAddress wallet = wallet(org, lax, "100");
        String merchant = payee("merchant");

        confirmed(new LedgerInstruction.UpdateWallet(op(), wallet, WalletStatus.ACTIVE, strict, Sequences.next()));
        refused(payment(wallet, merchant, "6"), "max_per_tx");

        OrgId otherOrg = organisation("1");
        PolicyId othersPolicy = policy(otherOrg, PolicyRules.NONE);
        refused(new LedgerInstruction.UpdateWallet(op(), wallet, WalletStatus.ACTIVE, othersPolicy, Sequences.next()), "account_not_found");
        refused(payment(wallet, merchant, "6"), "max_per_tx");
    }

    // ------------------------------------------------------------------ co-signatures

    @Test
    void paymentsAtOrAboveTheThresholdNeedTheCoSignersSignatureOfTheCoSignMessage() {
        LedgerAddress wallet = walletUnder(rules().coSignAtOrAbove("100", coSigner).build(), "500");
        String merchant = payee("merchant");

        confirmed(payment(wallet, merchant, "99.999999"));
        refused(payment(wallet, merchant, "100"), "co_signature_invalid");

        LedgerInstruction.Pay byStranger = payment(wallet, merchant, "100");
        refused(byStranger.withCoSignature(stranger.sign(coSignPayload(byStranger))), "co_signature_invalid");

        LedgerInstruction.Pay small = payment(wallet, merchant, "100");
        LedgerInstruction.Pay large = new LedgerInstruction.Pay(op(), wallet, merchant, usdc("400"),
                small.requestedAt(), small.sessionVersion(), Optional.empty());
        refused(large.withCoSignature(coSigner.sign(coSignPayload(small))), "co_signature_invalid");
        refused(large.withCoSignature("not-a-signature"), "co_signature_invalid");

        LedgerInstruction.Pay signed = payment(wallet, merchant, "150");
        confirmed(signed.withCoSignature(coSigner.sign(coSignPayload(signed))));

        assertThat(received(merchant)).isEqualTo(usdc("249.999999"));
        assertThat(balanceOf(wallet)).isEqualTo(usdc("250.000001"));
    }

    @Test
    void theCoSignMessageIdentifiesThePaymentAndNotItsSignature() {
        OrgId org = organisation("10");
        LedgerAddress wallet = wallet(org, policy(org, PolicyRules.NONE), "0");
        LedgerInstruction.Pay pay = payment(wallet, payee("merchant"), "100");

        assertThat(ledger.coSignMessage(pay)).isNotEmpty()
                .isEqualTo(ledger.coSignMessage(pay))
                .isEqualTo(ledger.coSignMessage(pay.withCoSignature(coSigner.sign(coSignPayload(pay)))));
        LedgerInstruction.Pay otherAmount = new LedgerInstruction.Pay(pay.operationId(), pay.wallet(), pay.recipient(),
                usdc("100.000001"), pay.requestedAt(), pay.sessionVersion(), Optional.empty());
        LedgerInstruction.Pay otherRecipient = new LedgerInstruction.Pay(pay.operationId(), pay.wallet(),
                payee("other"), pay.amount(), pay.requestedAt(), pay.sessionVersion(), Optional.empty());
        LedgerInstruction.Pay otherOperation = new LedgerInstruction.Pay(op(), pay.wallet(), pay.recipient(),
                pay.amount(), pay.requestedAt(), pay.sessionVersion(), Optional.empty());
        LedgerInstruction.Pay otherSession = new LedgerInstruction.Pay(pay.operationId(), pay.wallet(), pay.recipient(),
                pay.amount(), pay.requestedAt(), pay.sessionVersion() + 1, Optional.empty());
        for (LedgerInstruction.Pay other : List.of(otherAmount, otherRecipient, otherOperation, otherSession)) {
            assertThat(ledger.coSignMessage(other)).as("message of %s", other).isNotEqualTo(ledger.coSignMessage(pay));
        }
    }

    // ------------------------------------------------------------------ escrow

    @Test
    void anEscrowLockedAndReleasedWithTheMatchingProofPaysTheReceiver() {
        OrgId org = organisation("1000");
        PolicyId policy = policy(org, PolicyRules.NONE);
        LedgerAddress sender = wallet(org, policy, "100");
        LedgerAddress receiver = wallet(org, policy, "0");
        EscrowId escrow = ids.escrow();
        track(new LedgerAccount.Vault(escrow, sender));

        confirmed(lock(escrow, sender, receiver.base58(), "30", Duration.ofHours(1), Optional.of(PROOF)));
        assertThat(balanceOf(sender)).isEqualTo(usdc("70"));
        assertThat(ledger.balance(new LedgerAccount.Vault(escrow, sender))).isEqualTo(usdc("30"));

        refused(release(escrow, sender, receiver.base58(), "30", OTHER_PROOF), "proof_mismatch");
        confirmed(release(escrow, sender, receiver.base58(), "30", PROOF));

        assertThat(balanceOf(receiver)).isEqualTo(usdc("30"));
        assertThat(ledger.balance(new LedgerAccount.Vault(escrow, sender))).isEqualTo(Usdc.ZERO);
        // A settled escrow is closed: it no longer exists, and its id can be locked anew.
        refused(release(escrow, sender, receiver.base58(), "30", PROOF), "account_not_found");
        refused(new LedgerInstruction.EscrowRefund(op(), escrow, sender, usdc("30"), false), "account_not_found");
        refused(new LedgerInstruction.EscrowDispute(op(), escrow, sender), "account_not_found");
        confirmed(lock(escrow, sender, receiver.base58(), "10", Duration.ofHours(1), Optional.of(PROOF)));
        assertThat(ledger.balance(new LedgerAccount.Vault(escrow, sender))).isEqualTo(usdc("10"));
    }

    @Test
    void anEscrowWithoutAnExpectedProofIsReleasedToAnOutsideReceiverByAnyProof() {
        OrgId org = organisation("1000");
        LedgerAddress sender = wallet(org, policy(org, PolicyRules.NONE), "100");
        String receiver = payee("contractor");
        EscrowId escrow = ids.escrow();
        track(new LedgerAccount.Vault(escrow, sender));

        confirmed(lock(escrow, sender, receiver, "25", Duration.ofMinutes(5), Optional.empty()));
        confirmed(release(escrow, sender, receiver, "25", OTHER_PROOF));

        assertThat(received(receiver)).isEqualTo(usdc("25"));
        assertThat(balanceOf(sender)).isEqualTo(usdc("75"));
    }

    @Test
    void anEscrowIsRefundedOnTimeoutOnlyFromItsDeadline() {
        OrgId org = organisation("1000");
        LedgerAddress sender = wallet(org, policy(org, PolicyRules.NONE), "100");
        String receiver = payee("contractor");
        EscrowId escrow = ids.escrow();
        track(new LedgerAccount.Vault(escrow, sender));
        confirmed(lock(escrow, sender, receiver, "40", Duration.ofHours(1), Optional.of(PROOF)));

        refused(new LedgerInstruction.EscrowRefund(op(), escrow, sender, usdc("40"), false), "escrow_not_due");
        clock.advance(Duration.ofHours(1).minusMillis(1));
        refused(new LedgerInstruction.EscrowRefund(op(), escrow, sender, usdc("40"), false), "escrow_not_due");

        clock.advance(Duration.ofMillis(1));
        confirmed(new LedgerInstruction.EscrowRefund(op(), escrow, sender, usdc("40"), false));

        assertThat(balanceOf(sender)).isEqualTo(usdc("100"));
        assertThat(ledger.balance(new LedgerAccount.Vault(escrow, sender))).isEqualTo(Usdc.ZERO);
        assertThat(received(receiver)).isEqualTo(Usdc.ZERO);
    }

    /**
     * Two escrows of one sender, of an hour each: 25 to act on in time and 40 too late; the clock is
     * left a millisecond short of their deadline.
     */
    private record DeadlinePair(LedgerAddress sender, String receiver, EscrowId inTime, EscrowId late) {
    }

    private DeadlinePair twoEscrowsJustBeforeTheirDeadline() {
        OrgId org = organisation("1000");
        LedgerAddress sender = wallet(org, policy(org, PolicyRules.NONE), "100");
        String receiver = payee("contractor");
        EscrowId inTime = ids.escrow();
        EscrowId late = ids.escrow();
        track(new LedgerAccount.Vault(inTime, sender));
        track(new LedgerAccount.Vault(late, sender));
        confirmed(lock(inTime, sender, receiver, "25", Duration.ofHours(1), Optional.of(PROOF)));
        confirmed(lock(late, sender, receiver, "40", Duration.ofHours(1), Optional.of(PROOF)));
        clock.advance(Duration.ofHours(1).minusMillis(1));
        return new DeadlinePair(sender, receiver, inTime, late);
    }

    @Test
    void anEscrowIsReleasedOnlyBeforeItsDeadlineAndFromItOnlyRefunded() {
        DeadlinePair pair = twoEscrowsJustBeforeTheirDeadline();
        confirmed(release(pair.inTime(), pair.sender(), pair.receiver(), "25", PROOF));

        clock.advance(Duration.ofMillis(1));
        refused(release(pair.late(), pair.sender(), pair.receiver(), "40", PROOF), EXPIRED);
        refused(release(pair.late(), pair.sender(), pair.receiver(), "40", OTHER_PROOF), EXPIRED);
        clock.advance(Duration.ofDays(1));
        refused(release(pair.late(), pair.sender(), pair.receiver(), "40", PROOF), EXPIRED);
        assertThat(ledger.balance(new LedgerAccount.Vault(pair.late(), pair.sender()))).isEqualTo(usdc("40"));

        confirmed(new LedgerInstruction.EscrowRefund(op(), pair.late(), pair.sender(), usdc("40"), false));
        assertThat(balanceOf(pair.sender())).isEqualTo(usdc("75"));
        assertThat(received(pair.receiver())).isEqualTo(usdc("25"));
        assertThat(ledger.balance(new LedgerAccount.Vault(pair.late(), pair.sender()))).isEqualTo(Usdc.ZERO);
    }

    @Test
    void anEscrowIsDisputedOnlyBeforeItsDeadlineSoThatNoDisputeBlocksItsRefund() {
        DeadlinePair pair = twoEscrowsJustBeforeTheirDeadline();
        confirmed(new LedgerInstruction.EscrowDispute(op(), pair.inTime(), pair.sender()));

        clock.advance(Duration.ofMillis(1));
        refused(new LedgerInstruction.EscrowDispute(op(), pair.late(), pair.sender()), EXPIRED);
        clock.advance(Duration.ofDays(1));
        refused(new LedgerInstruction.EscrowDispute(op(), pair.late(), pair.sender()), EXPIRED);
        assertThat(ledger.balance(new LedgerAccount.Vault(pair.late(), pair.sender()))).isEqualTo(usdc("40"));

        confirmed(new LedgerInstruction.EscrowRefund(op(), pair.late(), pair.sender(), usdc("40"), false));
        refused(new LedgerInstruction.EscrowRefund(op(), pair.inTime(), pair.sender(), usdc("25"), false),
                "escrow_disputed");
        confirmed(new LedgerInstruction.EscrowRelease(op(), pair.inTime(), pair.sender(), pair.receiver(), usdc("25"),
                Optional.empty()));
        assertThat(balanceOf(pair.sender())).isEqualTo(usdc("75"));
        assertThat(received(pair.receiver())).isEqualTo(usdc("25"));
    }

    @Test
    void aDisputedEscrowDoesNotTimeOutAndIsSettledByTheOrganisationsResolution() {
        OrgId org = organisation("1000");
        LedgerAddress sender = wallet(org, policy(org, PolicyRules.NONE), "100");
        String receiver = payee("contractor");
        EscrowId refundedByResolution = ids.escrow();
        EscrowId releasedByResolution = ids.escrow();
        track(new LedgerAccount.Vault(refundedByResolution, sender));
        track(new LedgerAccount.Vault(releasedByResolution, sender));
        confirmed(lock(refundedByResolution, sender, receiver, "40", Duration.ofHours(1), Optional.of(PROOF)));
        confirmed(lock(releasedByResolution, sender, receiver, "15", Duration.ofHours(1), Optional.of(PROOF)));

        confirmed(new LedgerInstruction.EscrowDispute(op(), refundedByResolution, sender));
        confirmed(new LedgerInstruction.EscrowDispute(op(), releasedByResolution, sender));
        clock.advance(Duration.ofHours(2));
        refused(new LedgerInstruction.EscrowRefund(op(), refundedByResolution, sender, usdc("40"), false),
                "escrow_disputed");

        confirmed(new LedgerInstruction.EscrowRefund(op(), refundedByResolution, sender, usdc("40"), true));
        confirmed(new LedgerInstruction.EscrowRelease(op(), releasedByResolution, sender, receiver, usdc("15"),
                Optional.empty()));

        assertThat(balanceOf(sender)).isEqualTo(usdc("85"));
        assertThat(received(receiver)).isEqualTo(usdc("15"));
        assertThat(ledger.balance(new LedgerAccount.Vault(refundedByResolution, sender))).isEqualTo(Usdc.ZERO);
        assertThat(ledger.balance(new LedgerAccount.Vault(releasedByResolution, sender))).isEqualTo(Usdc.ZERO);
    }

    @Test
    void anEscrowAtOrAboveTheCoSignThresholdIsRefused() {
        LedgerAddress sender = walletUnder(rules().coSignAtOrAbove("100", coSigner).build(), "500");
        String receiver = payee("contractor");
        EscrowId atThreshold = ids.escrow();
        EscrowId below = ids.escrow();
        track(new LedgerAccount.Vault(atThreshold, sender));
        track(new LedgerAccount.Vault(below, sender));

        refused(lock(atThreshold, sender, receiver, "100", Duration.ofHours(1), Optional.empty()), "require_co_sign");
        confirmed(lock(below, sender, receiver, "99.999999", Duration.ofHours(1), Optional.empty()));
    }

    @Test
    void anEscrowLockCountsTowardTheCapsUntilItIsRefunded() {
        LedgerAddress sender = walletUnder(rules().maxPerDay("100").build(), "500");
        String receiver = payee("contractor");
        EscrowId escrow = ids.escrow();
        track(new LedgerAccount.Vault(escrow, sender));

        confirmed(lock(escrow, sender, receiver, "80", Duration.ofHours(1), Optional.empty()));
        refused(payment(sender, receiver, "30"), "max_per_day");

        confirmed(new LedgerInstruction.EscrowDispute(op(), escrow, sender));
        confirmed(new LedgerInstruction.EscrowRefund(op(), escrow, sender, usdc("80"), true));
        confirmed(payment(sender, receiver, "30"));
    }

    // ------------------------------------------------------------------ confirmations

    @Test
    void aConfirmationCarriesABase58SignatureAndASlotThatDoesNotGoBackwards() {
        OrgId org = organisation("1000");
        LedgerAddress wallet = wallet(org, policy(org, PolicyRules.NONE), "100");
        Set<String> signatures = new HashSet<>();
        long lastSlot = Long.MIN_VALUE;
        long lastCurrent = ledger.currentSlot();
        for (int i = 0; i < 12; i++) {
            clock.advance(Duration.ofMillis(137L * i));
            LedgerInstruction instruction = i % 2 == 0
                    ? payment(wallet, payee("merchant"), "1")
                    : new LedgerInstruction.Deposit(op(), org, usdc("1"));
            LedgerOutcome.Confirmed confirmed = confirmed(instruction);

            assertThat(Base58.decode(confirmed.signature(), 64)).as("signature %s", confirmed.signature()).isPresent();
            assertThat(signatures.add(confirmed.signature())).as("signature %s is new", confirmed.signature()).isTrue();
            assertThat(confirmed.slot()).isGreaterThanOrEqualTo(0).isGreaterThanOrEqualTo(lastSlot);
            long current = ledger.currentSlot();
            assertThat(current).isGreaterThanOrEqualTo(confirmed.slot()).isGreaterThanOrEqualTo(lastCurrent);
            lastSlot = confirmed.slot();
            lastCurrent = current;
        }
    }

    // ------------------------------------------------------------------ helpers for subclasses

    protected static Usdc usdc(String amount) {
        return Usdc.parse(amount);
    }

    /** A fresh operation id. */
    protected String op() {
        return ids.tx().value();
    }

    /** A new organisation whose treasury received {@code deposit}. */
    protected OrgId organisation(String deposit) {
        OrgId org = ids.org();
        track(new LedgerAccount.Treasury(org));
        confirmed(new LedgerInstruction.Deposit(op(), org, usdc(deposit)));
        return org;
    }

    /** The chain's copy of a new policy (version 1), blocking {@code blockedRecipients}. */
    protected PolicyId policy(OrgId org, PolicyRules policyRules, String... blockedRecipients) {
        PolicyId policy = ids.policy();
        confirmed(writePolicy(org, policy, Sequences.next(), policyRules, blockedRecipients));
        return policy;
    }

    protected LedgerInstruction.WritePolicy writePolicy(OrgId org, PolicyId policy, long sequence,
                                                        PolicyRules policyRules, String... blockedRecipients) {
        return new LedgerInstruction.WritePolicy("policy:" + policy + ":s" + sequence + ":" + op(), org, policy, sequence,
                policyRules, Set.of(blockedRecipients));
    }

    /** A wallet of a new agent, opened at its program address and funded from the treasury. */
    protected LedgerAddress wallet(OrgId org, PolicyId policy, String funding) {
        String agent = "agent-" + ++agents;
        LedgerAddress address = ledger.walletAddress(org, agent);
        track(address);
        confirmed(new LedgerInstruction.OpenWallet("open:" + address, address, org, agent, policy));
        confirmed(session(address, SESSION, clock.instant().plus(Duration.ofDays(365))));
        if (!usdc(funding).isZero()) {
            confirmed(new LedgerInstruction.Fund(op(), org, address, usdc(funding)));
        }
        return address;
    }

    /** A funded wallet of a new organisation under a policy with {@code policyRules}. */
    protected LedgerAddress walletUnder(PolicyRules policyRules, String funding) {
        OrgId org = organisation("10000");
        return wallet(org, policy(org, policyRules), funding);
    }

    /**
     * An address outside the program, whose received money the test watches; named after the id
     * seed too, so that tests sharing one chain each watch their own payees. It holds a USDC account
     * ({@link #openUsdcAccount}), as every recipient must.
     */
    protected String payee(String name) {
        String address = Addresses.external(name + "@" + idSeed());
        openUsdcAccount(address);
        track(new LedgerAddress(address));
        return address;
    }

    /**
     * Gives {@code address} an (empty) USDC token account on the ledger, which a ledger may require of
     * a recipient before paying it. Nothing by default: the simulator models every address as holding one.
     */
    protected void openUsdcAccount(String address) {
    }

    /** Puts the key of session {@code version} of the wallet on chain until {@code expiresAt}. */
    protected LedgerInstruction.SetSessionKey session(LedgerAddress wallet, long version, Instant expiresAt) {
        return new LedgerInstruction.SetSessionKey(op(), wallet, version, expiresAt, Sequences.next());
    }

    protected LedgerInstruction.Pay payment(LedgerAddress wallet, String to, String amount) {
        return paymentUnder(wallet, to, amount, SESSION);
    }

    /** A payment signed by the key of the wallet's session {@code sessionVersion}. */
    protected LedgerInstruction.Pay paymentUnder(LedgerAddress wallet, String to, String amount, long sessionVersion) {
        return new LedgerInstruction.Pay(op(), wallet, to, usdc(amount), clock.instant(), sessionVersion, Optional.empty());
    }

    protected LedgerInstruction.EscrowLock lock(EscrowId escrow, LedgerAddress wallet, String receiver, String amount,
                                                Duration timeout, Optional<String> expectedProof) {
        return new LedgerInstruction.EscrowLock(op(), escrow, wallet, receiver, usdc(amount),
                clock.instant().plus(timeout), expectedProof, SESSION);
    }

    protected LedgerInstruction.EscrowRelease release(EscrowId escrow, LedgerAddress sender, String receiver,
                                                      String amount, String proof) {
        return new LedgerInstruction.EscrowRelease(op(), escrow, sender, receiver, usdc(amount), Optional.of(proof));
    }

    /** What an operator signs: the base64 of the ledger's co-sign message, as the service hands it out. */
    protected String coSignPayload(LedgerInstruction.Pay payment) {
        return Base64.getEncoder().encodeToString(ledger.coSignMessage(payment));
    }

    protected LedgerOutcome.Confirmed confirmed(LedgerInstruction instruction) {
        LedgerOutcome outcome = ledger.submit(instruction);
        assertThat(outcome).as("outcome of %s", instruction).isInstanceOf(LedgerOutcome.Confirmed.class);
        return (LedgerOutcome.Confirmed) outcome;
    }

    /** Submits an instruction that must be refused with {@code code}, and checks that no balance moved. */
    protected LedgerOutcome.Rejected refused(LedgerInstruction instruction, String code) {
        Map<LedgerAccount, Usdc> before = balances();
        LedgerOutcome outcome = ledger.submit(instruction);
        assertThat(outcome).as("outcome of %s", instruction).isInstanceOf(LedgerOutcome.Rejected.class);
        LedgerOutcome.Rejected rejected = (LedgerOutcome.Rejected) outcome;
        assertThat(rejected.code()).as("code of %s (%s)", instruction, rejected.message()).isEqualTo(code);
        assertThat(balances()).as("balances after the refused %s", instruction).isEqualTo(before);
        return rejected;
    }

    protected Usdc treasury(OrgId org) {
        return ledger.balance(new LedgerAccount.Treasury(org));
    }

    protected Usdc balanceOf(LedgerAddress wallet) {
        return ledger.balance(new LedgerAccount.Wallet(wallet));
    }

    protected Usdc received(String address) {
        return ledger.balance(new LedgerAccount.Wallet(new LedgerAddress(address)));
    }

    protected void track(LedgerAddress address) {
        track(new LedgerAccount.Wallet(address));
    }

    protected void track(LedgerAccount account) {
        if (!touched.contains(account)) {
            touched.add(account);
        }
    }

    /** The balance of every account the test touched. */
    protected Map<LedgerAccount, Usdc> balances() {
        Map<LedgerAccount, Usdc> balances = new LinkedHashMap<>();
        for (LedgerAccount account : touched) {
            balances.put(account, ledger.balance(account));
        }
        return balances;
    }
}
