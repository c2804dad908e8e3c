package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.policy.SpendEntry;
import com.agentwallet.core.policy.SpendSummary;
import com.agentwallet.core.policy.SpendWindow;
import com.agentwallet.core.policy.TimeRange;
import com.agentwallet.core.port.SpendLog;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

final class JdbiSpendLog implements SpendLog {
    private static final Pipeline.RowReader<SpendEntry> READ = rs -> new SpendEntry(new TxId(rs.getString("tx_id")),
            Rows.instant(rs, "at"), Rows.usdc(rs, "amount_micros"));
    private static final Comparator<SpendEntry> IN_ORDER = Comparator.comparing(SpendEntry::at)
            .thenComparing(entry -> entry.txId().value());
    /** How far past the present the spends are read ahead: longer than a lock is waited for, as a rule. */
    private static final Duration AHEAD = Duration.ofMinutes(1);
    /**
     * Each window's spends from its cutoff, as the locked row has it, to a bound: hour, day, month.
     * One arm per window, so that each is a range scan of the index on (wallet_id, at).
     */
    private static final String LEAVING = String.join(" UNION ", leavingWindow("hour_cutoff"),
            leavingWindow("day_cutoff"), leavingWindow("month_cutoff"));

    private final Pipeline pipeline;
    /** Spends read ahead, by wallet; kept as this unit of work appends and removes them, under the wallet's lock. */
    private final Map<WalletId, ReadAhead> readAhead = new HashMap<>();

    JdbiSpendLog(Pipeline pipeline) {
        this.pipeline = pipeline;
    }

    /** Held back until the next statement waited for (see {@link Pipeline}). */
    @Override
    public void append(WalletId walletId, SpendEntry entry) {
        pipeline.send("INSERT INTO spend_entries (wallet_id, tx_id, at, amount_micros) VALUES (?, ?, ?, ?)",
                walletId.value(), entry.txId().value(), Rows.timestamp(entry.at()), entry.amount().micros());
        Optional.ofNullable(readAhead.get(walletId)).ifPresent(read -> read.entries().add(entry));
    }

    @Override
    public Optional<SpendEntry> remove(WalletId walletId, TxId txId) {
        Optional.ofNullable(readAhead.get(walletId)).ifPresent(read -> read.entries().removeIf(e -> e.txId().equals(txId)));
        return pipeline.one("DELETE FROM spend_entries WHERE wallet_id = ? AND tx_id = ? RETURNING *", READ,
                walletId.value(), txId.value());
    }

    /**
     * One statement for all ranges: each range is an index range scan on (wallet_id, at). Answered
     * without one when the spends read ahead with the wallet's lock cover every range.
     */
    @Override
    public List<SpendEntry> entriesIn(WalletId walletId, List<TimeRange> ranges) {
        List<TimeRange> nonEmpty = ranges.stream().filter(range -> !range.isEmpty()).toList();
        if (nonEmpty.isEmpty()) {
            return List.of();
        }
        ReadAhead read = readAhead.get(walletId);
        if (read != null && nonEmpty.stream().allMatch(read::covers)) {
            return read.entries().stream().filter(entry -> nonEmpty.stream().anyMatch(range -> range.contains(entry.at())))
                    .sorted(IN_ORDER).toList();
        }
        StringBuilder sql = new StringBuilder("SELECT * FROM spend_entries WHERE wallet_id = ? AND (");
        List<Object> values = new ArrayList<>(List.of(walletId.value()));
        for (int i = 0; i < nonEmpty.size(); i++) {
            sql.append(i == 0 ? "" : " OR ").append("(at > ? AND at <= ?)");
            values.add(Rows.timestamp(nonEmpty.get(i).after()));
            values.add(Rows.timestamp(nonEmpty.get(i).until()));
        }
        return pipeline.list(sql.append(") ORDER BY at, tx_id").toString(), READ, values.toArray());
    }

    /**
     * Reads, in the request that locks the wallet and after its lock, the spends that leave its
     * windows by a minute from {@code now}: what a payment's check asks for next. {@code locked}
     * answers the wallet's summary as the lock read it, once the request is answered.
     */
    void readAheadOfLock(WalletId walletId, Supplier<Optional<SpendSummary>> locked, Instant now) {
        Instant ahead = now.plus(AHEAD).truncatedTo(ChronoUnit.MICROS);
        Map<SpendWindow, Instant> bounds = new EnumMap<>(SpendWindow.class);
        for (SpendWindow window : SpendWindow.values()) {
            bounds.put(window, ahead.minus(window.length()));
        }
        pipeline.prefetch(LEAVING, READ, rows -> locked.get().ifPresent(
                        summary -> readAhead.put(walletId, new ReadAhead(summary, bounds, new ArrayList<>(rows)))),
                walletId.value(), walletId.value(), Rows.timestamp(bounds.get(SpendWindow.HOUR)),
                walletId.value(), walletId.value(), Rows.timestamp(bounds.get(SpendWindow.DAY)),
                walletId.value(), walletId.value(), Rows.timestamp(bounds.get(SpendWindow.MONTH)));
    }

    /** One window's spends from its cutoff as the wallet's row has it to a bound: a range scan of (wallet_id, at). */
    private static String leavingWindow(String cutoff) {
        return "SELECT * FROM spend_entries WHERE wallet_id = ? AND at > (SELECT " + cutoff
                + " FROM wallets WHERE id = ?) AND at <= ?";
    }

    /**
     * Every spend of the wallet in each window's range from the summary's cutoff to its bound, and
     * those this unit of work logged since.
     */
    private record ReadAhead(SpendSummary summary, Map<SpendWindow, Instant> bounds, List<SpendEntry> entries) {
        /** Whether the range lies in one window's range read. */
        boolean covers(TimeRange range) {
            for (SpendWindow window : SpendWindow.values()) {
                if (!range.after().isBefore(summary.cutoff(window)) && !range.until().isAfter(bounds.get(window))) {
                    return true;
                }
            }
            return false;
        }
    }
}
