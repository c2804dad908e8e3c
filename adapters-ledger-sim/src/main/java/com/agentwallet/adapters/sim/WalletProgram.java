package com.agentwallet.adapters.sim;

import com.agentwallet.adapters.sim.ChainState.PolicyAccount;
import com.agentwallet.adapters.sim.ChainState.PolicyKey;
import com.agentwallet.adapters.sim.ChainState.Vault;
import com.agentwallet.adapters.sim.ChainState.VaultStatus;
import com.agentwallet.adapters.sim.ChainState.WalletAccount;
import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.crypto.Ed25519;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.ProgramAddress;
import com.agentwallet.core.ledger.ProgramError;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.wallet.WalletStatus;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The executable model of the on-chain wallet program: the same instructions, checks (in the same
 * order) and error codes as the C program. Every handler checks everything before it changes
 * anything, so a failed instruction leaves the chain as it was.
 */
final class WalletProgram {
    private static final int SIGNATURE_LENGTH = 64;

    private final LedgerAddress programId;
    private final CoSignMessages coSignMessages;

    WalletProgram(LedgerAddress programId, CoSignMessages coSignMessages) {
        this.programId = requireNonNull(programId, "programId is null");
        this.coSignMessages = requireNonNull(coSignMessages, "coSignMessages is null");
    }

    /** A refused instruction: the program error and a message. */
    record Failure(ProgramError error, String message) {
    }

    LedgerAddress programId() {
        return programId;
    }

    /**
     * Executes one instruction at {@code at}; empty when it succeeded. The chain's clock counts whole
     * seconds (the Clock sysvar's {@code unix_timestamp}), so the program sees {@code at} rounded down.
     */
    Optional<Failure> execute(ChainState chain, LedgerInstruction instruction, Instant at) {
        Instant now = at.truncatedTo(ChronoUnit.SECONDS);
        if (instruction instanceof LedgerInstruction.Deposit deposit) {
            return deposit(chain, deposit);
        } else if (instruction instanceof LedgerInstruction.OpenWallet open) {
            return openWallet(chain, open);
        } else if (instruction instanceof LedgerInstruction.WritePolicy write) {
            return writePolicy(chain, write);
        } else if (instruction instanceof LedgerInstruction.SetSessionKey session) {
            return setSessionKey(chain, session);
        } else if (instruction instanceof LedgerInstruction.UpdateWallet update) {
            return updateWallet(chain, update);
        } else if (instruction instanceof LedgerInstruction.Fund fund) {
            return fund(chain, fund);
        } else if (instruction instanceof LedgerInstruction.Withdraw withdraw) {
            return withdraw(chain, withdraw);
        } else if (instruction instanceof LedgerInstruction.Pay pay) {
            return pay(chain, pay, now);
        } else if (instruction instanceof LedgerInstruction.EscrowLock lock) {
            return lock(chain, lock, now);
        } else if (instruction instanceof LedgerInstruction.EscrowRelease release) {
            return release(chain, release, now);
        } else if (instruction instanceof LedgerInstruction.EscrowRefund refund) {
            return refund(chain, refund, now);
        }
        return dispute(chain, (LedgerInstruction.EscrowDispute) instruction, now);
    }

    /**
     * The message an operator co-signs for a payment ({@link CoSignMessages}); empty when there is no
     * such wallet, or the recipient is not an address a transaction can pay.
     */
    Optional<byte[]> coSignMessage(ChainState chain, LedgerInstruction.Pay pay) {
        return Optional.ofNullable(chain.wallets.get(pay.wallet().base58()))
                .flatMap(wallet -> coSignMessages.of(chain, wallet, pay));
    }

    private Optional<Failure> deposit(ChainState chain, LedgerInstruction.Deposit deposit) {
        if (deposit.amount().isZero()) {
            return fail(ProgramError.INVALID_ARGUMENT, "a deposit must be more than zero");
        }
        chain.treasuries.merge(deposit.orgId(), deposit.amount().micros(), Long::sum);
        return ok();
    }

