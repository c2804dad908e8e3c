package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.OrgId;
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
import java.util.function.Function;
import java.util.stream.Collectors;

final class JdbiSpendLog implements SpendLog {
    private static final Pipeline.RowReader<SpendEntry> READ = rs -> new SpendEntry(new TxId(rs.getString("tx_id")),
            Rows.instant(rs, "at"), Rows.usdc(rs, "amount_micros"));
    private static final Comparator<SpendEntry> IN_ORDER = Comparator.comparing(SpendEntry::at)
            .thenComparing(entry -> entry.txId().value());
    /** How far past the present the spends are read ahead: longer than a lock is waited for, as a rule. */
    private static final Duration AHEAD = Duration.ofMinutes(1);
    /**
     * Each wallet's spends in each window from its cutoff, as the locked row has it, to a bound: hour,
     * day, month. One arm per window, so that each is a range scan of the index on (wallet_id, at).
     */
    static final String LEAVING = String.join(" UNION ", leavingWindow("hour_cutoff"),
            leavingWindow("day_cutoff"), leavingWindow("month_cutoff"));
    private static final Pipeline.RowReader<Map.Entry<WalletId, SpendEntry>> READ_OF_WALLET =
            rs -> Map.entry(new WalletId(rs.getString("wallet_id")), READ.read(rs));

    /** A spend appended to a wallet's log. */
    private record Appended(WalletId walletId, SpendEntry entry) {
    }

    private static final Pipeline.Kind<Appended> APPEND = Columns.<Appended>of()
            .and("wallet_id", Columns.Type.TEXT, row -> row.walletId().value())
            .and("tx_id", Columns.Type.TEXT, row -> row.entry().txId().value())
            .and("at", Columns.Type.TIMESTAMPTZ, row -> Rows.timestamp(row.entry().at()))
            .and("amount_micros", Columns.Type.BIGINT, row -> row.entry().amount().micros())
            .insertInto("spend_entries", "");

    private final Pipeline pipeline;
    /** Spends read ahead, by wallet; kept as this unit of work appends and removes them, under the wallet's lock. */
    private final Map<WalletId, ReadAhead> readAhead = new HashMap<>();

    JdbiSpendLog(Pipeline pipeline) {
        this.pipeline = pipeline;
    }

    /** Held back until the next statement waited for (see {@link Pipeline}). */
    @Override
    public void append(WalletId walletId, SpendEntry entry) {
        pipeline.send(APPEND, new Appended(walletId, entry));
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
     * Reads, in the request that locks the wallets and after their lock, the spends that leave their
     * windows by a minute from {@code now}: what a payment's check asks for next. {@code locked}
     * answers a wallet's summary as the lock read it, once the request is answered.
     */
    void readAheadOfLocks(OrgId orgId, List<String> walletIds, Function<WalletId, Optional<SpendSummary>> locked,
                          Instant now) {
        Instant ahead = now.plus(AHEAD).truncatedTo(ChronoUnit.MICROS);
        Map<SpendWindow, Instant> bounds = new EnumMap<>(SpendWindow.class);
        for (SpendWindow window : SpendWindow.values()) {
            bounds.put(window, ahead.minus(window.length()));
        }
        pipeline.prefetch(LEAVING, READ_OF_WALLET, rows -> {
                    Map<WalletId, List<SpendEntry>> byWallet = rows.stream().collect(Collectors.groupingBy(
                            Map.Entry::getKey, Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
                    walletIds.stream().map(WalletId::new).forEach(id -> locked.apply(id).ifPresent(summary -> readAhead
                            .put(id, new ReadAhead(summary, bounds, new ArrayList<>(byWallet.getOrDefault(id, List.of()))))));
                }, Rows.timestamp(bounds.get(SpendWindow.HOUR)), walletIds, orgId.value(),
                Rows.timestamp(bounds.get(SpendWindow.DAY)), walletIds, orgId.value(),
                Rows.timestamp(bounds.get(SpendWindow.MONTH)), walletIds, orgId.value());
    }

    /**
     * The wallets' spends in one window, from its cutoff as each wallet's row has it to a bound: for
     * each wallet a range scan of (wallet_id, at).
     */
    private static String leavingWindow(String cutoff) {
        return "SELECT e.* FROM spend_entries e JOIN wallets w ON e.wallet_id = w.id AND e.at > w." + cutoff
                + " AND e.at <= ? WHERE w.id = ANY(?) AND w.org_id = ?";
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
