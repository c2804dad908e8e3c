package com.agentwallet.adapters.solana;

import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.ledger.ProgramAddress;
import com.agentwallet.core.ledger.ProgramError;
import com.agentwallet.core.ledger.solana.AssociatedTokenAccount;
import com.agentwallet.core.ledger.solana.LegacyMessage;
import com.agentwallet.core.ledger.solana.PaymentTransaction;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.LedgerJournal;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.testing.InMemoryLedgerJournal;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.wallet.WalletStatus;
import com.agentwallet.core.testing.Sequences;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.p2p.solanaj.core.Account;
import org.p2p.solanaj.core.PublicKey;
import org.p2p.solanaj.rpc.RpcClient;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the Solana adapter adds to the ledger contract: its journal keeps an operation from being
 * sent twice across restarts, a transaction that can no longer land fails the operation without
 * moving money, policies too large for one transaction are written in several, the program
 * itself refuses a co-signature by anyone but the policy's co-signer, a co-signed payment's nonce
 * account is closed once the payment ends, and a recipient without a USDC token account is refused
 * before anything is sent.
 */
class SolanaLedgerTest {
    private static final AtomicLong TESTS = new AtomicLong();
    private static final long SIGNATURE_FEE_LAMPORTS = 5_000;
    private static Localnet localnet;

    @TempDir
    Path data;
    private final MutableClock clock = MutableClock.atTestEpoch();
    /** Fresh ids and payees for each test, the same in every run: the localnet is shared by the class. */
    private final long test = TESTS.incrementAndGet();
    private final RandomIdGenerator ids = new RandomIdGenerator(new Random(test));
    private final String run = "test-" + test;
    private LedgerPort ledger;
    private final InMemoryLedgerJournal journal = new InMemoryLedgerJournal();

    @BeforeAll
    static void startLocalnet() {
        localnet = Localnet.start();
    }

    @AfterAll
    static void stopLocalnet() throws InterruptedException {
        localnet.close();
    }

    @BeforeEach
    void openLedger() {
        ledger = newLedger();
    }

    @Test
    void aResubmissionAfterARestartFindsTheFirstTransactionAndPaysOnce() throws Exception {
        LedgerAddress wallet = fundedWallet(PolicyRules.NONE, "100");
        String merchant = payee("merchant");
        LedgerInstruction.Pay pay = pay(wallet, merchant, "30");
        LedgerOutcome first = ledger.submit(pay);
        assertThat(first).isInstanceOf(LedgerOutcome.Confirmed.class);

        // The process died after sending, before it recorded the outcome: only the attempt is in the journal.
        journal.forgetOutcome(pay.operationId());

        ledger = newLedger();
        assertThat(ledger.submit(pay)).isEqualTo(first);
        assertThat(ledger.submit(pay)).isEqualTo(first);
        assertThat(received(merchant)).isEqualTo(Usdc.parse("30"));
        assertThat(balance(wallet)).isEqualTo(Usdc.parse("70"));
    }

    @Test
    void twoProcessesSubmittingOnePaymentAtOnceOverOneJournalPayOnceAndHearTheSameOutcome() throws Exception {
        LedgerAddress wallet = fundedWallet(PolicyRules.NONE, "100");
        String merchant = payee("merchant");
        LedgerInstruction.Pay pay = pay(wallet, merchant, "30");
        LedgerPort otherProcess = newLedger();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService processes = Executors.newFixedThreadPool(2);
        try {
            List<Future<LedgerOutcome>> outcomes = List.of(processes.submit(() -> {
                start.await();
                return ledger.submit(pay);
            }), processes.submit(() -> {
                start.await();
                return otherProcess.submit(pay);
            }));
            start.countDown();
            LedgerOutcome first = outcomes.get(0).get(60, TimeUnit.SECONDS);
            assertThat(first).isInstanceOf(LedgerOutcome.Confirmed.class);
            assertThat(outcomes.get(1).get(60, TimeUnit.SECONDS)).isEqualTo(first);
            assertThat(journal.attempt(pay.operationId()).orElseThrow().signature())
                    .isEqualTo(((LedgerOutcome.Confirmed) first).signature());
        } finally {
            processes.shutdownNow();
        }
        assertThat(received(merchant)).isEqualTo(Usdc.parse("30"));
        assertThat(balance(wallet)).isEqualTo(Usdc.parse("70"));
    }

