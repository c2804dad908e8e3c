package com.agentwallet.adapters.sim;

import com.agentwallet.core.CoreSettings;
import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.escrow.Proof;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.CreatePolicy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.StorageUnavailableException;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreServices;
import com.agentwallet.core.testing.InMemoryStorage;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.CreatedWallet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A dispute whose storage transaction is cut at its commit, after the ledger confirmed it: the
 * vault is disputed on the chain, the escrow still locked in the books, and the client was answered
 * 503. When the escrow then times out, or is completed with its proof, before any retry of the
 * dispute, the books' decision must still reach the chain: the program refuses a timeout refund
 * or a proof release of a disputed vault, so the payout goes as a resolution, and the escrow's money
 * ends where the books say, instead of its payout staying pending for good.
 */
class SimOrphanedDisputeTest {
    private static final String RECEIVER = Addresses.external("receiver");
    private static final String TASK_OUTPUT = Hashing.sha256Hex("the output");

    private final MutableClock clock = MutableClock.atTestEpoch();
    private final SimulatedLedger chain = SimulatedLedger.inMemory(clock, 9);
    /** When set, the next unit of work fails at its commit as if its connection had been cut. */
    private final AtomicBoolean cutAtCommit = new AtomicBoolean();
    private CoreServices core;
    private OrgId org;
    private CreatedWallet wallet;

    @BeforeEach
    void aWalletWithAHundred() {
        InMemoryStorage books = new InMemoryStorage();
        Storage cutting = new Storage() {
            @Override
            public <T> T inTransaction(Function<Stores, T> work) {
                return books.inTransaction(stores -> {
                    T result = work.apply(stores);
                    if (cutAtCommit.getAndSet(false)) {
                        throw new StorageUnavailableException("the connection was cut at the commit", null);
                    }
                    return result;
                });
            }
        };
        core = new CoreServices(cutting, chain, clock, new RandomIdGenerator(new Random(9)), CoreSettings.DEFAULTS);
        org = core.organisations.create("Org").id();
        core.organisations.deposit(org, Usdc.parse("1000")).value();
        wallet = core.wallets.create(new CreateWallet(org, "agent-1", "label", core.policies.create(
                new CreatePolicy(org, "Policy", PolicyRules.NONE, Scenario.ADMIN), RequestKey.none()).value().id(), List.of(),
                Optional.of(Duration.ofDays(30))), RequestKey.none()).value();
        core.wallets.fund(org, wallet.wallet().id(), Usdc.parse("100"), RequestKey.none()).value();
    }

    @Test
    void anEscrowThatTimesOutAfterADisputeTheBooksLostIsRefundedToTheWallet() {
        Escrow escrow = lockedWithADisputeTheBooksLost();

        clock.advance(Duration.ofMinutes(2));
        assertThat(core.escrows.refundTimedOut(10)).isOne();

        Escrow refunded = core.escrows.get(Requester.of(org), escrow.id()).value();
        assertThat(refunded.status()).isEqualTo(EscrowStatus.REFUNDED);
        assertThat(payout(refunded).status()).as("the refund is not left pending").isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(chain.balance(new LedgerAccount.Vault(escrow.id(), wallet.wallet().address()))).isEqualTo(Usdc.ZERO);
        assertThat(chain.balance(new LedgerAccount.Wallet(wallet.wallet().address())))
                .isEqualTo(core.wallets.get(org, wallet.wallet().id()).value().balance())
                .isEqualTo(Usdc.parse("100"));
        assertThat(core.settlement.recover(Duration.ZERO, 10)).as("nothing left pending").isZero();
    }

    @Test
    void anEscrowCompletedWithItsProofAfterADisputeTheBooksLostPaysTheReceiver() {
        Escrow escrow = lockedWithADisputeTheBooksLost();

        Escrow released = core.escrows.complete(Requester.of(org), escrow.id(), Proof.OUTPUT_HASH, TASK_OUTPUT).value();

        assertThat(released.status()).isEqualTo(EscrowStatus.RELEASED);
        assertThat(payout(released).status()).as("the release is not left pending").isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(chain.receivedBy(RECEIVER)).isEqualTo(Usdc.parse("30"));
        assertThat(chain.balance(new LedgerAccount.Wallet(wallet.wallet().address())))
                .isEqualTo(core.wallets.get(org, wallet.wallet().id()).value().balance())
                .isEqualTo(Usdc.parse("70"));
        assertThat(core.settlement.recover(Duration.ZERO, 10)).as("nothing left pending").isZero();
    }

    /** A locked escrow of 30 with a minute's timeout, disputed on the chain by a request whose commit was cut. */
    private Escrow lockedWithADisputeTheBooksLost() {
        Escrow escrow = core.escrows.lock(new LockEscrow(org, wallet.wallet().id(), RECEIVER, Usdc.parse("30"), "task",
                60, Optional.of(TASK_OUTPUT), Optional.of(wallet.session())), RequestKey.none()).value();
        assertThat(escrow.status()).isEqualTo(EscrowStatus.LOCKED);

        cutAtCommit.set(true);
        assertThatThrownBy(() -> core.escrows.dispute(Requester.of(org), escrow.id(), "not delivered", Hashing.sha256Hex("evidence")))
                .isInstanceOf(StorageUnavailableException.class);

        assertThat(core.escrows.get(Requester.of(org), escrow.id()).value().status()).as("in the books").isEqualTo(EscrowStatus.LOCKED);
        return escrow;
    }

    private Transaction payout(Escrow escrow) {
        return core.payments.get(org, escrow.settleTx().orElseThrow()).value();
    }
}
