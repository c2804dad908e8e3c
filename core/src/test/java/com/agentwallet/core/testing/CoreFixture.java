package com.agentwallet.core.testing;

import com.agentwallet.core.CoreSettings;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.wallet.WalletService;

import java.util.Random;
import java.util.function.Function;

/** The core's use cases wired to in-memory stores, a fake ledger and a clock the test moves. */
public final class CoreFixture {
    public final MutableClock clock = MutableClock.atTestEpoch();
    public final InMemoryStorage storage = new InMemoryStorage();
    /** The fake ledger, when the fixture runs on it; null when it runs on another ledger. */
    public final FakeLedger ledger;
    public final LedgerPort ledgerPort;
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
        this(seed, settings, new FakeLedger(), clock -> null);
    }

    /** The use cases on another ledger, such as an adapter under test, made from the fixture's clock. */
    public static CoreFixture on(Function<MutableClock, LedgerPort> ledgerFactory, long seed) {
        return new CoreFixture(seed, CoreSettings.DEFAULTS, null, ledgerFactory);
    }

    private CoreFixture(long seed, CoreSettings settings, FakeLedger fake, Function<MutableClock, LedgerPort> other) {
        ledger = fake;
        ledgerPort = fake != null ? fake : other.apply(clock);
        ids = new RandomIdGenerator(new Random(seed));
        CoreServices services = new CoreServices(storage, ledgerPort, clock, ids, settings);
        events = services.events;
        settlement = services.settlement;
        organisations = services.organisations;
        policies = services.policies;
        wallets = services.wallets;
        payments = services.payments;
        escrows = services.escrows;
    }
}
