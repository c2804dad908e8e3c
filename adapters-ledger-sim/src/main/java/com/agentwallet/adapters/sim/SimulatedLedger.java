package com.agentwallet.adapters.sim;

import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.crypto.Ed25519KeyPair;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.ledger.ProgramAddress;
import com.agentwallet.core.ledger.solana.SessionKeys;
import com.agentwallet.core.ledger.solana.SolanaPrograms;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.LedgerUnavailableException;

import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static java.util.Objects.requireNonNull;

/**
 * A deterministic stand-in for Solana and the wallet program. Slots advance with the injected clock
 * (400 ms each from genesis); transaction signatures are real Ed25519 signatures by a fee-payer key
 * derived from the seed (or configured), so the same seed and inputs give the same slots and
 * signatures. Co-sign messages are the Solana adapter's, byte for byte ({@link CoSignMessages}),
 * with session keys derived from the fee payer's secret as the Solana adapter derives them. The
 * program's rules run inside each simulated transaction ({@link WalletProgram}); every submission
 * is idempotent by operation id; a journal makes the chain outlive the process, and several
 * processes on one machine that share it share one chain. Only the program's
 * own refusals are final: an injected fault refuses this submission, and the next one is tried anew.
 */
public final class SimulatedLedger implements LedgerPort, AutoCloseable {
    public static final Duration SLOT = Duration.ofMillis(400);
    public static final String DEFAULT_PROGRAM_ID = "AgentWa11etProgram1111111111111111111111111";
    public static final Instant DEFAULT_GENESIS = Instant.parse("2026-01-01T00:00:00Z");

    private final WalletProgram program;
    private final Clock clock;
    private final Instant genesis;
    private final Ed25519PrivateKeyParameters feePayer;
    private final SimFaults faults;
    private final Random faultSource;
    private final Journal journal;
    private final ChainState chain = new ChainState();
    private final Outcomes outcomes = new Outcomes();
    /** Operations that were dropped in flight: a resubmission learns they expired. */
    private final Map<String, LedgerInstruction> dropped = new HashMap<>();

    SimulatedLedger(LedgerAddress programId, LedgerAddress mint, Ed25519KeyPair feePayer, Ed25519KeyPair sessionRoot,
                    Clock clock, Instant genesis, long seed, SimFaults faults, Journal journal) {
        this.program = new WalletProgram(programId, new CoSignMessages(programId, mint,
                LedgerAddress.of(feePayer.publicKey()), new SessionKeys(sessionRoot.secretKey())));
        this.clock = requireNonNull(clock, "clock is null");
        this.genesis = requireNonNull(genesis, "genesis is null");
        this.feePayer = new Ed25519PrivateKeyParameters(feePayer.seed(), 0);
        this.faults = requireNonNull(faults, "faults is null");
        this.faultSource = new Random(seed);
        this.journal = requireNonNull(journal, "journal is null");
        journal.catchUp(this::replayed);
    }

    /** A simulator that keeps its chain in memory only, with no faults: for tests. */
    public static SimulatedLedger inMemory(Clock clock, long seed) {
        return new SimulatedLedger(new LedgerAddress(DEFAULT_PROGRAM_ID), SolanaPrograms.DEVNET_USDC_MINT,
                defaultKey("fee-payer", seed), defaultKey("session-root", seed), clock, DEFAULT_GENESIS, seed,
                SimFaults.NONE, Journal.inMemory());
    }

