package com.agentwallet.bootstrap.metrics;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.LedgerUnavailableException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every submission timed, each one that did not confirm counted by kind, and the plugin closed through it. */
class MeasuredLedgerTest {
    private static final LedgerInstruction DEPOSIT = new LedgerInstruction.Deposit("deposit:1",
            new OrgId("org_" + "A".repeat(24)), Usdc.parse("1"));

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ScriptedLedger plugin = new ScriptedLedger();
    private final MeasuredLedger ledger = new MeasuredLedger(plugin, registry);

    @Test
    void eachSubmissionIsTimedAndEachThatDidNotConfirmIsCountedByKind() {
        plugin.answers.addAll(List.of(() -> new LedgerOutcome.Confirmed("sig", 1),
                () -> new LedgerOutcome.Rejected("insufficient_funds", "no"),
                () -> new LedgerOutcome.Unknown("timeout"),
                () -> {
                    throw new LedgerUnavailableException("out of reach");
                },
                () -> {
                    throw new IllegalStateException("a bug");
                }));

        ledger.submit(DEPOSIT);
        ledger.submit(DEPOSIT);
        ledger.submit(DEPOSIT);
        assertThatThrownBy(() -> ledger.submit(DEPOSIT)).isInstanceOf(LedgerUnavailableException.class);
        assertThatThrownBy(() -> ledger.submit(DEPOSIT)).isInstanceOf(IllegalStateException.class);

        assertThat(registry.get("agentwallet.ledger.submit").timer().count()).isEqualTo(5);
        for (String kind : List.of("rejected", "unknown", "unavailable", "exception")) {
            assertThat(registry.get("agentwallet.ledger.errors").tag("kind", kind).counter().count()).as(kind)
                    .isEqualTo(1);
        }
    }

    @Test
    void closingItClosesThePlugin() throws Exception {
        ledger.close();

        assertThat(plugin.closed).isTrue();
    }

    /** Answers each submission with the next of its answers; remembers being closed. */
    private static final class ScriptedLedger implements LedgerPort, AutoCloseable {
        final Deque<Supplier<LedgerOutcome>> answers = new ArrayDeque<>();
        boolean closed;

        @Override
        public LedgerOutcome submit(LedgerInstruction instruction) {
            return answers.pop().get();
        }

        @Override
        public LedgerAddress walletAddress(OrgId orgId, String agentId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public byte[] coSignMessage(LedgerInstruction.Pay payment) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void coSignAbandoned(String operationId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long currentSlot() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Usdc balance(LedgerAccount account) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