    private Optional<Failure> openWallet(ChainState chain, LedgerInstruction.OpenWallet open) {
        LedgerAddress derived = ProgramAddress.wallet(programId, open.orgId().value(), open.agentId()).address();
        if (!derived.equals(open.wallet())) {
            return fail(ProgramError.ACCOUNT_MISMATCH, "the wallet address is not the program address of its seeds");
        }
        if (!chain.policies.containsKey(new PolicyKey(open.orgId(), open.policy()))) {
            return fail(ProgramError.ACCOUNT_NOT_FOUND, "no policy account " + open.policy() + " of the organisation");
        }
        WalletAccount existing = chain.wallets.get(open.wallet().base58());
        if (existing != null) {
            return existing.orgId.equals(open.orgId()) && existing.agentId.equals(open.agentId())
                    ? ok() : fail(ProgramError.ACCOUNT_MISMATCH, "the wallet account exists for another agent");
        }
        WalletAccount opened = new WalletAccount(open.orgId(), open.agentId(), open.policy());
        // The wallet's token account is the one its address was paid at before it was opened.
        opened.balance = Optional.ofNullable(chain.external.remove(open.wallet().base58())).orElse(0L);
        chain.wallets.put(open.wallet().base58(), opened);
        return ok();
    }

    private Optional<Failure> writePolicy(ChainState chain, LedgerInstruction.WritePolicy write) {
        PolicyKey key = new PolicyKey(write.orgId(), write.policy());
        PolicyAccount existing = chain.policies.get(key);
        if (existing != null && write.sequence() <= existing.sequence()) {
            return fail(ProgramError.STALE_WRITE, "a newer write of the policy is already on chain");
        }
        chain.policies.put(key, new PolicyAccount(write.sequence(), write.rules(), write.blockedRecipients()));
        return ok();
    }

    private Optional<Failure> setSessionKey(ChainState chain, LedgerInstruction.SetSessionKey session) {
        WalletAccount wallet = chain.wallets.get(session.wallet().base58());
        if (wallet == null) {
            return fail(ProgramError.ACCOUNT_NOT_FOUND, "no wallet account " + session.wallet());
        }
        if (wallet.status == WalletStatus.ARCHIVED) {
            return fail(ProgramError.WALLET_NOT_ACTIVE, "the wallet is archived");
        }
        Optional<Failure> stale = takeSequence(wallet, session.sequence());
        if (stale.isPresent()) {
            return stale;
        }
        wallet.sessionVersion = Optional.of(session.version());
        // Written in whole seconds, rounded down, as the Solana adapter writes it.
        wallet.sessionExpiresAt = session.expiresAt().truncatedTo(ChronoUnit.SECONDS);
        return ok();
    }

    private Optional<Failure> updateWallet(ChainState chain, LedgerInstruction.UpdateWallet update) {
        WalletAccount wallet = chain.wallets.get(update.wallet().base58());
        if (wallet == null) {
            return fail(ProgramError.ACCOUNT_NOT_FOUND, "no wallet account " + update.wallet());
        }
        if (!chain.policies.containsKey(new PolicyKey(wallet.orgId, update.policy()))) {
            return fail(ProgramError.ACCOUNT_NOT_FOUND, "no policy account " + update.policy() + " of the wallet's organisation");
        }
        if (wallet.status == WalletStatus.ARCHIVED && update.status() != WalletStatus.ARCHIVED) {
            return fail(ProgramError.WALLET_NOT_ACTIVE, "an archived wallet stays archived");
        }
        Optional<Failure> stale = takeSequence(wallet, update.sequence());
        if (stale.isPresent()) {
            return stale;
        }
        wallet.status = update.status();
        wallet.policy = update.policy();
        return ok();
    }

