package com.agentwallet.adapters.http.export;

import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.port.ExportWriter;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;

/** Transactions as the writers meet them: a confirmed payment with a memo, a blocked one. */
final class SampleTransactions {
    static final Instant AT = Instant.parse("2025-03-01T12:00:00.123Z");
    /** A memo every CSV rule applies to: a comma, quotes and a line break. */
    static final String AWKWARD_MEMO = "Invoice 7, \"rush\"\r\nsecond line";

    private final IdGenerator ids = new RandomIdGenerator(new Random(7));

    Transaction confirmed(String memo) {
        return Transaction.open(ids.tx(), ids.org(), ids.wallet(), TransactionType.PAYMENT, TransactionStatus.PENDING,
                Usdc.parse("12.5"), "Recipient1111111111111111111111111111111111", AT)
                .withMemo(Optional.of(memo))
                .confirmed("5sig", 42L, AT.plusSeconds(2));
    }

    /** The whole file {@code writer} makes of {@code transactions}, as text. */
    static String write(ExportWriter writer, Transaction... transactions) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExportWriter.Rows rows = writer.begin(out);
        for (Transaction tx : transactions) {
            rows.row(tx);
        }
        rows.end();
        return out.toString(StandardCharsets.UTF_8);
    }

    Transaction blocked() {
        return Transaction.open(ids.tx(), ids.org(), ids.wallet(), TransactionType.PAYMENT, TransactionStatus.PENDING,
                Usdc.parse("900"), "Recipient2222222222222222222222222222222222", AT)
                .blockedBy(new Violation(ViolationRule.MAX_PER_TX, "500.00", "900.00"));
    }
}
