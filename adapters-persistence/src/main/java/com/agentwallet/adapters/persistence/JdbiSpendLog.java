package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.policy.SpendEntry;
import com.agentwallet.core.policy.TimeRange;
import com.agentwallet.core.port.SpendLog;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Query;

import java.util.List;
import java.util.Optional;

final class JdbiSpendLog implements SpendLog {
    private static final RowMapper<SpendEntry> ROW = (rs, ctx) -> new SpendEntry(new TxId(rs.getString("tx_id")),
            Rows.instant(rs, "at"), Rows.usdc(rs, "amount_micros"));

    private final Handle handle;

    JdbiSpendLog(Handle handle) {
        this.handle = handle;
    }

    @Override
    public void append(WalletId walletId, SpendEntry entry) {
        handle.createUpdate("INSERT INTO spend_entries (wallet_id, tx_id, at, amount_micros) VALUES (:wallet, :tx, :at, :amount)")
                .bind("wallet", walletId.value())
                .bind("tx", entry.txId().value())
                .bind("at", Rows.timestamp(entry.at()))
                .bind("amount", entry.amount().micros())
                .execute();
    }

    @Override
    public Optional<SpendEntry> remove(WalletId walletId, TxId txId) {
        return handle.createQuery("DELETE FROM spend_entries WHERE wallet_id = :wallet AND tx_id = :tx RETURNING *")
                .bind("wallet", walletId.value()).bind("tx", txId.value()).map(ROW).findOne();
    }

    /** One statement for all ranges: each range is an index range scan on (wallet_id, at). */
    @Override
    public List<SpendEntry> entriesIn(WalletId walletId, List<TimeRange> ranges) {
        List<TimeRange> nonEmpty = ranges.stream().filter(range -> !range.isEmpty()).toList();
        if (nonEmpty.isEmpty()) {
            return List.of();
        }
        StringBuilder sql = new StringBuilder("SELECT * FROM spend_entries WHERE wallet_id = :wallet AND (");
        for (int i = 0; i < nonEmpty.size(); i++) {
            sql.append(i == 0 ? "" : " OR ").append("(at > :after").append(i).append(" AND at <= :until").append(i).append(')');
        }
        Query query = handle.createQuery(sql.append(") ORDER BY at, tx_id").toString()).bind("wallet", walletId.value());
        for (int i = 0; i < nonEmpty.size(); i++) {
            query.bind("after" + i, Rows.timestamp(nonEmpty.get(i).after()))
                    .bind("until" + i, Rows.timestamp(nonEmpty.get(i).until()));
        }
        return query.map(ROW).list();
    }
}
