package com.agentwallet.adapters.solana;

import com.agentwallet.adapters.solana.Submissions.Attempt;
import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.ledger.ProgramAddress;
import com.agentwallet.core.ledger.ProgramError;
import com.agentwallet.core.ledger.solana.Bytes;
import com.agentwallet.core.ledger.solana.LegacyMessage;
import com.agentwallet.core.ledger.solana.PaymentTransaction;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.LedgerUnavailableException;
import org.p2p.solanaj.core.Account;
import org.p2p.solanaj.core.PublicKey;
import org.p2p.solanaj.core.TransactionInstruction;
import org.p2p.solanaj.rpc.RpcException;
import org.p2p.solanaj.utils.TweetNaclFast;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static com.agentwallet.adapters.solana.SolanaAddresses.address;
import static com.agentwallet.adapters.solana.SolanaAddresses.hash;
import static com.agentwallet.adapters.solana.SolanaAddresses.key;
import static java.util.Objects.requireNonNull;

/**
 * The ledger on Solana: each instruction becomes one real transaction (a large policy, a few) to
 * the wallet program, signed by the fee payer, by the wallet's session key where the program asks
 * for it, and by the operator where a payment is co-signed; sent, then confirmed by polling its
 * signature at the configured commitment, and rebroadcast while its blockhash is valid.
 *
 * <p>Every signed transaction is journaled before it is sent ({@link Submissions}), in the journal
 * every server process shares. Submitting an operation again, from any process, asks the cluster
 * about the transaction already recorded for it and waits for that one, so nothing is sent twice; when none of them can land any more (its blockhash expired)
 * the operation fails with {@code transaction_expired}, and the books give the money back.
 *
 * <p>A co-signed payment is a durable-nonce transaction: {@link #coSignMessage} opens a nonce
 * account for the operation, so the message the operator signs stays valid however long the
 * co-signature takes, and can land only once.
 */
public final class SolanaLedger implements LedgerPort {
    private static final int LOCK_STRIPES = 1024;
    private static final long REBROADCAST_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final int FIRST_POLICY_ENTRIES = 12;
    private static final int MORE_POLICY_ENTRIES = 24;
    private static final int MAX_ALLOWED_ENTRIES = 32;
    private static final int MAX_BLOCKED_ENTRIES = 64;
    private static final int KIND_WALLET = 2;
    private static final int TOKEN_ACCOUNT_SIZE = 165;
    private static final int TOKEN_MINT_OFFSET = 0;
    private static final int TOKEN_OWNER_OFFSET = 32;
    private static final int TOKEN_AMOUNT_OFFSET = 64;
    private static final int TOKEN_STATE_OFFSET = 108;
    private static final int TOKEN_STATE_INITIALIZED = 1;
    private static final int NONCE_OFFSET = 40;
    private static final int TOKEN_INSUFFICIENT_FUNDS = 1;

    private final SolanaRpc rpc;
    private final Commitment commitment;
    private final LedgerAddress programId;
    private final SolanaAddresses addresses;
    private final ProgramInstructions program;
    private final Keys keys;
    private final Submissions journal;
    private final Duration timeout;
    private final Duration pollInterval;
    private final Object[] locks = new Object[LOCK_STRIPES];
    private static final System.Logger LOG = System.getLogger(SolanaLedger.class.getName());

    private final Set<String> treasuries = ConcurrentHashMap.newKeySet();

    SolanaLedger(SolanaRpc rpc, Commitment commitment, LedgerAddress programId, PublicKey mint, Keys keys,
                 Submissions journal, Duration timeout, Duration pollInterval) {
        this.rpc = requireNonNull(rpc, "rpc is null");
        this.commitment = requireNonNull(commitment, "commitment is null");
        this.programId = requireNonNull(programId, "programId is null");
        this.addresses = new SolanaAddresses(programId, mint);
        this.program = new ProgramInstructions(addresses.program(), mint);
        this.keys = requireNonNull(keys, "keys is null");
        this.journal = requireNonNull(journal, "journal is null");
        this.timeout = requireNonNull(timeout, "timeout is null");
        this.pollInterval = requireNonNull(pollInterval, "pollInterval is null");
        Arrays.setAll(locks, i -> new Object());
    }

    @Override
    public LedgerAddress walletAddress(OrgId orgId, String agentId) {
        return addresses.wallet(orgId.value(), agentId).address();
    }

    @Override
    public LedgerOutcome submit(LedgerInstruction instruction) {
        try {
            if (instruction instanceof LedgerInstruction.WritePolicy write) {
                return writePolicy(write);
            }
            LedgerOutcome outcome = once(instruction.operationId(), () -> plan(instruction));
            if (instruction instanceof LedgerInstruction.Pay pay && pay.coSignature().isPresent()
                    && !(outcome instanceof LedgerOutcome.Unknown)) {
                closeNonce(pay.operationId());
            }
            return outcome;
        } catch (RpcException e) {
            return new LedgerOutcome.Unknown("the Solana RPC did not answer: " + e.getMessage());
        }
    }

