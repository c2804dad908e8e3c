package com.agentwallet.core.testing;

import com.agentwallet.core.CoreSettings;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.port.LedgerPort;

import java.util.Random;
import java.util.function.Function;

/** The core's use cases wired to in-memory stores, a fake ledger and a clock the test moves. */
public final class CoreFixture extends CoreServices {
    public final MutableClock clock;
    public final InMemoryStorage storage;
    /** The fake ledger, when the fixture runs on it; null when it runs on another ledger. */
    public final FakeLedger ledger;
    public final LedgerPort ledgerPort;
    public final IdGenerator ids;

    public CoreFixture() {
        this(42L);
    }

    public CoreFixture(long seed) {
        this(seed, CoreSettings.DEFAULTS);
    }

    public CoreFixture(long seed, CoreSettings settings) {
        this(new Parts(seed, new FakeLedger(), clock -> null), settings);
    }

    /** The use cases on another ledger, such as an adapter under test, made from the fixture's clock. */
    public static CoreFixture on(Function<MutableClock, LedgerPort> ledgerFactory, long seed) {
        return new CoreFixture(new Parts(seed, null, ledgerFactory), CoreSettings.DEFAULTS);
    }

    private CoreFixture(Parts parts, CoreSettings settings) {
        super(parts.storage, parts.ledgerPort, parts.clock, parts.ids, settings);
        clock = parts.clock;
        storage = parts.storage;
        ledger = parts.fake;
        ledgerPort = parts.ledgerPort;
        ids = parts.ids;
    }

    /** What the use cases are wired to, made before they are. */
    private static final class Parts {
        final MutableClock clock = MutableClock.atTestEpoch();
        final InMemoryStorage storage = new InMemoryStorage();
        final FakeLedger fake;
        final LedgerPort ledgerPort;
        final IdGenerator ids;

        Parts(long seed, FakeLedger fake, Function<MutableClock, LedgerPort> other) {
            this.fake = fake;
            this.ledgerPort = fake != null ? fake : other.apply(clock);
            this.ids = new RandomIdGenerator(new Random(seed));
        }
    }
}
