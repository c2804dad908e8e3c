package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.policy.SpendEntry;
import com.agentwallet.core.policy.TimeRange;
import com.agentwallet.core.port.SpendLog;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

final class JdbiSpendLog implements SpendLog {
    private static final Pipeline.RowReader<SpendEntry> READ = rs -> new SpendEntry(new TxId(rs.getString("tx_id")),
            Rows.instant(rs, "at"), Rows.usdc(rs, "amount_micros"));

    private final Pipeline pipeline;

    JdbiSpendLog(Pipeline pipeline) {
        this.pipeline = pipeline;
    }

    /** Held back until the next statement waited for (see {@link Pipeline}). */
    @Override
    public void append(WalletId walletId, SpendEntry entry) {
        pipeline.send("INSERT INTO spend_entries (wallet_id, tx_id, at, amount_micros) VALUES (?, ?, ?, ?)",
                walletId.value(), entry.txId().value(), Rows.timestamp(entry.at()), entry.amount().micros());
    }

    @Override
    public Optional<SpendEntry> remove(WalletId walletId, TxId txId) {
        return pipeline.one("DELETE FROM spend_entries WHERE wallet_id = ? AND tx_id = ? RETURNING *", READ,
                walletId.value(), txId.value());
    }

    /** One statement for all ranges: each range is an index range scan on (wallet_id, at). */
    @Override
    public List<SpendEntry> entriesIn(WalletId walletId, List<TimeRange> ranges) {
        List<TimeRange> nonEmpty = ranges.stream().filter(range -> !range.isEmpty()).toList();
        if (nonEmpty.isEmpty()) {
            return List.of();
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
}
