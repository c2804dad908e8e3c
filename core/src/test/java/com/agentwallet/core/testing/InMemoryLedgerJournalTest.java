package com.agentwallet.core.testing;

import com.agentwallet.core.port.LedgerJournal;

class InMemoryLedgerJournalTest extends LedgerJournalContract {
    private final InMemoryLedgerJournal journal = new InMemoryLedgerJournal();

    @Override
    protected LedgerJournal journal() {
        return journal;
    }

    @Override
    protected LedgerJournal otherProcess() {
        return journal;
    }
}
