package com.agentwallet.adapters.sim;

import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import static java.util.Objects.requireNonNull;

/**
 * The first outcome of every operation that reached the chain, by operation id, which is what a
 * submission of the same operation is answered again. Refusals, which are rare, are kept as they
 * are, message and all. Confirmations, one for each payment ever made, are kept without an object
 * each: the first 128 bits of the SHA-256 of the operation id, the slot, and the kind of
 * instruction (the signature is made again from the kind and the id), in arrays of primitives with
 * open addressing, between a quarter and half full: 25 bytes a slot, 50 to 100 bytes a
 * confirmation, and nothing in them for the garbage collector to follow. A map holding an object
 * per confirmation (as the simulator had) gave every young collection the new entries to copy and
 * the cards of the map's table to scan, which the service load benchmark's pauses showed.
 *
 * <p>Two operation ids with the same 128 bits would be taken for one: with a billion operations the
 * chance of that is about one in 10<sup>21</sup>. The real chain, too, knows a transaction by a
 * digest of it, its signature.
 *
 * <p>Not thread-safe: the simulator uses it under its chain's lock.
 */
final class Outcomes {
    private static final int FIRST_CAPACITY = 1 << 12;
    private static final List<Class<?>> KINDS = List.of(LedgerInstruction.class.getPermittedSubclasses());

    private final Map<String, LedgerOutcome.Rejected> refused = new HashMap<>();
    /** Two longs per entry: the digest's first 64 bits, then the next 64. */
    private long[] digests = new long[2 * FIRST_CAPACITY];
    private long[] slots = new long[FIRST_CAPACITY];
    /** The kind's index in {@link #KINDS}, plus one; 0 marks a free entry. */
    private byte[] kinds = new byte[FIRST_CAPACITY];
    private int confirmed;

    /**
     * An operation id with the first 128 bits of its SHA-256: made once for a submission, outside the
     * chain's lock, and used both to look its operation up and to keep its outcome.
     */
    record Id(String operationId, long high, long low) {
        static Id of(String operationId) {
            ByteBuffer sha = ByteBuffer.wrap(Hashing.sha256(operationId.getBytes(StandardCharsets.UTF_8)));
            return new Id(operationId, sha.getLong(), sha.getLong());
        }
    }

    /**
     * Keeps the confirmation of the operation {@code id}, an instruction of {@code kind}, at
     * {@code slot}; it has no outcome yet.
     */
    void confirmed(Id id, Class<? extends LedgerInstruction> kind, long slot) {
        if (2 * (confirmed + 1) > kinds.length) {
            grow();
        }
        int entry = find(id.high(), id.low());
        digests[2 * entry] = id.high();
        digests[2 * entry + 1] = id.low();
        slots[entry] = slot;
        kinds[entry] = (byte) (KINDS.indexOf(kind) + 1);
        confirmed++;
    }

    /** Keeps the refusal of an operation that has no outcome yet. */
    void refused(Id id, LedgerOutcome.Rejected rejected) {
        refused.put(id.operationId(), requireNonNull(rejected, "rejected is null"));
    }

    /**
     * The first outcome of the operation, or null if it never reached the chain; a confirmation is
     * made by {@code confirmation} from the kind of its instruction and its slot.
     */
    LedgerOutcome find(Id id, BiFunction<Class<? extends LedgerInstruction>, Long, LedgerOutcome.Confirmed> confirmation) {
        LedgerOutcome.Rejected refusal = refused.get(id.operationId());
        if (refusal != null) {
            return refusal;
        }
        int entry = find(id.high(), id.low());
        if (kinds[entry] == 0) {
            return null;
        }
        return confirmation.apply(KINDS.get(kinds[entry] - 1).asSubclass(LedgerInstruction.class), slots[entry]);
    }

    /** The entry holding the digest, or the free entry where it would go. */
    private int find(long high, long low) {
        int mask = kinds.length - 1;
        int entry = (int) high & mask;
        while (kinds[entry] != 0 && (digests[2 * entry] != high || digests[2 * entry + 1] != low)) {
            entry = (entry + 1) & mask;
        }
        return entry;
    }

    private void grow() {
        long[] oldDigests = digests;
        long[] oldSlots = slots;
        byte[] oldKinds = kinds;
        digests = new long[2 * oldDigests.length];
        slots = new long[2 * oldSlots.length];
        kinds = new byte[2 * oldKinds.length];
        for (int old = 0; old < oldKinds.length; old++) {
            if (oldKinds[old] != 0) {
                int entry = find(oldDigests[2 * old], oldDigests[2 * old + 1]);
                digests[2 * entry] = oldDigests[2 * old];
                digests[2 * entry + 1] = oldDigests[2 * old + 1];
                slots[entry] = oldSlots[old];
                kinds[entry] = oldKinds[old];
            }
        }
    }
}
