package com.agentwallet.adapters.http.resource;

import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.port.TransactionStore;

import java.util.Optional;

/** The filters of a transaction list, from its query: {@code status}, {@code type}, {@code from}, {@code to}. */
final class TransactionQuery {
    private TransactionQuery() {
    }

    static TransactionStore.Query of(QueryParams query, Optional<WalletId> walletId) {
        return new TransactionStore.Query(walletId,
                query.get("status").map(status -> TransactionStatus.fromWire(status, "status")),
                query.get("type").map(type -> TransactionType.fromWire(type, "type")),
                query.timestamp("from"), query.timestamp("to"));
    }
}
