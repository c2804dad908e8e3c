package com.agentwallet.bench;

import com.agentwallet.adapters.sim.SimulatedLedger;
import com.agentwallet.core.CoreSettings;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.payment.IdempotencyKeys;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.payment.Spending;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.wallet.Allocation;
import com.agentwallet.core.wallet.WalletService;

import java.time.Clock;
import java.util.UUID;

/**
 * The use cases the in-process benchmarks drive, wired as the server wires them, on the given books
 * and the simulator ledger in memory: the ledger's answer is part of every payment's path, and the
 * simulator gives it as the server under test does.
 */
public final class CoreWiring {
    public final LedgerPort ledger;
    public final EventPublisher events;
    public final OrganisationService organisations;
    public final PolicyService policies;
    public final WalletService wallets;
    public final PaymentService payments;

    public CoreWiring(Storage storage, Clock clock, IdGenerator ids) {
        this(storage, SimulatedLedger.inMemory(clock, 1), clock, ids);
    }

    /** Another wiring on the same ledger: a second view of the same chain. */
    public CoreWiring(Storage storage, LedgerPort ledger, Clock clock, IdGenerator ids) {
        this.ledger = ledger;
        events = new EventPublisher(ids, clock);
        Settlement settlement = new Settlement(storage, ledger, events, clock, UUID.randomUUID().toString());
        Allocation allocation = new Allocation(ids, events);
        organisations = new OrganisationService(storage, ledger, events, ids, clock);
        policies = new PolicyService(storage, ledger, events, ids, clock);
        wallets = new WalletService(storage, ledger, settlement, allocation, events, ids, clock, CoreSettings.DEFAULTS);
        payments = new PaymentService(storage, ledger, new Spending(allocation, events), settlement,
                new IdempotencyKeys(storage, clock), events, ids, clock, CoreSettings.DEFAULTS);
    }
}
