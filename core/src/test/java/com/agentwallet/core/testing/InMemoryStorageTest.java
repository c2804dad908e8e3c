package com.agentwallet.core.testing;

import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.RandomIdGenerator;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.port.Storage;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The storage contract on the in-memory stores. The outbox port has no read method, so its checks
 * are here, through {@link InMemoryStorage#outbox()}, rather than in the contract.
 */
class InMemoryStorageTest extends StorageContract {
    @Override
    protected Storage newStorage() {
        return new InMemoryStorage();
    }

    @Test
    void theOutboxKeepsCommittedEventsInOrderAndDropsThoseOfAFailedTransaction() {
        InMemoryStorage storage = (InMemoryStorage) storage();
        IdGenerator ids = new RandomIdGenerator(new Random(5));
        OutboxEvent first = pending(ids, 1);
        OutboxEvent second = pending(ids, 2);
        OutboxEvent third = pending(ids, 3);
        OutboxEvent lost = pending(ids, 4);
        RuntimeException failure = new IllegalStateException("undone");

        write(s -> s.outbox().append(first));
        write(s -> {
            s.outbox().append(second);
            s.outbox().append(third);
        });
        assertThatThrownBy(() -> write(s -> {
            s.outbox().append(lost);
            throw failure;
        })).isSameAs(failure);

        assertThat(storage.outbox()).containsExactly(first, second, third);
    }

    private static OutboxEvent pending(IdGenerator ids, int seconds) {
        Transaction tx = Transaction.open(ids.tx(), ids.org(), ids.wallet(), TransactionType.PAYMENT,
                TransactionStatus.PENDING, Usdc.parse("1.00"), RECIPIENT, T0.plusSeconds(seconds));
        return new OutboxEvent(ids.event(), new DomainEvent.TransactionPending(tx, T0.plusSeconds(seconds)),
                T0.plusSeconds(seconds));
    }
}