    @Override
    public byte[] coSignMessage(LedgerInstruction.Pay payment) {
        try {
            LedgerAddress recipient = recipientAddress(payment.recipient())
                    .orElseThrow(() -> new LedgerUnavailableException("A co-signed payment on Solana needs a Solana "
                            + "address as its recipient, not '" + payment.recipient() + "'"));
            WalletAccount wallet = walletAccount(payment.wallet())
                    .orElseThrow(() -> new LedgerUnavailableException("No wallet account " + payment.wallet()));
            return coSignDraft(payment, recipient, wallet).message().bytes();
        } catch (RpcException e) {
            throw new LedgerUnavailableException("The Solana RPC did not answer: " + e.getMessage());
        }
    }

    @Override
    public void coSignAbandoned(String operationId) {
        closeNonce(operationId);
    }

    @Override
    public long currentSlot() {
        try {
            return rpc.slot();
        } catch (RpcException e) {
            throw new LedgerUnavailableException("The Solana RPC did not answer: " + e.getMessage());
        }
    }

    @Override
    public Usdc balance(LedgerAccount account) {
        LedgerAddress owner;
        if (account instanceof LedgerAccount.Treasury treasury) {
            owner = addresses.treasury(hash(treasury.orgId().value())).address();
        } else if (account instanceof LedgerAccount.Wallet wallet) {
            owner = wallet.address();
        } else {
            LedgerAccount.Vault vault = (LedgerAccount.Vault) account;
            owner = addresses.escrow(vault.wallet(), vault.escrowId().value()).address();
        }
        try {
            return rpc.accountData(key(addresses.tokenAccount(owner).address()))
                    .filter(data -> data.length == TOKEN_ACCOUNT_SIZE)
                    .map(data -> Usdc.ofMicros(Bytes.u64At(data, TOKEN_AMOUNT_OFFSET)))
                    .orElse(Usdc.ZERO);
        } catch (RpcException e) {
            throw new LedgerUnavailableException("The Solana RPC did not answer: " + e.getMessage());
        }
    }

    // ------------------------------------------------------------------ sending one operation

    /** What to send for an operation: a refusal decided before sending, or a transaction. */
    private sealed interface Plan permits Refused, Send {
    }

    private record Refused(LedgerOutcome.Rejected rejected) implements Plan {
    }

    /**
     * A transaction: its instructions, the signers besides the fee payer, the durable nonce it
     * uses instead of a recent blockhash, and a signature made elsewhere (the operator's).
     */
    private record Send(List<TransactionInstruction> instructions, List<Account> signers, Optional<Nonce> nonce,
                        Optional<CoSignature> coSignature) implements Plan {
        Send(List<TransactionInstruction> instructions, List<Account> signers) {
            this(instructions, signers, Optional.empty(), Optional.empty());
        }
    }

    private record Nonce(PublicKey account, byte[] value) {
    }

    private record CoSignature(PublicKey signer, byte[] signature) {
    }

    @FunctionalInterface
    private interface Planner {
        Plan plan() throws RpcException;
    }

    /**
     * Answers the operation's outcome, sending a transaction only if none was recorded for it
     * before; one caller at a time per operation in this process, and across processes the first
     * transaction recorded is the only one sent.
     */
    private LedgerOutcome once(String operationId, Planner planner) throws RpcException {
        synchronized (locks[Math.floorMod(operationId.hashCode(), LOCK_STRIPES)]) {
            Optional<LedgerOutcome> known = journal.outcome(operationId);
            if (known.isPresent()) {
                return known.get();
            }
            List<Attempt> attempts = journal.attempts(operationId);
            if (attempts.isEmpty()) {
                Plan plan = planner.plan();
                if (plan instanceof Refused refused) {
                    return settle(operationId, refused.rejected());
                }
                Optional<Attempt> attempt = sign((Send) plan);
                if (attempt.isEmpty()) {
                    return settle(operationId, ProgramError.INVALID_ARGUMENT.rejected("the transaction would exceed "
                            + LegacyMessage.MAX_TRANSACTION_SIZE + " bytes"));
                }
                Attempt recorded = journal.attempted(operationId, attempt.get());
                // Another process recorded its transaction first: that one is followed, and ours never leaves.
                if (recorded.signature().equals(attempt.get().signature())) {
                    broadcast(recorded);
                }
                attempts = List.of(recorded);
            }
            return await(operationId, attempts);
        }
    }

    private LedgerOutcome settle(String operationId, LedgerOutcome outcome) {
        return journal.settled(operationId, outcome);
    }

