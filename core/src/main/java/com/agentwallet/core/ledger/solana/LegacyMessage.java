package com.agentwallet.core.ledger.solana;

import com.agentwallet.core.ledger.LedgerAddress;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A legacy Solana transaction message, compiled the way every SDK compiles it: the fee payer
 * first, then signers that write, signers that only read, other accounts that are written and
 * the rest, each group in order of first use; then the recent blockhash (or durable nonce) and
 * the instructions as indexes into that list. Its bytes are what each signer signs.
 */
public final class LegacyMessage {
    /** Solana's limit on a serialised transaction (signatures and message). */
    public static final int MAX_TRANSACTION_SIZE = 1232;
    public static final int SIGNATURE_LENGTH = 64;
    public static final int BLOCKHASH_LENGTH = 32;

    private final List<LedgerAddress> keys;
    private final int requiredSignatures;
    private final byte[] bytes;

    private LegacyMessage(List<LedgerAddress> keys, int requiredSignatures, byte[] bytes) {
        this.keys = List.copyOf(keys);
        this.requiredSignatures = requiredSignatures;
        this.bytes = bytes;
    }

    public static LegacyMessage compile(LedgerAddress feePayer, List<Instruction> instructions, byte[] recentBlockhash) {
        requireNonNull(feePayer, "feePayer is null");
        if (recentBlockhash.length != BLOCKHASH_LENGTH) {
            throw new IllegalArgumentException("a blockhash has 32 bytes");
        }
        Map<LedgerAddress, Flags> flags = new LinkedHashMap<>();
        flags.put(feePayer, new Flags(feePayer, true, true));
        for (Instruction instruction : instructions) {
            for (AccountMeta meta : instruction.accounts()) {
                flags.computeIfAbsent(meta.key(), k -> new Flags(k, false, false))
                        .merge(meta.signer(), meta.writable());
            }
            flags.computeIfAbsent(instruction.program(), k -> new Flags(k, false, false));
        }
        List<Flags> ordered = new ArrayList<>();
        for (int group = 0; group < 4; group++) {
            for (Flags account : flags.values()) {
                if (account.group() == group) {
                    ordered.add(account);
                }
            }
        }
        int signers = (int) ordered.stream().filter(f -> f.signer).count();
        int readonlySigners = (int) ordered.stream().filter(f -> f.signer && !f.writable).count();
        int readonlyOthers = (int) ordered.stream().filter(f -> !f.signer && !f.writable).count();
        List<LedgerAddress> keys = ordered.stream().map(f -> f.key).toList();

        Bytes out = new Bytes().u8(signers).u8(readonlySigners).u8(readonlyOthers).compactU16(keys.size());
        keys.forEach(key -> out.raw(key.bytes()));
        out.raw(recentBlockhash).compactU16(instructions.size());
        for (Instruction instruction : instructions) {
            out.u8(keys.indexOf(instruction.program())).compactU16(instruction.accounts().size());
            instruction.accounts().forEach(meta -> out.u8(keys.indexOf(meta.key())));
            byte[] data = instruction.data();
            out.compactU16(data.length).raw(data);
        }
        return new LegacyMessage(keys, signers, out.done());
    }

    /** The accounts that must sign, in the order their signatures appear. */
    public List<LedgerAddress> signers() {
        return keys.subList(0, requiredSignatures);
    }

    /** Every account the message names, in its order: instructions refer to them by index. */
    public List<LedgerAddress> accounts() {
        return keys;
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    /** Where the recent blockhash (a durable nonce's value) starts in {@link #bytes()}. */
    public int blockhashOffset() {
        return 3 + new Bytes().compactU16(keys.size()).done().length + keys.size() * LedgerAddress.LENGTH;
    }

    /** The size of the transaction this message makes once every signer has signed. */
    public int transactionSize() {
        return new Bytes().compactU16(requiredSignatures).done().length + requiredSignatures * SIGNATURE_LENGTH
                + bytes.length;
    }

    /** The signed transaction's wire bytes; {@code signatures} follow {@link #signers()}. */
    public byte[] transaction(List<byte[]> signatures) {
        if (signatures.size() != requiredSignatures) {
            throw new IllegalArgumentException("the message needs " + requiredSignatures + " signatures, not "
                    + signatures.size());
        }
        Bytes out = new Bytes().compactU16(signatures.size());
        for (byte[] signature : signatures) {
            if (signature.length != SIGNATURE_LENGTH) {
                throw new IllegalArgumentException("a signature has 64 bytes");
            }
            out.raw(signature);
        }
        return out.raw(bytes).done();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LegacyMessage message && Arrays.equals(bytes, message.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    private static final class Flags {
        final LedgerAddress key;
        boolean signer;
        boolean writable;

        Flags(LedgerAddress key, boolean signer, boolean writable) {
            this.key = key;
            this.signer = signer;
            this.writable = writable;
        }

        void merge(boolean isSigner, boolean isWritable) {
            signer |= isSigner;
            writable |= isWritable;
        }

        /** 0 signer and writable, 1 signer, 2 writable, 3 read-only. */
        int group() {
            return signer ? (writable ? 0 : 1) : (writable ? 2 : 3);
        }
    }
}
