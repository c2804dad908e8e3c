package com.agentwallet.core.testing;

import com.agentwallet.core.CoreSettings;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.payment.Spending;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.wallet.Allocation;
import com.agentwallet.core.wallet.WalletService;

import java.util.Random;

/** The core's use cases wired to in-memory stores, a fake ledger and a clock the test moves. */
public final class CoreFixture {
    public final MutableClock clock = MutableClock.atTestEpoch();
    public final InMemoryStorage storage = new InMemoryStorage();
    public final FakeLedger ledger = new FakeLedger();
    public final IdGenerator ids;
    public final EventPublisher events;
    public final Settlement settlement;
    public final OrganisationService organisations;
    public final PolicyService policies;
    public final WalletService wallets;
    public final PaymentService payments;
    public final EscrowService escrows;

    public CoreFixture() {
        this(42L);
    }

    public CoreFixture(long seed) {
        this(seed, CoreSettings.DEFAULTS);
    }

    public CoreFixture(long seed, CoreSettings settings) {
        LedgerPort ledgerPort = ledger;
        ids = new RandomIdGenerator(new Random(seed));
        events = new EventPublisher(ids, clock);
        settlement = new Settlement(storage, ledgerPort, events, clock);
        Allocation allocation = new Allocation(ids, events);
        Spending spending = new Spending(allocation, events);
        organisations = new OrganisationService(storage, ledgerPort, events, ids, clock);
        policies = new PolicyService(storage, ledgerPort, events, ids, clock);
        wallets = new WalletService(storage, ledgerPort, settlement, allocation, events, ids, clock, settings);
        payments = new PaymentService(storage, ledgerPort, spending, settlement, events, ids, clock, settings);
        escrows = new EscrowService(storage, spending, settlement, events, ids, clock);
    }
}