    @Test
    void anOperationWhoseTransactionExpiredUnsentFailsWithoutMovingMoneyAndStaysFailed() throws Exception {
        LedgerAddress wallet = fundedWallet(PolicyRules.NONE, "100");
        String merchant = payee("merchant");
        LedgerInstruction.Pay pay = pay(wallet, merchant, "30");
        // The process journaled the signed transaction and died before sending it; its blockhash is long gone.
        byte[] neverSent = new byte[64];
        new Random(test).nextBytes(neverSent);
        journal.attempted(pay.operationId(), new LedgerJournal.Attempt(Base58.encode(neverSent),
                "{\"transaction\":\"AA==\",\"last_valid_block_height\":0,\"programs\":[]}"));
        localnet.call("localnet_advanceSlots", "[2]");

        ledger = newLedger();
        LedgerOutcome outcome = ledger.submit(pay);
        assertThat(outcome).isInstanceOf(LedgerOutcome.Rejected.class);
        assertThat(((LedgerOutcome.Rejected) outcome).code()).isEqualTo("transaction_expired");
        assertThat(ledger.submit(pay)).isEqualTo(outcome);
        assertThat(received(merchant)).isEqualTo(Usdc.ZERO);
        assertThat(balance(wallet)).isEqualTo(Usdc.parse("100"));
    }

    @Test
    void aPolicyTooLargeForOneTransactionIsWrittenInSeveralAndEnforcedWhole() {
        List<String> allowed = IntStream.range(0, PolicyRules.MAX_ALLOWED_RECIPIENTS).mapToObj(i -> payee("allowed-" + i))
                .toList();
        Set<String> blocked = IntStream.range(0, 64).mapToObj(i -> payee("blocked-" + i)).collect(Collectors.toSet());
        OrgId org = organisation();
        PolicyId policy = ids.policy();
        confirmed(new LedgerInstruction.WritePolicy("policy:" + run, org, policy, Sequences.next(),
                rules().allowedRecipients(allowed.toArray(String[]::new)).build(), blocked));
        LedgerAddress wallet = wallet(org, policy, "100");

        confirmed(pay(wallet, allowed.get(31), "1"));
        refused(pay(wallet, payee("stranger"), "1"), "allowed_recipients");
        assertThat(received(allowed.get(31))).isEqualTo(Usdc.parse("1"));

        PolicyId open = ids.policy();
        confirmed(new LedgerInstruction.WritePolicy("policy:open:" + run, org, open, Sequences.next(), PolicyRules.NONE, blocked));
        confirmed(new LedgerInstruction.UpdateWallet("move:" + run, wallet,
                WalletStatus.ACTIVE, open, Sequences.next()));
        for (String each : blocked) {
            refused(pay(wallet, each, "1"), "blocked_category");
        }
        confirmed(pay(wallet, payee("stranger"), "1"));
    }

    @Test
    void theProgramItselfRefusesAPaymentCoSignedByAnyoneButThePolicysCoSigner() throws Exception {
        TestCoSigner operator = new TestCoSigner(77);
        LedgerAddress wallet = fundedWallet(rules().coSignAtOrAbove("10", operator).build(), "100");
        String merchant = payee("merchant");
        Account stranger = new Account();
        localnet.call("requestAirdrop", "[\"" + stranger.getPublicKeyBase58() + "\", 1000000000]");

        // Built by hand, past the adapter's own check: the stranger signs where the co-signer should.
        Keys keys = localnet.keys();
        SolanaAddresses addresses = new SolanaAddresses(new LedgerAddress(SolanaLedgerFactory.DEFAULT_PROGRAM_ID),
                new PublicKey(SolanaLedgerFactory.USDC_MINTS.get("localnet")));
        Account session = keys.session(new LedgerAddress(SolanaLedgerFactory.DEFAULT_PROGRAM_ID), wallet, 0);
        SolanaRpc rpc = new SolanaRpc(new RpcClient(localnet.rpcUrl()), Commitment.CONFIRMED);
        PublicKey policy = new PublicKey(Arrays.copyOfRange(
                rpc.accountData(SolanaAddresses.key(wallet)).orElseThrow(), ProgramAccounts.WALLET_POLICY,
                ProgramAccounts.WALLET_POLICY + 32));
        LegacyMessage message = LegacyMessage.compile(SolanaAddresses.address(keys.feePayer()), new PaymentTransaction(
                new LedgerAddress(SolanaLedgerFactory.DEFAULT_PROGRAM_ID), SolanaAddresses.address(addresses.mint()),
                SolanaAddresses.address(keys.feePayer()), SolanaAddresses.address(session.getPublicKey()), wallet,
                SolanaAddresses.address(policy), new LedgerAddress(merchant), Usdc.parse("20"), clock.instant(),
                Optional.of(SolanaAddresses.address(stranger.getPublicKey()))).instructions(),
                rpc.latestBlockhash().hash());
        byte[] bytes = message.bytes();
        String signature = rpc.send(message.transaction(List.of(Keys.sign(localnet.feePayer(), bytes),
                Keys.sign(session, bytes), Keys.sign(stranger, bytes))));

        SolanaRpc.Status status = rpc.statuses(List.of(signature)).get(0).orElseThrow();
        // It counts at its request, which only the policy's co-signer may sign for: invalid_argument, not a payment.
        assertThat(status.err()).hasToString("{InstructionError=[0, {Custom=18}]}");
        assertThat(balance(wallet)).isEqualTo(Usdc.parse("100"));
        assertThat(received(merchant)).isEqualTo(Usdc.ZERO);
    }

