package com.agentwallet.adapters.solana;

import org.p2p.solanaj.core.AccountMeta;
import org.p2p.solanaj.core.PublicKey;
import org.p2p.solanaj.core.TransactionInstruction;

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
final class LegacyMessage {
    /** Solana's limit on a serialised transaction (signatures and message). */
    static final int MAX_TRANSACTION_SIZE = 1232;
    static final int SIGNATURE_LENGTH = 64;

    private final List<PublicKey> keys;
    private final int requiredSignatures;
    private final byte[] bytes;

    private LegacyMessage(List<PublicKey> keys, int requiredSignatures, byte[] bytes) {
        this.keys = List.copyOf(keys);
        this.requiredSignatures = requiredSignatures;
        this.bytes = bytes;
    }

    static LegacyMessage compile(PublicKey feePayer, List<TransactionInstruction> instructions, byte[] recentBlockhash) {
        requireNonNull(feePayer, "feePayer is null");
        if (recentBlockhash.length != 32) {
            throw new IllegalArgumentException("a blockhash has 32 bytes");
        }
        Map<String, Flags> flags = new LinkedHashMap<>();
        flags.put(feePayer.toBase58(), new Flags(feePayer, true, true));
        for (TransactionInstruction instruction : instructions) {
            for (AccountMeta meta : instruction.getKeys()) {
                flags.computeIfAbsent(meta.getPublicKey().toBase58(), k -> new Flags(meta.getPublicKey(), false, false))
                        .merge(meta.isSigner(), meta.isWritable());
            }
            flags.computeIfAbsent(instruction.getProgramId().toBase58(),
                    k -> new Flags(instruction.getProgramId(), false, false));
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
        List<PublicKey> keys = ordered.stream().map(f -> f.key).toList();
        List<String> names = keys.stream().map(PublicKey::toBase58).toList();

        Bytes out = new Bytes().u8(signers).u8(readonlySigners).u8(readonlyOthers).compactU16(keys.size());
        keys.forEach(key -> out.raw(key.toByteArray()));
        out.raw(recentBlockhash).compactU16(instructions.size());
        for (TransactionInstruction instruction : instructions) {
            out.u8(names.indexOf(instruction.getProgramId().toBase58())).compactU16(instruction.getKeys().size());
            instruction.getKeys().forEach(meta -> out.u8(names.indexOf(meta.getPublicKey().toBase58())));
            out.compactU16(instruction.getData().length).raw(instruction.getData());
        }
        return new LegacyMessage(keys, signers, out.done());
    }

    /** The accounts that must sign, in the order their signatures appear. */
    List<PublicKey> signers() {
        return keys.subList(0, requiredSignatures);
    }

    byte[] bytes() {
        return bytes.clone();
    }

    /** The size of the transaction this message makes once every signer has signed. */
    int transactionSize() {
        return new Bytes().compactU16(requiredSignatures).done().length + requiredSignatures * SIGNATURE_LENGTH
                + bytes.length;
    }

    /** The signed transaction's wire bytes; {@code signatures} follow {@link #signers()}. */
    byte[] transaction(List<byte[]> signatures) {
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
        final PublicKey key;
        boolean signer;
        boolean writable;

        Flags(PublicKey key, boolean signer, boolean writable) {
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