    /** Polls the attempts' signatures until one reaches the commitment, all have expired, or the timeout. */
    private LedgerOutcome await(String operationId, List<Attempt> attempts) throws RpcException {
        long start = System.nanoTime();
        long lastBroadcast = start;
        List<String> signatures = attempts.stream().map(Attempt::signature).toList();
        while (true) {
            Polled polled = poll(attempts, signatures);
            if (polled.outcome().isPresent()) {
                return settle(operationId, polled.outcome().get());
            }
            // Expiry is read only when nothing has landed, then the statuses once more: an attempt
            // seen expired and then still unknown never landed.
            if (!polled.processed() && noneCanLand(attempts)) {
                polled = poll(attempts, signatures);
                if (polled.outcome().isPresent()) {
                    return settle(operationId, polled.outcome().get());
                }
                if (!polled.processed()) {
                    return settle(operationId, new LedgerOutcome.Rejected("transaction_expired", "the transaction "
                            + signatures.get(signatures.size() - 1) + " expired before it landed; nothing moved"));
                }
            }
            long now = System.nanoTime();
            if (now - start >= timeout.toNanos()) {
                return new LedgerOutcome.Unknown("transaction " + signatures.get(signatures.size() - 1)
                        + " not " + commitment.wireName() + " within " + timeout.toMillis() + " ms");
            }
            if (!polled.processed() && now - lastBroadcast >= REBROADCAST_NANOS) {
                attempts.forEach(this::broadcast);
                lastBroadcast = now;
            }
            pause();
        }
    }

    /** One read of the attempts' statuses: the outcome of one at the commitment, and whether any landed at all. */
    private record Polled(Optional<LedgerOutcome> outcome, boolean processed) {
    }

    private Polled poll(List<Attempt> attempts, List<String> signatures) throws RpcException {
        List<Optional<SolanaRpc.Status>> statuses = rpc.statuses(signatures);
        boolean processed = false;
        for (int i = 0; i < attempts.size(); i++) {
            Optional<SolanaRpc.Status> status = statuses.get(i);
            if (status.isPresent() && status.get().reached().isAtLeast(commitment)) {
                return new Polled(Optional.of(outcomeOf(attempts.get(i), status.get())), true);
            }
            processed |= status.isPresent();
        }
        return new Polled(Optional.empty(), processed);
    }

