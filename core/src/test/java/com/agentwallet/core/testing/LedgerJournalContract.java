package com.agentwallet.core.testing;

import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.port.LedgerJournal;
import com.agentwallet.core.port.LedgerJournal.Attempt;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every {@link LedgerJournal} does: an operation has one attempt and one outcome, the first
 * recorded, whoever records another afterwards; two journals over one store (two processes) see
 * each other's records.
 */
public abstract class LedgerJournalContract {
    private static final int PROCESSES = 4;

    /** A journal over the store under test, empty at the start of each test. */
    protected abstract LedgerJournal journal();

    /** Another journal over the same store, as another server process has it. */
    protected abstract LedgerJournal otherProcess();

    @Test
    void anOperationKeepsTheFirstAttemptRecorded() {
        Attempt first = new Attempt("sig-1", "{\"transaction\":\"AQ==\"}");
        assertThat(journal().attempt("op-1")).isEmpty();
        assertThat(journal().attempted("op-1", first)).isEqualTo(first);
        assertThat(otherProcess().attempted("op-1", new Attempt("sig-2", "{}"))).as("the first stays").isEqualTo(first);
        assertThat(otherProcess().attempt("op-1")).contains(first);
        assertThat(journal().attempt("op-2")).isEmpty();
    }

    @Test
    void anOperationKeepsTheFirstOutcomeRecordedConfirmedOrRejected() {
        LedgerOutcome confirmed = new LedgerOutcome.Confirmed("sig-1", 42L);
        LedgerOutcome rejected = new LedgerOutcome.Rejected("transaction_expired", "nothing moved");
        assertThat(journal().outcome("op-1")).isEmpty();
        assertThat(journal().settled("op-1", confirmed)).isEqualTo(confirmed);
        assertThat(otherProcess().settled("op-1", rejected)).isEqualTo(confirmed);
        assertThat(otherProcess().settled("op-2", rejected)).isEqualTo(rejected);
        assertThat(journal().outcome("op-1")).contains(confirmed);
        assertThat(journal().outcome("op-2")).contains(rejected);
        assertThat(journal().attempt("op-1")).as("outcomes and attempts apart").isEmpty();
    }

    @Test
    void anUnknownOutcomeIsNotRecorded() {
        assertThatThrownBy(() -> journal().settled("op-1", new LedgerOutcome.Unknown("no answer")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(journal().outcome("op-1")).isEmpty();
    }

    @Test
    void processesRecordingAttemptsOfOneOperationAtOnceAllGetTheSameOne() throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService processes = Executors.newFixedThreadPool(PROCESSES);
        try {
            List<Future<Attempt>> recorded = new ArrayList<>();
            for (int i = 0; i < PROCESSES; i++) {
                LedgerJournal journal = i % 2 == 0 ? journal() : otherProcess();
                Attempt mine = new Attempt("sig-" + i, "{\"process\":" + i + "}");
                recorded.add(processes.submit(() -> {
                    start.await();
                    return journal.attempted("op-raced", mine);
                }));
            }
            start.countDown();
            List<Attempt> answers = new ArrayList<>();
            for (Future<Attempt> answer : recorded) {
                answers.add(answer.get(30, TimeUnit.SECONDS));
            }
            assertThat(answers).as("one attempt for all").containsOnly(answers.get(0));
            assertThat(journal().attempt("op-raced")).contains(answers.get(0));
        } finally {
            processes.shutdownNow();
        }
    }
}
