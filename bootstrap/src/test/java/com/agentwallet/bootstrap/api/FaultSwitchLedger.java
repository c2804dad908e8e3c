package com.agentwallet.bootstrap.api;

import com.agentwallet.adapters.sim.SimLedgerFactory;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.port.LedgerAdapterFactory;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.LedgerUnavailableException;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * The simulator ledger whose injected faults a test switches on while the server runs, and which
 * counts them: so that a suite can set its wallets up on a healthy ledger and then run on a faulty
 * one, and report how many submissions failed, came late or were dropped. A test ledger plugin
 * ({@code ledger.type: sim-fault-switch}, registered for the tests only) with the simulator's own
 * settings; the fault settings ({@code failure_rate}, {@code late_rate}, {@code drop_rate},
 * {@code latency_ms}) apply from {@link #faultsOn()}, when the simulator is opened again over its
 * journal with them, as a restarted one would be; {@link #unreachable} fails every call while set.
 *
 * <p>A fault is counted when it shows: a refusal {@code ledger_unavailable} is a failed submission;
 * an unknown outcome is late when a later submission of the operation finds it confirmed, dropped
 * when it finds it expired, and unresolved until then.
 */
final class FaultSwitchLedger implements LedgerPort, AutoCloseable {
    static final String NAME = "sim-fault-switch";
    private static final Set<String> FAULT_SETTINGS = Set.of("failure_rate", "late_rate", "drop_rate", "latency_ms");
    private static final Map<Path, FaultSwitchLedger> RUNNING = new ConcurrentHashMap<>();

    private final LedgerContext context;
    /** Submissions share the simulator; switching it waits for them and holds new ones back. */
    private final ReadWriteLock switching = new ReentrantReadWriteLock();
    private final Set<String> unresolved = ConcurrentHashMap.newKeySet();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger late = new AtomicInteger();
    private final AtomicInteger dropped = new AtomicInteger();
    private final Object[] stripes = new Object[64];
    private LedgerPort simulator;
    /** While set, every call fails as a ledger out of reach does. */
    private volatile boolean unreachable;

    /** The plugin: registered in the tests' {@code META-INF/services}. */
    public static final class Factory implements LedgerAdapterFactory {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public LedgerPort create(LedgerContext context) {
            FaultSwitchLedger ledger = new FaultSwitchLedger(context);
            RUNNING.put(context.dataDirectory().toAbsolutePath(), ledger);
            return ledger;
        }
    }

    /** How many faults showed: {@code failed}, {@code late} and {@code dropped}, and those not resolved yet. */
    record Faults(int failed, int late, int dropped, int unresolved) {
        int total() {
            return failed + late + dropped;
        }
    }

    private FaultSwitchLedger(LedgerContext context) {
        this.context = context;
        Arrays.setAll(stripes, i -> new Object());
        Map<String, String> healthy = new HashMap<>(context.settings());
        healthy.keySet().removeAll(FAULT_SETTINGS);
        this.simulator = simulator(healthy);
    }

    /** The ledger of the running server whose data directory is {@code data}. */
    static FaultSwitchLedger of(Path data) {
        return Optional.ofNullable(RUNNING.get(data.toAbsolutePath()))
                .orElseThrow(() -> new IllegalStateException("no server on the " + NAME + " ledger under " + data));
    }

    /** From now on the simulator injects the configured faults. */
    void faultsOn() {
        switching.writeLock().lock();
        try {
            close(simulator);
            simulator = simulator(context.settings());
        } finally {
            switching.writeLock().unlock();
        }
    }

    /** From now on every call fails {@code ledger_unavailable}, as with the ledger's node out of reach; or no longer. */
    void unreachable(boolean unreachable) {
        this.unreachable = unreachable;
    }

    Faults faults() {
        return new Faults(failed.get(), late.get(), dropped.get(), unresolved.size());
    }

    /** Submits; one submission of an operation at a time, so that its outcomes are counted in their order. */
    @Override
    public LedgerOutcome submit(LedgerInstruction instruction) {
        synchronized (stripes[Math.floorMod(instruction.operationId().hashCode(), stripes.length)]) {
            LedgerOutcome outcome = using(simulator -> simulator.submit(instruction));
            count(instruction.operationId(), outcome);
            return outcome;
        }
    }

    private void count(String operationId, LedgerOutcome outcome) {
        boolean wasUnknown = unresolved.remove(operationId);
        if (outcome instanceof LedgerOutcome.Unknown) {
            unresolved.add(operationId);
        } else if (outcome instanceof LedgerOutcome.Rejected rejected && rejected.code().equals("ledger_unavailable")) {
            failed.incrementAndGet();
        } else if (wasUnknown) {
            (outcome instanceof LedgerOutcome.Confirmed ? late : dropped).incrementAndGet();
        }
    }

    @Override
    public LedgerAddress walletAddress(OrgId orgId, String agentId) {
        return using(simulator -> simulator.walletAddress(orgId, agentId));
    }

    @Override
    public byte[] coSignMessage(LedgerInstruction.Pay payment) {
        return using(simulator -> simulator.coSignMessage(payment));
    }

    @Override
    public void coSignAbandoned(String operationId) {
        using(simulator -> {
            simulator.coSignAbandoned(operationId);
            return operationId;
        });
    }

    @Override
    public long currentSlot() {
        return using(LedgerPort::currentSlot);
    }

    @Override
    public Usdc balance(LedgerAccount account) {
        return using(simulator -> simulator.balance(account));
    }

    @Override
    public void close() {
        switching.writeLock().lock();
        try {
            RUNNING.remove(context.dataDirectory().toAbsolutePath(), this);
            close(simulator);
        } finally {
            switching.writeLock().unlock();
        }
    }

    private <T> T using(Function<LedgerPort, T> call) {
        if (unreachable) {
            throw new LedgerUnavailableException("the ledger's node is out of reach");
        }
        switching.readLock().lock();
        try {
            return call.apply(simulator);
        } finally {
            switching.readLock().unlock();
        }
    }

    private LedgerPort simulator(Map<String, String> settings) {
        return new SimLedgerFactory().create(new LedgerContext(context.clock(), context.dataDirectory(), settings));
    }

    private static void close(LedgerPort simulator) {
        if (simulator instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the simulator failed", e);
            }
        }
    }
}