    /**
     * A key ({@code fee-payer}, {@code session-root}) of a simulator that is given none: derived from
     * its seed, so a demo is reproducible.
     */
    static Ed25519KeyPair defaultKey(String role, long seed) {
        return Ed25519KeyPair.fromSeed(Hashing.sha256(("agent-wallet-sim/" + role + "/" + seed)
                .getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public LedgerAddress walletAddress(OrgId orgId, String agentId) {
        return ProgramAddress.wallet(program.programId(), orgId.value(), agentId).address();
    }

    /**
     * What costs most is done before the chain's lock is taken: the fee payer's signature, the same
     * for every submission of an operation, the journal's text of the instruction, and the digest of
     * its operation id by which its outcome is looked up and kept. Under the
     * lock only the chain's state, the outcome and the journal's line change, so that submissions
     * at once queue for little more than that.
     */
    @Override
    public LedgerOutcome submit(LedgerInstruction instruction) {
        pause(faults.latency());
        String signature = sign(instruction);
        Journal.Written written = journal.written(instruction);
        Outcomes.Id id = Outcomes.Id.of(instruction.operationId());
        synchronized (this) {
            try (Journal.Hold hold = journal.hold()) {
                journal.catchUp(this::replayed);
                return submitCaughtUp(instruction, written, id, signature);
            }
        }
    }

    /** Under the chain's lock, the journal's lines of other processes applied: an operation they ran is known. */
    private LedgerOutcome submitCaughtUp(LedgerInstruction instruction, Journal.Written written, Outcomes.Id id,
                                         String signature) {
        LedgerOutcome known = outcomes.find(id, (kind, slot) -> new LedgerOutcome.Confirmed(
                kind == instruction.getClass() ? signature : sign(kind, instruction.operationId()), slot));
        if (known != null) {
            return known;
        }
        if (dropped.remove(instruction.operationId()) != null) {
            return new LedgerOutcome.Rejected("transaction_expired",
                    "the transaction never landed and its blockhash expired; it may be submitted again");
        }
        return switch (faults.draw(faultSource.nextDouble())) {
            case FAIL -> new LedgerOutcome.Rejected("ledger_unavailable", "the simulated ledger refused the submission");
            case DROP -> {
                dropped.put(instruction.operationId(), instruction);
                yield new LedgerOutcome.Unknown("submitted; no confirmation yet");
            }
            case LATE -> {
                execute(written, id, signature, clock.instant());
                yield new LedgerOutcome.Unknown("submitted; confirmation not seen in time");
            }
            case NONE -> execute(written, id, signature, clock.instant());
        };
    }

    /** Read under the chain's lock: the message names the wallet's policy and its co-signer as the chain has them. */
    @Override
    public synchronized byte[] coSignMessage(LedgerInstruction.Pay payment) {
        journal.catchUp(this::replayed);
        return program.coSignMessage(chain, payment).orElseThrow(() -> new LedgerUnavailableException("A co-signed "
                + "payment needs an open wallet account and a Solana address as its recipient; no message for "
                + payment.wallet() + " to '" + payment.recipient() + "'"));
    }

    /** Nothing to free: the simulator derives a co-sign message's nonce and opens no nonce account. */
    @Override
    public void coSignAbandoned(String operationId) {
    }

    @Override
    public long currentSlot() {
        return slotAt(clock.instant());
    }

    @Override
    public synchronized Usdc balance(LedgerAccount account) {
        journal.catchUp(this::replayed);
        long micros;
        if (account instanceof LedgerAccount.Treasury treasury) {
            micros = chain.treasuries.getOrDefault(treasury.orgId(), 0L);
        } else if (account instanceof LedgerAccount.Wallet wallet) {
            ChainState.WalletAccount held = chain.wallets.get(wallet.address().base58());
            micros = held == null ? chain.external.getOrDefault(wallet.address().base58(), 0L) : held.balance;
        } else {
            ChainState.Vault vault = chain.vaults.get((LedgerAccount.Vault) account);
            micros = vault == null ? 0 : vault.amount;
        }
        return Usdc.ofMicros(micros);
    }

    /** What an address outside the program (a payee) has received. */
    public synchronized Usdc receivedBy(String address) {
        journal.catchUp(this::replayed);
        return Usdc.ofMicros(chain.external.getOrDefault(address, 0L));
    }

    @Override
    public void close() {
        journal.close();
    }

    /** A line of the journal, written by this process before a restart or by another process sharing it. */
    private void replayed(Journal.Entry entry) {
        apply(entry.instruction(), Outcomes.Id.of(entry.instruction().operationId()), entry.at());
    }

    private LedgerOutcome execute(Journal.Written written, Outcomes.Id id, String signature, Instant at) {
        journal.append(written, at);
        return apply(written.instruction(), id, at).map(LedgerOutcome.class::cast)
                .orElseGet(() -> new LedgerOutcome.Confirmed(signature, slotAt(at)));
    }

    /**
     * Runs the instruction on the chain at {@code at} and keeps its outcome under {@code id}, its
     * operation's: its refusal, or none if it was confirmed.
     */
    private Optional<LedgerOutcome.Rejected> apply(LedgerInstruction instruction, Outcomes.Id id, Instant at) {
        Optional<LedgerOutcome.Rejected> refusal = program.execute(chain, instruction, at)
                .map(failure -> failure.error().rejected(failure.message()));
        refusal.ifPresentOrElse(rejected -> outcomes.refused(id, rejected),
                () -> outcomes.confirmed(id, instruction.getClass(), slotAt(at)));
        return refusal;
    }

    private long slotAt(Instant at) {
        return Math.max(0, Duration.between(genesis, at).toMillis() / SLOT.toMillis());
    }

    /** The fee payer's signature of the operation: the same seed and operation give the same signature. */
    private String sign(LedgerInstruction instruction) {
        return sign(instruction.getClass(), instruction.operationId());
    }

    private String sign(Class<? extends LedgerInstruction> kind, String operationId) {
        byte[] message = ("agent-wallet-sim/tx|" + kind.getSimpleName() + "|" + operationId).getBytes(StandardCharsets.UTF_8);
        Ed25519Signer signer = new Ed25519Signer();
        signer.init(true, feePayer);
        signer.update(message, 0, message.length);
        return Base58.encode(signer.generateSignature());
    }

    private static void pause(Duration latency) {
        if (latency.isZero()) {
            return;
        }
        try {
            Thread.sleep(latency.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