    /** A wallet's admin write comes after the last one (the program's {@code admin_sequence}), which it becomes. */
    private static Optional<Failure> takeSequence(WalletAccount wallet, long sequence) {
        if (sequence <= wallet.adminSequence) {
            return fail(ProgramError.STALE_WRITE, "a newer administrative write is already on chain");
        }
        wallet.adminSequence = sequence;
        return ok();
    }

    private Optional<Failure> fund(ChainState chain, LedgerInstruction.Fund fund) {
        WalletAccount wallet = chain.wallets.get(fund.wallet().base58());
        if (wallet == null || !wallet.orgId.equals(fund.orgId())) {
            return fail(ProgramError.ACCOUNT_NOT_FOUND, "no wallet account " + fund.wallet() + " of " + fund.orgId());
        }
        if (wallet.status == WalletStatus.ARCHIVED) {
            return fail(ProgramError.WALLET_NOT_ACTIVE, "the wallet is archived");
        }
        long treasury = chain.treasuries.getOrDefault(fund.orgId(), 0L);
        if (fund.amount().isZero() || treasury < fund.amount().micros()) {
            return fail(ProgramError.INSUFFICIENT_FUNDS, "the treasury holds " + Usdc.ofMicros(treasury));
        }
        chain.treasuries.put(fund.orgId(), treasury - fund.amount().micros());
        wallet.balance += fund.amount().micros();
        return ok();
    }

    private Optional<Failure> withdraw(ChainState chain, LedgerInstruction.Withdraw withdraw) {
        WalletAccount wallet = chain.wallets.get(withdraw.wallet().base58());
        if (wallet == null || !wallet.orgId.equals(withdraw.orgId())) {
            return fail(ProgramError.ACCOUNT_NOT_FOUND, "no wallet account " + withdraw.wallet() + " of " + withdraw.orgId());
        }
        if (withdraw.amount().isZero() || wallet.balance < withdraw.amount().micros()) {
            return fail(ProgramError.INSUFFICIENT_FUNDS, "the wallet holds " + Usdc.ofMicros(wallet.balance));
        }
        wallet.balance -= withdraw.amount().micros();
        chain.treasuries.merge(withdraw.orgId(), withdraw.amount().micros(), Long::sum);
        return ok();
    }

    /**
     * A co-signed payment is first checked as the Solana adapter checks it before it sends anything:
     * a co-signature must be an Ed25519 signature, and, where the wallet's policy asks for a
     * co-signer, that co-signer's of this payment's message, whatever the amount; where it asks for
     * none, the co-signature is left out. Then the program: the recipient, the checks, and at or
     * above the threshold a co-signature (which, being there, was verified). A payment carrying the
     * co-signature counts at the second it was requested, as the adapter's transaction says.
     */
    private Optional<Failure> pay(ChainState chain, LedgerInstruction.Pay pay, Instant now) {
        WalletAccount wallet = chain.wallets.get(pay.wallet().base58());
        if (wallet != null && pay.coSignature().isPresent()) {
            Optional<Failure> unsigned = verifyCoSignature(chain, wallet, pay);
            if (unsigned.isPresent()) {
                return unsigned;
            }
        }
        // The wallet's own token account as the recipient's: the program refuses an account passed twice.
        if (wallet != null && pay.recipient().equals(pay.wallet().base58())) {
            return fail(ProgramError.ACCOUNT_MISMATCH, "a wallet cannot pay its own address");
        }
        Optional<Failure> unauthorised = checkSession(wallet, pay.wallet(), pay.sessionVersion(), pay.amount(), now);
        if (unauthorised.isPresent()) {
            return unauthorised;
        }
        PolicyRules rules = chain.policyOf(wallet).rules();
        boolean needed = rules.requireCoSign().filter(pay.amount()::isAtLeast).isPresent();
        // The adapter's transaction names the co-signer, and counts at the request, where its message does.
        boolean coSigned = pay.coSignature().isPresent()
                && rules.requireCoSign().flatMap(threshold -> rules.coSigner()).isPresent();
        long countedAtSeconds = coSigned ? pay.requestedAt().getEpochSecond() : 0;
        Instant requested = Instant.ofEpochSecond(countedAtSeconds);
        if (countedAtSeconds != 0 && !requested.isAfter(now.minus(SpendBuckets.Window.MONTH.length()))) {
            return fail(ProgramError.INVALID_ARGUMENT,
                    "counted_at needs the co-signature and lies within the month before now");
        }
        // A request later than the chain's clock counts now, as on chain.
        Instant countedAt = countedAtSeconds == 0 || requested.isAfter(now) ? now : requested;
        Optional<Failure> refused = checkPolicy(chain, wallet, pay.recipient(), pay.amount(), now, countedAt);
        if (refused.isPresent()) {
            return refused;
        }
        if (needed && pay.coSignature().isEmpty()) {
            return fail(ProgramError.CO_SIGNATURE_INVALID, "the amount needs the co-signer's signature");
        }
        if (wallet.balance < pay.amount().micros()) {
            return fail(ProgramError.INSUFFICIENT_FUNDS, "the wallet holds " + Usdc.ofMicros(wallet.balance));
        }
        wallet.balance -= pay.amount().micros();
        wallet.spend.add(countedAt, now, pay.amount().micros());
        chain.credit(pay.recipient(), pay.amount().micros());
        return ok();
    }