    @Test
    void aCoSignedPaymentsNonceAccountIsClosedOnceItEndsItsRentBackToTheFeePayer() throws Exception {
        TestCoSigner operator = new TestCoSigner(77);
        LedgerAddress wallet = fundedWallet(rules().coSignAtOrAbove("10", operator).build(), "100");
        String merchant = payee("merchant");
        SolanaRpc rpc = new SolanaRpc(new RpcClient(localnet.rpcUrl()), Commitment.CONFIRMED);
        PublicKey feePayer = localnet.feePayer().getPublicKey();

        LedgerInstruction.Pay paid = pay(wallet, merchant, "20");
        String message = Base64.getEncoder().encodeToString(ledger.coSignMessage(paid));
        PublicKey nonce = nonceAccountOf(paid);
        long rent = rpc.balanceLamports(nonce);
        assertThat(rent).as("the nonce account's rent").isPositive();
        long before = rpc.balanceLamports(feePayer);
        confirmed(paid.withCoSignature(operator.sign(message)));
        assertThat(exists(nonce)).isFalse();
        // The payment's fee (fee payer, session key and operator sign) and the closing's (the fee payer alone).
        assertThat(rpc.balanceLamports(feePayer) - before).isEqualTo(rent - 4 * SIGNATURE_FEE_LAMPORTS);
        assertThat(ledger.submit(paid.withCoSignature(operator.sign(message)))).isInstanceOf(LedgerOutcome.Confirmed.class);
        assertThat(received(merchant)).isEqualTo(Usdc.parse("20"));

        LedgerInstruction.Pay refused = pay(wallet, merchant, "30");
        ledger.coSignMessage(refused);
        refused(refused.withCoSignature(operator.sign(Base64.getEncoder().encodeToString(
                ledger.coSignMessage(pay(wallet, merchant, "31"))))), "co_signature_invalid");
        assertThat(exists(nonceAccountOf(refused))).as("the nonce of a payment refused before sending").isFalse();

        LedgerInstruction.Pay abandoned = pay(wallet, merchant, "40");
        ledger.coSignMessage(abandoned);
        assertThat(exists(nonceAccountOf(abandoned))).isTrue();
        before = rpc.balanceLamports(feePayer);
        ledger.coSignAbandoned(abandoned.operationId());
        assertThat(exists(nonceAccountOf(abandoned))).as("the nonce of a payment rejected or expired").isFalse();
        assertThat(rpc.balanceLamports(feePayer) - before).isEqualTo(rent - SIGNATURE_FEE_LAMPORTS);
        assertThat(balance(wallet)).isEqualTo(Usdc.parse("80"));
    }

    @Test
    void aPaymentToAnAddressWithoutAUsdcAccountIsRefusedWithoutATransactionAndOpensNothing() throws Exception {
        String newcomer = stranger("newcomer");
        LedgerAddress wallet = fundedWallet(PolicyRules.NONE, "100");
        LedgerInstruction.Pay pay = pay(wallet, newcomer, "0.000001");

        refused(pay, LedgerOutcome.Rejected.RECIPIENT_ACCOUNT_MISSING);
        assertThat(((LedgerOutcome.Rejected) ledger.submit(pay)).message()).as("the answer again, from the journal")
                .contains(newcomer, "must open one");
        assertThat(exists(usdcAccountOf(newcomer))).isFalse();
        assertThat(balance(wallet)).isEqualTo(Usdc.parse("100"));
        assertThat(journal.outcome(pay.operationId())).as("the operation's journal: its outcome").isPresent();
        assertThat(journal.attempt(pay.operationId())).as("and no transaction").isEmpty();

        localnet.openUsdcAccount(newcomer);
        confirmed(pay(wallet, newcomer, "0.000001"));
        assertThat(received(newcomer)).isEqualTo(Usdc.parse("0.000001"));
    }

