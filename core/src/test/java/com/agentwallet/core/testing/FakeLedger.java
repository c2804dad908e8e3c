package com.agentwallet.core.testing;

import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.ledger.ProgramError;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.port.LedgerPort;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A ledger for the core's tests: it keeps its own balances (treasuries, wallet accounts, escrow
 * vaults, money paid out) so tests can reconcile the books against it, answers idempotently by
 * operation id, and fails on demand. It checks no policy; the simulator adapter models the program.
 */
public final class FakeLedger implements LedgerPort {
    private static final LedgerOutcome.Rejected ON_DEMAND = new LedgerOutcome.Rejected("fake_rejection",
            "refused on demand");
    private final Map<String, LedgerOutcome> outcomes = new HashMap<>();
    private final Map<String, Long> balances = new HashMap<>();
    private final List<LedgerInstruction> executed = new ArrayList<>();
    private final List<String> abandonedCoSigns = new ArrayList<>();
    private Predicate<LedgerInstruction> rejecting = i -> false;
    private LedgerOutcome.Rejected refusal = ON_DEMAND;
    private Predicate<LedgerInstruction> unanswered = i -> false;
    private long slot = 1000;

    /** Instructions matching this are refused by the "program" from now on. */
    public synchronized void rejectWhen(Predicate<LedgerInstruction> condition) {
        rejectWhen(condition, ON_DEMAND);
    }

    /** Instructions matching this are refused from now on with the program's {@code error}. */
    public synchronized void rejectWhen(Predicate<LedgerInstruction> condition, ProgramError error) {
        rejectWhen(condition, error.rejected("refused on demand"));
    }

    private void rejectWhen(Predicate<LedgerInstruction> condition, LedgerOutcome.Rejected with) {
        this.rejecting = condition;
        this.refusal = with;
    }

    /** Instructions matching this get no answer (time out) from now on; they may be resubmitted later. */
    public synchronized void leaveUnansweredWhen(Predicate<LedgerInstruction> condition) {
        this.unanswered = condition;
    }

    public synchronized void behaveNormally() {
        rejecting = i -> false;
        refusal = ON_DEMAND;
        unanswered = i -> false;
    }

    /** The executed instructions, in order; a resubmitted one appears once. */
    public synchronized List<LedgerInstruction> executed() {
        return List.copyOf(executed);
    }

    /** The operations whose co-signed payments the service said it abandoned, in order. */
    public synchronized List<String> abandonedCoSigns() {
        return List.copyOf(abandonedCoSigns);
    }

    @Override
    public synchronized void coSignAbandoned(String operationId) {
        abandonedCoSigns.add(operationId);
    }

    /** The micro-USDC held on the ledger by an account: a wallet address, "treasury:org_…", "vault:escrow_…" or "external". */
    public synchronized long balanceOf(String account) {
        return balances.getOrDefault(account, 0L);
    }

    /**
     * Whether a vault payout cannot be covered yet because the lock has not filled the vault: tests
     * leave such payouts unanswered, as the real program's temporary refusal would.
     */
    public synchronized boolean vaultCannotCover(LedgerInstruction instruction) {
        if (instruction instanceof LedgerInstruction.EscrowRelease release) {
            return balanceOf("vault:" + release.escrow().value()) < release.amount().micros();
        }
        if (instruction instanceof LedgerInstruction.EscrowRefund refund) {
            return balanceOf("vault:" + refund.escrow().value()) < refund.amount().micros();
        }
        return false;
    }

    public static String treasury(OrgId orgId) {
        return "treasury:" + orgId.value();
    }

    @Override
    public LedgerAddress walletAddress(OrgId orgId, String agentId) {
        return LedgerAddress.of(Hashing.sha256((orgId.value() + "/" + agentId).getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public synchronized LedgerOutcome submit(LedgerInstruction instruction) {
        LedgerOutcome first = outcomes.get(instruction.operationId());
        if (first != null) {
            return first;
        }
        if (unanswered.test(instruction)) {
            return new LedgerOutcome.Unknown("no answer from the fake ledger");
        }
        LedgerOutcome outcome = rejecting.test(instruction) ? refusal : execute(instruction);
        outcomes.put(instruction.operationId(), outcome);
        return outcome;
    }

    @Override
    public byte[] coSignMessage(LedgerInstruction.Pay payment) {
        return String.join("|", "pay", payment.operationId(), payment.wallet().base58(), payment.recipient(),
                Long.toString(payment.amount().micros())).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public synchronized long currentSlot() {
        return slot;
    }

    @Override
    public synchronized Usdc balance(LedgerAccount account) {
        String key;
        if (account instanceof LedgerAccount.Treasury treasury) {
            key = treasury(treasury.orgId());
        } else if (account instanceof LedgerAccount.Wallet wallet) {
            key = wallet.address().base58();
        } else {
            key = "vault:" + ((LedgerAccount.Vault) account).escrowId().value();
        }
        return Usdc.ofMicros(balanceOf(key));
    }

    private LedgerOutcome execute(LedgerInstruction instruction) {
        if (instruction instanceof LedgerInstruction.Deposit deposit) {
            move("mint", treasury(deposit.orgId()), deposit.amount().micros());
        } else if (instruction instanceof LedgerInstruction.Fund fund) {
            move(treasury(fund.orgId()), fund.wallet().base58(), fund.amount().micros());
        } else if (instruction instanceof LedgerInstruction.Withdraw withdraw) {
            move(withdraw.wallet().base58(), treasury(withdraw.orgId()), withdraw.amount().micros());
        } else if (instruction instanceof LedgerInstruction.Pay pay) {
            move(pay.wallet().base58(), pay.recipient(), pay.amount().micros());
        } else if (instruction instanceof LedgerInstruction.EscrowLock lock) {
            move(lock.wallet().base58(), "vault:" + lock.escrow().value(), lock.amount().micros());
        } else if (instruction instanceof LedgerInstruction.EscrowRelease release) {
            move("vault:" + release.escrow().value(), release.receiver(), release.amount().micros());
        } else if (instruction instanceof LedgerInstruction.EscrowRefund refund) {
            move("vault:" + refund.escrow().value(), refund.wallet().base58(), refund.amount().micros());
        }
        executed.add(instruction);
        slot++;
        byte[] signature = new byte[64];
        byte[] digest = Hashing.sha256(instruction.operationId().getBytes(StandardCharsets.UTF_8));
        System.arraycopy(digest, 0, signature, 0, digest.length);
        return new LedgerOutcome.Confirmed(Base58.encode(signature), slot);
    }

    private void move(String from, String to, long micros) {
        if (!from.equals("mint")) {
            long available = balances.getOrDefault(from, 0L);
            if (available < micros) {
                throw new IllegalStateException("the books let " + from + " send " + micros + " but it holds " + available);
            }
            balances.put(from, available - micros);
        }
        balances.merge(to, micros, Long::sum);
    }
}