    private Optional<Failure> verifyCoSignature(ChainState chain, WalletAccount wallet, LedgerInstruction.Pay pay) {
        String signature = pay.coSignature().orElseThrow();
        if (Base58.decode(signature, SIGNATURE_LENGTH).isEmpty()) {
            return fail(ProgramError.CO_SIGNATURE_INVALID, "the co-signature is not 64 bytes of base58");
        }
        PolicyRules rules = chain.policyOf(wallet).rules();
        boolean asked = rules.requireCoSign().isPresent();
        if (asked && !coSignMessages.of(chain, wallet, pay)
                .filter(message -> Ed25519.verify(rules.coSigner().orElseThrow(), message, signature)).isPresent()) {
            return fail(ProgramError.CO_SIGNATURE_INVALID,
                    "the co-signature is not the policy's co-signer's signature of this payment's message");
        }
        return ok();
    }

    private Optional<Failure> lock(ChainState chain, LedgerInstruction.EscrowLock lock, Instant now) {
        LedgerAccount.Vault escrow = new LedgerAccount.Vault(lock.escrow(), lock.wallet());
        if (chain.vaults.containsKey(escrow)) {
            return fail(ProgramError.ACCOUNT_MISMATCH, "the escrow vault exists");
        }
        WalletAccount wallet = chain.wallets.get(lock.wallet().base58());
        Optional<Failure> refused = checkSession(wallet, lock.wallet(), lock.sessionVersion(), lock.amount(), now)
                .or(() -> checkPolicy(chain, wallet, lock.receiver(), lock.amount(), now, now));
        if (refused.isPresent()) {
            return refused;
        }
        Optional<Usdc> threshold = chain.policyOf(wallet).rules().requireCoSign();
        if (threshold.filter(lock.amount()::isAtLeast).isPresent()) {
            return fail(ProgramError.REQUIRE_CO_SIGN, "an escrow at or above the co-sign threshold " + threshold.get());
        }
        if (wallet.balance < lock.amount().micros()) {
            return fail(ProgramError.INSUFFICIENT_FUNDS, "the wallet holds " + Usdc.ofMicros(wallet.balance));
        }
        wallet.balance -= lock.amount().micros();
        wallet.spend.add(now, now, lock.amount().micros());
        chain.vaults.put(escrow, new Vault(lock.wallet().base58(), lock.receiver(), lock.amount().micros(), now,
                roundedUp(lock.deadline()), lock.expectedProof()));
        return ok();
    }

