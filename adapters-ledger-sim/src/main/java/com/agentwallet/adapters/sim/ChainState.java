package com.agentwallet.adapters.sim;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.wallet.WalletStatus;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The simulated chain's accounts: what the wallet program owns, and the token balances it moves. */
final class ChainState {
    final Map<OrgId, Long> treasuries = new HashMap<>();
    final Map<String, WalletAccount> wallets = new HashMap<>();
    /**
     * Policies by the seeds of their program address, the organisation and the policy id: an id written
     * by two organisations is two policies, and a wallet finds only its organisation's.
     */
    final Map<PolicyKey, PolicyAccount> policies = new HashMap<>();
    /**
     * Escrows by the seeds of their program address, the locking wallet and the escrow id: the same id
     * locked by two wallets is two escrows, and naming another wallet finds none.
     */
    final Map<LedgerAccount.Vault, Vault> vaults = new HashMap<>();
    /** Token accounts of recipients that are not wallets of the program. */
    final Map<String, Long> external = new HashMap<>();

    static final class WalletAccount {
        final OrgId orgId;
        final String agentId;
        WalletStatus status = WalletStatus.ACTIVE;
        PolicyId policy;
        long balance;
        /** The session version whose key is on chain, and until when; none before the first is written. */
        Optional<Long> sessionVersion = Optional.empty();
        Instant sessionExpiresAt = Instant.EPOCH;
        /** The sequence of the last session key or update written (the program's {@code admin_sequence}). */
        long adminSequence;
        final SpendBuckets spend = new SpendBuckets();

        WalletAccount(OrgId orgId, String agentId, PolicyId policy) {
            this.orgId = orgId;
            this.agentId = agentId;
            this.policy = policy;
        }
    }

    record PolicyKey(OrgId orgId, PolicyId policyId) {
    }

    record PolicyAccount(long sequence, PolicyRules rules, Set<String> blockedRecipients) {
    }

    /** An escrow exists only while open: its settlement closes it, as the program closes the account. */
    enum VaultStatus {
        LOCKED, DISPUTED
    }

    /** The policy the wallet is attached to; there is one while the wallet exists. */
    PolicyAccount policyOf(WalletAccount wallet) {
        return policies.get(new PolicyKey(wallet.orgId, wallet.policy));
    }

    static final class Vault {
        final String wallet;
        final String receiver;
        final long amount;
        final Instant lockedAt;
        final Instant deadline;
        final Optional<String> expectedProof;
        VaultStatus status = VaultStatus.LOCKED;

        Vault(String wallet, String receiver, long amount, Instant lockedAt, Instant deadline,
              Optional<String> expectedProof) {
            this.wallet = wallet;
            this.receiver = receiver;
            this.amount = amount;
            this.lockedAt = lockedAt;
            this.deadline = deadline;
            this.expectedProof = expectedProof;
        }
    }

    /** Credits a token account: a wallet of the program if the address is one, else an outside account. */
    void credit(String address, long micros) {
        WalletAccount wallet = wallets.get(address);
        if (wallet != null) {
            wallet.balance += micros;
        } else {
            external.merge(address, micros, Long::sum);
        }
    }
}