    private boolean noneCanLand(List<Attempt> attempts) throws RpcException {
        long height = -1;
        for (Attempt attempt : attempts) {
            if (attempt.usesNonce()) {
                Optional<byte[]> nonce = nonceValue(new PublicKey(attempt.nonceAccount().orElseThrow()));
                if (nonce.map(Base58::encode).equals(attempt.nonce())) {
                    return false;
                }
            } else {
                if (height < 0) {
                    height = rpc.blockHeight();
                }
                if (height <= attempt.lastValidBlockHeight()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Sends (again) an attempt; the answer is read by polling, so a failed send is only a missed chance. */
    private void broadcast(Attempt attempt) {
        try {
            rpc.send(Base64.getDecoder().decode(attempt.transaction()));
        } catch (RpcException e) {
            // The signature's status decides; an expired attempt fails the operation, a live one is sent again.
        }
    }

    private void pause() {
        try {
            Thread.sleep(pollInterval.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LedgerUnavailableException("interrupted while waiting for the Solana cluster");
        }
    }

    /** Compiles and signs the transaction; empty when it would be over Solana's size limit. */
    private Optional<Attempt> sign(Send send) throws RpcException {
        byte[] recentBlockhash;
        long lastValidBlockHeight;
        if (send.nonce().isPresent()) {
            recentBlockhash = send.nonce().get().value();
            lastValidBlockHeight = -1;
        } else {
            SolanaRpc.Blockhash blockhash = rpc.latestBlockhash();
            recentBlockhash = blockhash.hash();
            lastValidBlockHeight = blockhash.lastValidBlockHeight();
        }
        LegacyMessage message = Instructions.compile(keys.feePayer(), send.instructions(), recentBlockhash);
        if (message.transactionSize() > LegacyMessage.MAX_TRANSACTION_SIZE) {
            return Optional.empty();
        }
        byte[] bytes = message.bytes();
        List<byte[]> signatures = new ArrayList<>();
        for (LedgerAddress signer : message.signers()) {
            signatures.add(signatureOf(key(signer), bytes, send));
        }
        List<String> programs = send.instructions().stream().map(ix -> ix.getProgramId().toBase58()).toList();
        return Optional.of(new Attempt(Base58.encode(signatures.get(0)),
                Base64.getEncoder().encodeToString(message.transaction(signatures)), programs, lastValidBlockHeight,
                send.nonce().map(n -> n.account().toBase58()), send.nonce().map(n -> Base58.encode(n.value()))));
    }

    private byte[] signatureOf(PublicKey signer, byte[] message, Send send) {
        if (signer.equals(keys.feePayer())) {
            return Keys.sign(keys.feePayerAccount(), message);
        }
        for (Account account : send.signers()) {
            if (account.getPublicKey().equals(signer)) {
                return Keys.sign(account, message);
            }
        }
        return send.coSignature().filter(co -> co.signer().equals(signer)).map(CoSignature::signature)
                .orElseThrow(() -> new IllegalStateException("no signature for the signer " + signer));
    }

    /** The outcome of a transaction that landed: confirmed, or refused with the failing program's error. */
    private LedgerOutcome outcomeOf(Attempt attempt, SolanaRpc.Status status) {
        if (status.err() == null) {
            return new LedgerOutcome.Confirmed(attempt.signature(), status.slot());
        }
        if (status.err() instanceof Map<?, ?> err && err.get("InstructionError") instanceof List<?> failure
                && failure.size() == 2 && failure.get(0) instanceof Number index
                && failure.get(1) instanceof Map<?, ?> detail && detail.get("Custom") instanceof Number code
                && index.intValue() < attempt.programs().size()) {
            String failed = attempt.programs().get(index.intValue());
            if (failed.equals(programId.base58())) {
                Optional<ProgramError> error = ProgramError.ofCode(code.intValue());
                if (error.isPresent()) {
                    return error.get().rejected("the wallet program refused transaction " + attempt.signature());
                }
            } else if (failed.equals(SolanaAddresses.TOKEN_PROGRAM.toBase58()) && code.intValue() == TOKEN_INSUFFICIENT_FUNDS) {
                return ProgramError.INSUFFICIENT_FUNDS.rejected("the source token account holds less; transaction "
                        + attempt.signature());
            }
        }
        return new LedgerOutcome.Rejected("ledger_error", "transaction " + attempt.signature() + " failed: " + status.err());
    }

    // ------------------------------------------------------------------ what to send for each instruction

    private Plan plan(LedgerInstruction instruction) throws RpcException {
        if (instruction instanceof LedgerInstruction.Deposit deposit) {
            return deposit(deposit);
        } else if (instruction instanceof LedgerInstruction.OpenWallet open) {
            return openWallet(open);
        } else if (instruction instanceof LedgerInstruction.SetSessionKey session) {
            return setSessionKey(session);
        } else if (instruction instanceof LedgerInstruction.UpdateWallet update) {
            return updateWallet(update);
        } else if (instruction instanceof LedgerInstruction.Fund fund) {
            return move(Instructions.FUND, fund.orgId(), fund.wallet(), fund.amount());
        } else if (instruction instanceof LedgerInstruction.Withdraw withdraw) {
            return move(Instructions.WITHDRAW, withdraw.orgId(), withdraw.wallet(), withdraw.amount());
        } else if (instruction instanceof LedgerInstruction.Pay pay) {
            return pay(pay);
        } else if (instruction instanceof LedgerInstruction.EscrowLock lock) {
            return lock(lock);
        } else if (instruction instanceof LedgerInstruction.EscrowRelease release) {
            return release(release);
        } else if (instruction instanceof LedgerInstruction.EscrowRefund refund) {
            return refund(refund);
        } else if (instruction instanceof LedgerInstruction.EscrowDispute dispute) {
            return dispute(dispute);
        }
        throw new IllegalArgumentException("no Solana transaction for " + instruction.getClass().getSimpleName());
    }

    /** New USDC for the treasury: a token transfer from the fee payer's USDC account (the operator's float). */
    private Plan deposit(LedgerInstruction.Deposit deposit) throws RpcException {
        if (deposit.amount().isZero()) {
            return refuse(ProgramError.INVALID_ARGUMENT, "a deposit must be more than zero");
        }
        byte[] orgHash = hash(deposit.orgId().value());
        TreasuryAccount treasury = treasuryAccount(orgHash);
        if (treasury.foreign().isPresent()) {
            LOG.log(System.Logger.Level.ERROR, "ALERT: no deposit sent to the treasury of organisation {0}: {1}",
                    deposit.orgId().value(), treasury.foreign().get());
            return refuse(ProgramError.ACCOUNT_MISMATCH, treasury.foreign().get());
        }
        List<TransactionInstruction> instructions = new ArrayList<>(treasuryInit(orgHash, treasury));
        instructions.add(Instructions.transferChecked(token(address(keys.feePayer())), addresses.mint(),
                token(addresses.treasury(orgHash).address()), keys.feePayer(), deposit.amount().micros()));
        return new Send(instructions, List.of(keys.registrar()));
    }

    private Plan openWallet(LedgerInstruction.OpenWallet open) throws RpcException {
        byte[] orgHash = hash(open.orgId().value());
        ProgramAddress derived = addresses.wallet(open.orgId().value(), open.agentId());
        ProgramAddress walletToken = addresses.tokenAccount(open.wallet());
        List<TransactionInstruction> instructions = new ArrayList<>(treasuryInit(orgHash));
        instructions.add(Instructions.createTokenAccountIdempotent(keys.feePayer(), key(walletToken.address()),
                key(open.wallet()), addresses.mint()));
        Account authority = authority(orgHash);
        instructions.add(program.createWallet(keys.feePayer(), authority.getPublicKey(),
                key(addresses.treasury(orgHash).address()),
                key(open.wallet()), derived.bump(), key(walletToken.address()), walletToken.bump(),
                key(addresses.policy(orgHash, open.policy().value()).address()), hash(open.agentId())));
        return new Send(instructions, List.of(keys.registrar(), authority));
    }

    /** A policy in one transaction, or, when its recipients do not fit, the policy then its remaining entries. */
    private LedgerOutcome writePolicy(LedgerInstruction.WritePolicy write) throws RpcException {
        List<byte[]> allowed = write.rules().allowedRecipients().stream().map(ProgramAccounts::recipientKey).toList();
        List<byte[]> blocked = write.blockedRecipients().stream().sorted().map(ProgramAccounts::recipientKey).toList();
        if (allowed.size() > MAX_ALLOWED_ENTRIES || blocked.size() > MAX_BLOCKED_ENTRIES) {
            return once(write.operationId(), () -> refuse(ProgramError.INVALID_ARGUMENT, "the program keeps at most "
                    + MAX_ALLOWED_ENTRIES + " allowed and " + MAX_BLOCKED_ENTRIES + " blocked recipients"));
        }
        List<byte[]> entries = new ArrayList<>(allowed);
        entries.addAll(blocked);
        byte[] orgHash = hash(write.orgId().value());
        ProgramAddress policy = addresses.policy(orgHash, write.policy().value());
        PublicKey treasury = key(addresses.treasury(orgHash).address());
        List<byte[]> first = entries.subList(0, Math.min(FIRST_POLICY_ENTRIES, entries.size()));
        Account authority = authority(orgHash);
        LedgerOutcome outcome = once(write.operationId(), () -> {
            List<TransactionInstruction> instructions = new ArrayList<>(treasuryInit(orgHash));
            instructions.add(program.writePolicy(keys.feePayer(), authority.getPublicKey(), treasury,
                    key(policy.address()), policy.bump(), hash(write.policy().value()), write.sequence(), write.rules(),
                    allowed.size(), blocked.size(), first));
            return new Send(instructions, List.of(keys.registrar(), authority));
        });
        for (int start = first.size(); start < entries.size() && outcome instanceof LedgerOutcome.Confirmed;
             start += MORE_POLICY_ENTRIES) {
            int from = start;
            List<byte[]> chunk = entries.subList(from, Math.min(from + MORE_POLICY_ENTRIES, entries.size()));
            outcome = once(write.operationId() + "#entries@" + from, () -> new Send(List.of(program.writePolicyEntries(
                    authority.getPublicKey(), treasury, key(policy.address()), write.sequence(), from, chunk)),
                    List.of(authority)));
        }
        return outcome;
    }

    private Plan setSessionKey(LedgerInstruction.SetSessionKey session) throws RpcException {
        Optional<WalletAccount> wallet = walletAccount(session.wallet());
        if (wallet.isEmpty()) {
            return noWallet(session.wallet());
        }
        PublicKey sessionKey = keys.session(programId, session.wallet(), session.version()).getPublicKey();
        Account authority = authority(wallet.get().orgHash());
        return new Send(List.of(program.setSessionKey(authority.getPublicKey(), wallet.get().treasury(),
                key(session.wallet()), sessionKey, session.expiresAt(), session.sequence())), List.of(authority));
    }

    private Plan updateWallet(LedgerInstruction.UpdateWallet update) throws RpcException {
        Optional<WalletAccount> wallet = walletAccount(update.wallet());
        if (wallet.isEmpty()) {
            return noWallet(update.wallet());
        }
        PublicKey policy = key(addresses.policy(wallet.get().orgHash(), update.policy().value()).address());
        Account authority = authority(wallet.get().orgHash());
        return new Send(List.of(program.updateWallet(authority.getPublicKey(), wallet.get().treasury(),
                key(update.wallet()), policy, update.status(), update.sequence())), List.of(authority));
    }

    private Plan move(int tag, OrgId orgId, LedgerAddress wallet, Usdc amount) {
        byte[] orgHash = hash(orgId.value());
        LedgerAddress treasury = addresses.treasury(orgHash).address();
        Account authority = authority(orgHash);
        return new Send(List.of(program.move(tag, authority.getPublicKey(), key(treasury), token(treasury), key(wallet),
                token(wallet), amount)), List.of(authority));
    }

    private Plan pay(LedgerInstruction.Pay pay) throws RpcException {
        Optional<LedgerAddress> recipient = recipientAddress(pay.recipient());
        if (recipient.isEmpty()) {
            return notAnAddress(pay.recipient());
        }
        Optional<WalletAccount> wallet = walletAccount(pay.wallet());
        if (wallet.isEmpty()) {
            return noWallet(pay.wallet());
        }
        if (!holdsUsdcAccount(recipient.get())) {
            return recipientAccountMissing(recipient.get());
        }
        if (pay.coSignature().isPresent()) {
            return coSigned(pay, recipient.get(), wallet.get());
        }
        return new Send(payInstructions(pay, recipient.get(), wallet.get()), List.of(session(pay)));
    }

    private List<TransactionInstruction> payInstructions(LedgerInstruction.Pay pay, LedgerAddress recipient,
                                                         WalletAccount wallet) {
        return solanaj(paymentTransaction(pay, recipient, wallet, Optional.empty()).instructions());
    }

    /** The payment's transaction as core builds it, for the simulator too. */
    private PaymentTransaction paymentTransaction(LedgerInstruction.Pay pay, LedgerAddress recipient,
                                                  WalletAccount wallet, Optional<PublicKey> coSigner) {
        return new PaymentTransaction(programId, address(addresses.mint()), address(keys.feePayer()),
                address(session(pay).getPublicKey()), pay.wallet(), address(wallet.policy()), recipient, pay.amount(),
                pay.requestedAt(), coSigner.map(SolanaAddresses::address));
    }

    private static List<TransactionInstruction> solanaj(List<com.agentwallet.core.ledger.solana.Instruction> instructions) {
        return instructions.stream().map(Instructions::solanaj).toList();
    }

    private Account session(LedgerInstruction.Pay pay) {
        return keys.session(programId, pay.wallet(), pay.sessionVersion());
    }

    /** The co-signed payment exactly as its co-sign message says, with the operator's signature added. */
    private Plan coSigned(LedgerInstruction.Pay pay, LedgerAddress recipient, WalletAccount wallet) throws RpcException {
        Optional<byte[]> signature = Base58.decode(pay.coSignature().orElseThrow(), LegacyMessage.SIGNATURE_LENGTH);
        if (signature.isEmpty()) {
            return refuse(ProgramError.CO_SIGNATURE_INVALID, "the co-signature is not 64 bytes of base58");
        }
        CoSignDraft draft = coSignDraft(pay, recipient, wallet);
        Optional<CoSignature> coSignature = draft.coSigner().map(signer -> new CoSignature(signer, signature.get()));
        if (coSignature.isPresent() && !new TweetNaclFast.Signature(coSignature.get().signer().toByteArray(), new byte[64])
                .detached_verify(draft.message().bytes(), signature.get())) {
            return refuse(ProgramError.CO_SIGNATURE_INVALID, "the co-signature is not the policy's co-signer's "
                    + "signature of this payment's message (a new session or policy changes the message)");
        }
        return new Send(draft.instructions(), List.of(session(pay)), Optional.of(draft.nonce()), coSignature);
    }

    /** The message an operator co-signs: the payment after an advance of its own durable nonce. */
    private record CoSignDraft(LegacyMessage message, List<TransactionInstruction> instructions, Nonce nonce,
                               Optional<PublicKey> coSigner) {
    }

    private CoSignDraft coSignDraft(LedgerInstruction.Pay pay, LedgerAddress recipient, WalletAccount wallet)
            throws RpcException {
        Nonce nonce = nonceFor(pay.operationId());
        Optional<PublicKey> coSigner = coSigner(wallet.policy());
        PaymentTransaction transaction = paymentTransaction(pay, recipient, wallet, coSigner);
        return new CoSignDraft(transaction.coSignMessage(pay.operationId(), nonce.value()),
                solanaj(transaction.onNonce(address(nonce.account()))), nonce, coSigner);
    }

    /** The operation's durable nonce, opening its nonce account (once) if it has none yet. */
    private Nonce nonceFor(String operationId) throws RpcException {
        String seed = PaymentTransaction.nonceSeed(operationId);
        PublicKey account = key(PaymentTransaction.nonceAccount(address(keys.feePayer()), operationId));
        Optional<byte[]> value = nonceValue(account);
        if (value.isPresent()) {
            return new Nonce(account, value.get());
        }
        long rent = rpc.minimumBalanceForRentExemption(Instructions.NONCE_ACCOUNT_SIZE);
        LedgerOutcome opened = once("nonce:" + operationId, () -> new Send(List.of(
                Instructions.createNonceAccountWithSeed(keys.feePayer(), account, seed, rent),
                Instructions.initializeNonce(account, keys.feePayer())), List.of()));
        return new Nonce(account, nonceValue(account).orElseThrow(() -> new RpcException(
                "the nonce account of " + operationId + " could not be opened: " + opened)));
    }

    /**
     * Withdraws the whole balance of the operation's nonce account to the fee payer, which closes it,
     * once its payment is over (landed, refused, or abandoned). A transaction of its own, sent after
     * the one that advanced the nonce: Solana refuses the full withdrawal in the block that advanced
     * it. Journaled as any other, under an operation of its own, so it is sent once; a failure is
     * logged and leaves the account, and its rent, where it is.
     */
    private void closeNonce(String operationId) {
        PublicKey account = key(PaymentTransaction.nonceAccount(address(keys.feePayer()), operationId));
        String notClosed;
        try {
            LedgerOutcome closed = once("nonce-close:" + operationId, () -> {
                long lamports = rpc.balanceLamports(account);
                if (lamports == 0) {
                    return refuse(ProgramError.ACCOUNT_NOT_FOUND, "no nonce account " + account.toBase58());
                }
                return new Send(List.of(Instructions.withdrawNonceAccount(account, keys.feePayer(), keys.feePayer(),
                        lamports)), List.of());
            });
            if (closed instanceof LedgerOutcome.Confirmed || closed instanceof LedgerOutcome.Rejected rejected
                    && rejected.code().equals(ProgramError.ACCOUNT_NOT_FOUND.wireName())) {
                return;
            }
            notClosed = closed.toString();
        } catch (RpcException e) {
            notClosed = e.getMessage();
        }
        LOG.log(System.Logger.Level.WARNING, "The nonce account {0} of operation {1} is not closed: {2}",
                account.toBase58(), operationId, notClosed);
    }

    private Optional<byte[]> nonceValue(PublicKey account) throws RpcException {
        return rpc.accountData(account).filter(data -> data.length == Instructions.NONCE_ACCOUNT_SIZE
                        && Bytes.u32At(data, 4) == 1)
                .map(data -> Bytes.slice(data, NONCE_OFFSET, 32));
    }

    private Optional<PublicKey> coSigner(PublicKey policy) throws RpcException {
        return rpc.accountData(policy).filter(ProgramAccounts::isPolicy).flatMap(ProgramAccounts::coSigner);
    }

    private Plan lock(LedgerInstruction.EscrowLock lock) throws RpcException {
        Optional<LedgerAddress> receiver = recipientAddress(lock.receiver());
        if (receiver.isEmpty()) {
            return notAnAddress(lock.receiver());
        }
        Optional<WalletAccount> wallet = walletAccount(lock.wallet());
        if (wallet.isEmpty()) {
            return noWallet(lock.wallet());
        }
        ProgramAddress escrow = addresses.escrow(lock.wallet(), lock.escrow().value());
        ProgramAddress vault = addresses.tokenAccount(escrow.address());
        Account session = keys.session(programId, lock.wallet(), lock.sessionVersion());
        long deadline = lock.deadline().getEpochSecond() + (lock.deadline().getNano() > 0 ? 1 : 0);
        return new Send(List.of(
                Instructions.createTokenAccountIdempotent(keys.feePayer(), key(vault.address()), key(escrow.address()),
                        addresses.mint()),
                program.escrowLock(session.getPublicKey(), keys.feePayer(), key(lock.wallet()), token(lock.wallet()),
                        wallet.get().policy(), key(escrow.address()), escrow.bump(), key(vault.address()), vault.bump(),
                        hash(lock.escrow().value()), key(receiver.get()), lock.amount(), deadline,
                        lock.expectedProof().map(HexFormat.of()::parseHex))), List.of(session));
    }

    private Plan release(LedgerInstruction.EscrowRelease release) throws RpcException {
        Optional<LedgerAddress> receiver = recipientAddress(release.receiver());
        if (receiver.isEmpty()) {
            return notAnAddress(release.receiver());
        }
        Optional<WalletAccount> wallet = walletAccount(release.wallet());
        if (wallet.isEmpty()) {
            return noWallet(release.wallet());
        }
        LedgerAddress escrow = addresses.escrow(release.wallet(), release.escrow().value()).address();
        Optional<PublicKey> rentPayer = escrowRentPayer(escrow);
        if (rentPayer.isEmpty()) {
            return noEscrow(escrow);
        }
        if (!holdsUsdcAccount(receiver.get())) {
            return recipientAccountMissing(receiver.get());
        }
        PublicKey receiverToken = token(receiver.get());
        Account authority = authority(wallet.get().orgHash());
        return new Send(List.of(release.proof().isPresent()
                ? program.escrowRelease(authority.getPublicKey(), wallet.get().treasury(), key(escrow), token(escrow),
                receiverToken, rentPayer.get(), HexFormat.of().parseHex(release.proof().get()))
                : program.escrowResolve(authority.getPublicKey(), wallet.get().treasury(), key(escrow), token(escrow),
                receiverToken, key(release.wallet()), rentPayer.get(), ProgramInstructions.RESOLVE_RELEASE)),
                List.of(authority));
    }

    private Plan refund(LedgerInstruction.EscrowRefund refund) throws RpcException {
        Optional<WalletAccount> wallet = walletAccount(refund.wallet());
        if (wallet.isEmpty()) {
            return noWallet(refund.wallet());
        }
        LedgerAddress escrow = addresses.escrow(refund.wallet(), refund.escrow().value()).address();
        Optional<PublicKey> rentPayer = escrowRentPayer(escrow);
        if (rentPayer.isEmpty()) {
            return noEscrow(escrow);
        }
        Account authority = authority(wallet.get().orgHash());
        return new Send(List.of(refund.resolution()
                ? program.escrowResolve(authority.getPublicKey(), wallet.get().treasury(), key(escrow), token(escrow),
                token(refund.wallet()), key(refund.wallet()), rentPayer.get(), ProgramInstructions.RESOLVE_REFUND)
                : program.escrowRefund(key(escrow), token(escrow), key(refund.wallet()), token(refund.wallet()),
                rentPayer.get())),
                List.of(authority));
    }

    private Plan dispute(LedgerInstruction.EscrowDispute dispute) throws RpcException {
        Optional<WalletAccount> wallet = walletAccount(dispute.wallet());
        if (wallet.isEmpty()) {
            return noWallet(dispute.wallet());
        }
        LedgerAddress escrow = addresses.escrow(dispute.wallet(), dispute.escrow().value()).address();
        Account authority = authority(wallet.get().orgHash());
        return new Send(List.of(program.escrowDispute(authority.getPublicKey(), wallet.get().treasury(), key(escrow))),
                List.of(authority));
    }

    // ------------------------------------------------------------------ accounts

    /**
     * Who paid the escrow's rent at lock: the settlement pays it back there, so a fee payer rotated
     * since still settles. Empty when there is no escrow account (never locked, or settled and closed).
     */
    private Optional<PublicKey> escrowRentPayer(LedgerAddress escrow) throws RpcException {
        return rpc.accountData(key(escrow)).flatMap(ProgramAccounts::escrowRentPayer);
    }

    /**
     * Whether {@code owner}'s associated token account of the configured mint exists, initialised and
     * theirs. Only the Associated Token Account program can open an account at that address, and only
     * as an SPL Token account, so its data says the rest.
     */
    private boolean holdsUsdcAccount(LedgerAddress owner) throws RpcException {
        return rpc.accountData(token(owner)).filter(data -> data.length == TOKEN_ACCOUNT_SIZE
                && Arrays.equals(Bytes.slice(data, TOKEN_MINT_OFFSET, 32), addresses.mint().toByteArray())
                && Arrays.equals(Bytes.slice(data, TOKEN_OWNER_OFFSET, 32), owner.bytes())
                && data[TOKEN_STATE_OFFSET] == TOKEN_STATE_INITIALIZED).isPresent();
    }

    /** What the adapter reads of a wallet account: its organisation, treasury and attached policy. */
    private record WalletAccount(byte[] orgHash, PublicKey treasury, PublicKey policy) {
    }

    private Optional<WalletAccount> walletAccount(LedgerAddress wallet) throws RpcException {
        return rpc.accountData(key(wallet)).filter(data -> data.length > ProgramAccounts.WALLET_POLICY + 32
                        && data[0] == KIND_WALLET)
                .map(data -> new WalletAccount(Bytes.slice(data, ProgramAccounts.WALLET_ORG_HASH, 32),
                        new PublicKey(Bytes.slice(data, ProgramAccounts.WALLET_TREASURY, 32)),
                        new PublicKey(Bytes.slice(data, ProgramAccounts.WALLET_POLICY, 32))));
    }

    /**
     * What is at the organisation's treasury address: nothing yet, this service's treasury, or an
     * account that is not (why, in {@code foreign}). Its seed is public once any transaction names it,
     * so anyone may have initialised it first, with their own authority or another mint, and would
     * then receive every deposit sent to it. Only this service's treasuries are remembered.
     */
    private TreasuryAccount treasuryAccount(byte[] orgHash) throws RpcException {
        LedgerAddress treasury = addresses.treasury(orgHash).address();
        if (treasuries.contains(treasury.base58())) {
            return new TreasuryAccount(true, Optional.empty());
        }
        Optional<byte[]> data = rpc.accountData(key(treasury));
        if (data.isEmpty()) {
            return new TreasuryAccount(false, Optional.empty());
        }
        Optional<String> foreign = ProgramAccounts.foreignTreasury(data.get(), authority(orgHash).getPublicKey(),
                addresses.mint())
                .map(why -> "the treasury account " + treasury.base58() + " " + why);
        if (foreign.isEmpty()) {
            treasuries.add(treasury.base58());
        }
        return new TreasuryAccount(true, foreign);
    }

    private record TreasuryAccount(boolean exists, Optional<String> foreign) {
    }

    /** The organisation's treasury and its token account, opened in the same transaction if they are not yet. */
    private List<TransactionInstruction> treasuryInit(byte[] orgHash) throws RpcException {
        return treasuryInit(orgHash, treasuryAccount(orgHash));
    }

    private List<TransactionInstruction> treasuryInit(byte[] orgHash, TreasuryAccount account) {
        if (account.exists()) {
            return List.of();
        }
        ProgramAddress treasury = addresses.treasury(orgHash);
        ProgramAddress token = addresses.tokenAccount(treasury.address());
        return List.of(
                Instructions.createTokenAccountIdempotent(keys.feePayer(), key(token.address()), key(treasury.address()),
                        addresses.mint()),
                program.initTreasury(keys.feePayer(), keys.registrar().getPublicKey(), key(addresses.config().address()),
                        key(treasury.address()), treasury.bump(), key(token.address()), token.bump(), orgHash,
                        authority(orgHash).getPublicKey()));
    }

    /** The organisation's own authority: it alone signs the organisation's administrative instructions. */
    private Account authority(byte[] orgHash) {
        return keys.orgAuthority(programId, orgHash);
    }

    private PublicKey token(LedgerAddress owner) {
        return key(addresses.tokenAccount(owner).address());
    }

    private static Optional<LedgerAddress> recipientAddress(String recipient) {
        return LedgerAddress.isValid(recipient) ? Optional.of(new LedgerAddress(recipient)) : Optional.empty();
    }

    private static Plan refuse(ProgramError error, String message) {
        return new Refused(error.rejected(message));
    }

    private static Plan noWallet(LedgerAddress wallet) {
        return refuse(ProgramError.ACCOUNT_NOT_FOUND, "no wallet account " + wallet);
    }

    private Plan recipientAccountMissing(LedgerAddress recipient) {
        return new Refused(new LedgerOutcome.Rejected(LedgerOutcome.Rejected.RECIPIENT_ACCOUNT_MISSING, "the recipient "
                + recipient + " holds no USDC token account (mint " + addresses.mint().toBase58() + "): it must open "
                + "one, its associated token account " + token(recipient).toBase58() + ", before it can be paid; "
                + "nothing was sent"));
    }

    private static Plan noEscrow(LedgerAddress escrow) {
        return refuse(ProgramError.ACCOUNT_NOT_FOUND, "no escrow account " + escrow);
    }

    private static Plan notAnAddress(String recipient) {
        return refuse(ProgramError.INVALID_ARGUMENT, "'" + recipient + "' is not a Solana address");
    }
}