    private Optional<Failure> release(ChainState chain, LedgerInstruction.EscrowRelease release, Instant now) {
        LedgerAccount.Vault escrow = new LedgerAccount.Vault(release.escrow(), release.wallet());
        Vault vault = chain.vaults.get(escrow);
        if (vault == null) {
            return noEscrow(release.escrow());
        }
        // The amount is not compared: as on chain, the vault pays out what it holds.
        if (!vault.receiver.equals(release.receiver())) {
            return fail(ProgramError.ACCOUNT_MISMATCH, "the release does not match the escrow's receiver");
        }
        if (release.proof().isPresent()) {
            if (vault.status == VaultStatus.DISPUTED) {
                return fail(ProgramError.ESCROW_DISPUTED, "a disputed escrow is released only by a resolution");
            }
            if (!now.isBefore(vault.deadline)) {
                return fail(ProgramError.ESCROW_EXPIRED,
                        "the escrow timed out at " + Timestamps.format(vault.deadline));
            }
            if (vault.expectedProof.isPresent() && !vault.expectedProof.equals(release.proof())) {
                return fail(ProgramError.PROOF_MISMATCH, "the proof differs from the expected proof");
            }
        } else if (vault.status != VaultStatus.DISPUTED) {
            return fail(ProgramError.INVALID_ARGUMENT, "a release needs the completion proof unless it resolves a dispute");
        }
        chain.vaults.remove(escrow);
        chain.credit(vault.receiver, vault.amount);
        return ok();
    }

    private Optional<Failure> refund(ChainState chain, LedgerInstruction.EscrowRefund refund, Instant now) {
        LedgerAccount.Vault escrow = new LedgerAccount.Vault(refund.escrow(), refund.wallet());
        Vault vault = chain.vaults.get(escrow);
        if (vault == null) {
            return noEscrow(refund.escrow());
        }
        if (refund.resolution()) {
            if (vault.status != VaultStatus.DISPUTED) {
                return fail(ProgramError.INVALID_ARGUMENT, "only a disputed escrow is refunded by a resolution");
            }
        } else if (vault.status == VaultStatus.DISPUTED) {
            return fail(ProgramError.ESCROW_DISPUTED, "a disputed escrow does not time out");
        } else if (now.isBefore(vault.deadline)) {
            return fail(ProgramError.ESCROW_NOT_DUE, "the escrow times out at " + Timestamps.format(vault.deadline));
        }
        chain.vaults.remove(escrow);
        WalletAccount wallet = chain.wallets.get(vault.wallet);
        wallet.balance += vault.amount;
        wallet.spend.remove(vault.lockedAt, vault.amount);
        return ok();
    }

    private Optional<Failure> dispute(ChainState chain, LedgerInstruction.EscrowDispute dispute, Instant now) {
        Vault vault = chain.vaults.get(new LedgerAccount.Vault(dispute.escrow(), dispute.wallet()));
        if (vault == null) {
            return noEscrow(dispute.escrow());
        }
        if (!now.isBefore(vault.deadline)) {
            return fail(ProgramError.ESCROW_EXPIRED, "the escrow timed out at " + Timestamps.format(vault.deadline));
        }
        vault.status = VaultStatus.DISPUTED;
        return ok();
    }

    /**
     * An escrow never locked by the wallet named, or already settled (the program closes a settled
     * escrow's account), has no account on chain.
     */
    private static Optional<Failure> noEscrow(EscrowId escrow) {
        return fail(ProgramError.ACCOUNT_NOT_FOUND, "no escrow account " + escrow);
    }

