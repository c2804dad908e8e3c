package com.agentwallet.core.ledger.solana;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Little-endian writer of instruction data and messages, with Solana's compact-u16 lengths. */
public final class Bytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public Bytes u8(int value) {
        out.write(value & 0xff);
        return this;
    }

    public Bytes u32(long value) {
        for (int i = 0; i < 4; i++) {
            out.write((int) (value >>> (8 * i)) & 0xff);
        }
        return this;
    }

    public Bytes u64(long value) {
        for (int i = 0; i < 8; i++) {
            out.write((int) (value >>> (8 * i)) & 0xff);
        }
        return this;
    }

    public Bytes raw(byte[] bytes) {
        out.writeBytes(bytes);
        return this;
    }

    /** A Rust {@code String} as bincode writes it: u64 length, then UTF-8. */
    public Bytes string(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return u64(utf8.length).raw(utf8);
    }

    /** Solana's "shortvec" length: 7 bits per byte, high bit set while more follow. */
    public Bytes compactU16(int value) {
        if (value < 0 || value > 0xffff) {
            throw new IllegalArgumentException("a compact-u16 holds 0 to 65535, not " + value);
        }
        int rest = value;
        while (true) {
            int low = rest & 0x7f;
            rest >>>= 7;
            if (rest == 0) {
                out.write(low);
                return this;
            }
            out.write(low | 0x80);
        }
    }

    public byte[] done() {
        return out.toByteArray();
    }

    public static long u64At(byte[] data, int offset) {
        long value = 0;
        for (int i = 7; i >= 0; i--) {
            value = (value << 8) | (data[offset + i] & 0xffL);
        }
        return value;
    }

    public static long u32At(byte[] data, int offset) {
        long value = 0;
        for (int i = 3; i >= 0; i--) {
            value = (value << 8) | (data[offset + i] & 0xffL);
        }
        return value;
    }

    public static byte[] slice(byte[] data, int offset, int length) {
        byte[] part = new byte[length];
        System.arraycopy(data, offset, part, 0, length);
        return part;
    }
}
