package com.agentwallet.core.port;

import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.policy.SpendEntry;
import com.agentwallet.core.policy.SpendSummary;
import com.agentwallet.core.policy.TimeRange;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The spends that count toward each wallet's caps. The wallet's {@code SpendSummary} keeps the
 * totals; the log is read only for the spends crossing a window's edge, by time range.
 */
public interface SpendLog {
    void append(WalletId walletId, SpendEntry entry);

    /** Removes a spend given back (rejected, expired, failed, refunded); empty when it was not logged. */
    Optional<SpendEntry> remove(WalletId walletId, TxId txId);

    /** The wallet's spends whose time falls in any of {@code ranges}, each once. */
    List<SpendEntry> entriesIn(WalletId walletId, List<TimeRange> ranges);

    /** A wallet's {@code summary} moved to {@code now}, reading only the spends that left a window since. */
    default SpendSummary advance(WalletId walletId, SpendSummary summary, Instant now) {
        return summary.advanceTo(now, entriesIn(walletId, summary.leavingBy(now)));
    }
}