    @Test
    void anEscrowReleaseToAReceiverWithoutAUsdcAccountIsRefusedUntilItOpensOne() throws Exception {
        LedgerAddress wallet = fundedWallet(PolicyRules.NONE, "100");
        String contractor = stranger("contractor");
        EscrowId escrow = ids.escrow();
        confirmed(new LedgerInstruction.EscrowLock("lock:" + run, escrow, wallet, contractor, Usdc.parse("30"),
                clock.instant().plus(Duration.ofHours(1)), Optional.empty(), 0));
        String proof = "ab".repeat(32);

        refused(new LedgerInstruction.EscrowRelease("release:" + run, escrow, wallet, contractor, Usdc.parse("30"),
                Optional.of(proof)), LedgerOutcome.Rejected.RECIPIENT_ACCOUNT_MISSING);
        assertThat(exists(usdcAccountOf(contractor))).isFalse();
        assertThat(ledger.balance(new LedgerAccount.Vault(escrow, wallet))).isEqualTo(Usdc.parse("30"));

        localnet.openUsdcAccount(contractor);
        confirmed(new LedgerInstruction.EscrowRelease("release-again:" + run, escrow, wallet, contractor,
                Usdc.parse("30"), Optional.of(proof)));
        assertThat(received(contractor)).isEqualTo(Usdc.parse("30"));
    }

    @Test
    void aStrangerCannotOpenAnOrganisationsTreasuryFirst() throws Exception {
        OrgId org = ids.org();
        Account stranger = new Account();
        localnet.call("requestAirdrop", "[\"" + stranger.getPublicKeyBase58() + "\", 1000000000]");
        Optional<Map<?, ?>> error = initTreasury(org, stranger, stranger, stranger.getPublicKey());
        assertThat(error).as("the stranger's init, signed by itself as registrar").isPresent();
        assertThat(error.get().toString()).contains("Custom=" + ProgramError.ACCOUNT_MISMATCH.code());

        // The organisation's treasury is still free: the service opens it with its first deposit.
        confirmed(new LedgerInstruction.Deposit("deposit:" + run, org, Usdc.parse("1000")));
        assertThat(ledger.balance(new LedgerAccount.Treasury(org))).isEqualTo(Usdc.parse("1000"));
    }

    @Test
    void noDepositGoesToATreasuryOfAnotherAuthority() throws Exception {
        // The registrar's key opens the organisation's treasury for another authority first (a
        // deployment with another authority root, or an organisation that moved its authority away).
        OrgId org = ids.org();
        Account elsewhere = new Account();
        assertThat(initTreasury(org, localnet.feePayer(), localnet.registrar(), elsewhere.getPublicKey())).isEmpty();

        // An instruction that only names the treasury first must not make the adapter take it for its own.
        LedgerAddress wallet = ledger.walletAddress(org, "agent-" + run);
        assertThat(ledger.submit(new LedgerInstruction.OpenWallet("open:" + wallet, wallet, org, "agent-" + run,
                ids.policy()))).as("a wallet under the other authority's treasury").isInstanceOf(LedgerOutcome.Rejected.class);
        refused(new LedgerInstruction.Deposit("deposit:" + run, org, Usdc.parse("1000")), "account_mismatch");
        assertThat(ledger.balance(new LedgerAccount.Treasury(org))).as("the other treasury").isEqualTo(Usdc.ZERO);
    }

    // ------------------------------------------------------------------ helpers