    /**
     * The wallet's state, then the session (check 1: the key of the signing version is the one on
     * chain and has not expired).
     */
    private Optional<Failure> checkSession(WalletAccount wallet, LedgerAddress address, long sessionVersion,
                                           Usdc amount, Instant now) {
        if (wallet == null) {
            return fail(ProgramError.ACCOUNT_NOT_FOUND, "no wallet account " + address);
        }
        if (wallet.status != WalletStatus.ACTIVE) {
            return fail(ProgramError.WALLET_NOT_ACTIVE, "the wallet is " + wallet.status.wireName());
        }
        if (amount.isZero()) {
            return fail(ProgramError.INVALID_ARGUMENT, "the amount must be more than zero");
        }
        if (!wallet.sessionVersion.equals(Optional.of(sessionVersion)) || !now.isBefore(wallet.sessionExpiresAt)) {
            return violation(ViolationRule.SESSION_TOKEN, "session " + sessionVersion
                    + " is not the wallet's current session key, or it expired");
        }
        return ok();
    }

    /**
     * The policy checks 2 to 8, in the enforcement order, on the chain's own copies, of a spend counted
     * at {@code countedAt}: a window that no longer holds that instant does not check it.
     */
    private Optional<Failure> checkPolicy(ChainState chain, WalletAccount wallet, String recipient, Usdc amount,
                                          Instant now, Instant countedAt) {
        PolicyAccount policy = chain.policyOf(wallet);
        PolicyRules rules = policy.rules();
        if (rules.maxPerTx().filter(amount::exceeds).isPresent()) {
            return violation(ViolationRule.MAX_PER_TX, "exceeds max_per_tx " + rules.maxPerTx().get());
        }
        if (!rules.allowedRecipients().isEmpty() && !rules.allowedRecipients().contains(recipient)) {
            return violation(ViolationRule.ALLOWED_RECIPIENTS, "the recipient is not allowed");
        }
        if (policy.blockedRecipients().contains(recipient)) {
            return violation(ViolationRule.BLOCKED_CATEGORY, "the recipient is in a blocked category");
        }
        if (SpendBuckets.holds(SpendBuckets.Window.DAY, countedAt, now)
                && capExceeded(rules.maxPerDay(), wallet.spend.total(SpendBuckets.Window.DAY, now), amount)) {
            return violation(ViolationRule.MAX_PER_DAY, "exceeds max_per_day " + rules.maxPerDay().get());
        }
        if (SpendBuckets.holds(SpendBuckets.Window.MONTH, countedAt, now)
                && capExceeded(rules.maxPerMonth(), wallet.spend.total(SpendBuckets.Window.MONTH, now), amount)) {
            return violation(ViolationRule.MAX_PER_MONTH, "exceeds max_per_month " + rules.maxPerMonth().get());
        }
        if (SpendBuckets.holds(SpendBuckets.Window.HOUR, countedAt, now) && rules.velocityCap()
                .filter(cap -> wallet.spend.count(SpendBuckets.Window.HOUR, now) + 1L > cap).isPresent()) {
            return violation(ViolationRule.VELOCITY_CAP, "exceeds velocity_cap " + rules.velocityCap().get());
        }
        // The expiry is written in whole seconds, rounded down, as the Solana adapter writes it.
        if (rules.expiry().filter(expiry -> !now.isBefore(expiry.truncatedTo(ChronoUnit.SECONDS))).isPresent()) {
            return violation(ViolationRule.POLICY_EXPIRED, "the policy expired");
        }
        return ok();
    }

    /**
     * A deadline in whole seconds, rounded up as the Solana adapter writes it: an escrow is never due
     * before the instant it was given.
     */
    private static Instant roundedUp(Instant deadline) {
        Instant seconds = deadline.truncatedTo(ChronoUnit.SECONDS);
        return seconds.equals(deadline) ? seconds : seconds.plusSeconds(1);
    }

    private static boolean capExceeded(Optional<Usdc> cap, long total, Usdc amount) {
        return cap.filter(limit -> total + amount.micros() > limit.micros()).isPresent();
    }

    private static Optional<Failure> violation(ViolationRule rule, String message) {
        return fail(ProgramError.of(rule), message);
    }

    private static Optional<Failure> fail(ProgramError error, String message) {
        return Optional.of(new Failure(error, message));
    }

    private static Optional<Failure> ok() {
        return Optional.empty();
    }
}