    /** Sends init treasury for {@code org} paid by {@code payer}, signed as registrar by {@code registrar}; its error. */
    private Optional<Map<?, ?>> initTreasury(OrgId org, Account payer, Account registrar, PublicKey authority)
            throws Exception {
        byte[] orgHash = SolanaAddresses.hash(org.value());
        SolanaAddresses addresses = new SolanaAddresses(new LedgerAddress(SolanaLedgerFactory.DEFAULT_PROGRAM_ID),
                new PublicKey(SolanaLedgerFactory.USDC_MINTS.get("localnet")));
        ProgramInstructions program = new ProgramInstructions(addresses.program(), addresses.mint());
        ProgramAddress treasury = addresses.treasury(orgHash);
        ProgramAddress token = addresses.tokenAccount(treasury.address());
        SolanaRpc rpc = new SolanaRpc(new RpcClient(localnet.rpcUrl()), Commitment.CONFIRMED);
        LegacyMessage message = Instructions.compile(payer.getPublicKey(), List.of(
                Instructions.createTokenAccountIdempotent(payer.getPublicKey(), SolanaAddresses.key(token.address()),
                        SolanaAddresses.key(treasury.address()), addresses.mint()),
                program.initTreasury(payer.getPublicKey(), registrar.getPublicKey(),
                        SolanaAddresses.key(addresses.config().address()), SolanaAddresses.key(treasury.address()),
                        treasury.bump(), SolanaAddresses.key(token.address()), token.bump(), orgHash, authority)),
                rpc.latestBlockhash().hash());
        List<byte[]> signatures = message.signers().stream()
                .map(signer -> Keys.sign(signer.base58().equals(payer.getPublicKeyBase58()) ? payer : registrar,
                        message.bytes())).toList();
        String signature = rpc.send(message.transaction(signatures));
        return Optional.ofNullable((Map<?, ?>) rpc.statuses(List.of(signature)).get(0).orElseThrow().err());
    }

    /** A ledger as a server process has it: a restart, or another process, is another ledger on the same journal. */
    private LedgerPort newLedger() {
        return localnet.ledger(clock, data, journal);
    }

    private OrgId organisation() {
        OrgId org = ids.org();
        confirmed(new LedgerInstruction.Deposit("deposit:" + run, org, Usdc.parse("1000")));
        return org;
    }

    private LedgerAddress fundedWallet(PolicyRules rules, String funding) {
        OrgId org = organisation();
        PolicyId policy = ids.policy();
        confirmed(new LedgerInstruction.WritePolicy("policy:" + run, org, policy, Sequences.next(), rules, Set.of()));
        return wallet(org, policy, funding);
    }

    private LedgerAddress wallet(OrgId org, PolicyId policy, String funding) {
        LedgerAddress wallet = ledger.walletAddress(org, "agent-" + run);
        confirmed(new LedgerInstruction.OpenWallet("open:" + wallet, wallet, org, "agent-" + run, policy));
        confirmed(new LedgerInstruction.SetSessionKey("session:" + wallet, wallet, 0,
                clock.instant().plus(Duration.ofDays(1)), Sequences.next()));
        confirmed(new LedgerInstruction.Fund("fund:" + wallet, org, wallet, Usdc.parse(funding)));
        return wallet;
    }

    private LedgerInstruction.Pay pay(LedgerAddress wallet, String to, String amount) {
        return new LedgerInstruction.Pay("pay:" + ids.tx().value(), wallet, to, Usdc.parse(amount), clock.instant(), 0,
                Optional.empty());
    }

    /** An outside address holding its (empty) USDC token account, as a recipient must. */
    private String payee(String name) {
        String address = stranger(name);
        localnet.openUsdcAccount(address);
        return address;
    }

    /** An outside address without a USDC token account. */
    private String stranger(String name) {
        return Addresses.external(name + "@" + run);
    }

    private boolean exists(PublicKey address) throws Exception {
        return new SolanaRpc(new RpcClient(localnet.rpcUrl()), Commitment.CONFIRMED).accountData(address).isPresent();
    }

    private PublicKey nonceAccountOf(LedgerInstruction.Pay payment) {
        return SolanaAddresses.key(PaymentTransaction.nonceAccount(
                SolanaAddresses.address(localnet.feePayer().getPublicKey()), payment.operationId()));
    }

    private PublicKey usdcAccountOf(String owner) {
        return SolanaAddresses.key(AssociatedTokenAccount.address(new LedgerAddress(owner),
                new LedgerAddress(SolanaLedgerFactory.USDC_MINTS.get("localnet"))).address());
    }

    private void confirmed(LedgerInstruction instruction) {
        assertThat(ledger.submit(instruction)).as("outcome of %s", instruction).isInstanceOf(LedgerOutcome.Confirmed.class);
    }

    private void refused(LedgerInstruction instruction, String code) {
        LedgerOutcome outcome = ledger.submit(instruction);
        assertThat(outcome).as("outcome of %s", instruction).isInstanceOf(LedgerOutcome.Rejected.class);
        assertThat(((LedgerOutcome.Rejected) outcome).code()).isEqualTo(code);
    }

    private Usdc balance(LedgerAddress wallet) {
        return ledger.balance(new LedgerAccount.Wallet(wallet));
    }

    private Usdc received(String address) {
        return balance(new LedgerAddress(address));
    }
}
