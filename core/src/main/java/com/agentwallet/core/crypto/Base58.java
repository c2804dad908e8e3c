package com.agentwallet.core.crypto;

import java.util.Arrays;
import java.util.Optional;

/** Bitcoin-alphabet base58, the text form of Solana keys, addresses and signatures. */
public final class Base58 {
    private static final char[] ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".toCharArray();
    private static final int[] INDEXES = new int[128];
    /**
     * Digits a pass of {@link #encode} and {@link #decode}: 58<sup>5</sup> is the largest power of 58
     * below 2<sup>32</sup>.
     */
    private static final int DIGITS_PER_PASS = 5;
    private static final long PASS_DIVISOR = 58L * 58 * 58 * 58 * 58;

    static {
        Arrays.fill(INDEXES, -1);
        for (int i = 0; i < ALPHABET.length; i++) {
            INDEXES[ALPHABET[i]] = i;
        }
    }

    private Base58() {
    }

    /**
     * The base58 text of {@code input}: each leading zero byte as a {@code 1}, the rest as a
     * big-endian number. The number is divided by 58<sup>5</sup> at a time, as 32-bit words, five
     * digits a pass: about a twentieth of the divisions of one byte by 58 at a time.
     */
    public static String encode(byte[] input) {
        int zeros = 0;
        while (zeros < input.length && input[zeros] == 0) {
            zeros++;
        }
        int length = input.length - zeros;
        int[] words = new int[(length + 3) / 4];
        for (int i = 0; i < length; i++) {
            words[words.length - 1 - i / 4] |= (input[input.length - 1 - i] & 0xFF) << (8 * (i % 4));
        }
        char[] encoded = new char[zeros + length * 138 / 100 + 1 + DIGITS_PER_PASS];
        int out = encoded.length;
        int start = 0;
        while (start < words.length) {
            long remainder = 0;
            for (int i = start; i < words.length; i++) {
                long current = (remainder << 32) | (words[i] & 0xFFFFFFFFL);
                words[i] = (int) (current / PASS_DIVISOR);
                remainder = current % PASS_DIVISOR;
            }
            for (int d = 0; d < DIGITS_PER_PASS; d++) {
                encoded[--out] = ALPHABET[(int) (remainder % 58)];
                remainder /= 58;
            }
            while (start < words.length && words[start] == 0) {
                start++;
            }
        }
        while (out < encoded.length && encoded[out] == ALPHABET[0]) {
            out++;
        }
        for (int z = 0; z < zeros; z++) {
            encoded[--out] = ALPHABET[0];
        }
        return new String(encoded, out, encoded.length - out);
    }

    /**
     * The decoded bytes, or empty when {@code text} holds a character outside the alphabet: each
     * leading {@code 1} as a zero byte, the rest read as a number five digits at a time (multiplying
     * 32-bit words by 58<sup>5</sup>), written big-endian without leading zeros.
     */
    public static Optional<byte[]> decode(String text) {
        int zeros = 0;
        while (zeros < text.length() && text.charAt(zeros) == ALPHABET[0]) {
            zeros++;
        }
        int[] words = new int[(text.length() - zeros) * 733 / 4000 + 1];
        int used = 0;
        for (int i = zeros; i < text.length(); ) {
            int end = Math.min(i + DIGITS_PER_PASS, text.length());
            long carry = 0;
            long multiplier = 1;
            for (; i < end; i++) {
                char c = text.charAt(i);
                int digit = c < 128 ? INDEXES[c] : -1;
                if (digit < 0) {
                    return Optional.empty();
                }
                carry = carry * 58 + digit;
                multiplier *= 58;
            }
            for (int w = 0; w < used; w++) {
                long current = (words[w] & 0xFFFFFFFFL) * multiplier + carry;
                words[w] = (int) current;
                carry = current >>> 32;
            }
            if (carry != 0) {
                words[used++] = (int) carry;
            }
        }
        byte[] number = new byte[used * 4];
        for (int w = 0; w < used; w++) {
            for (int b = 0; b < 4; b++) {
                number[number.length - 1 - 4 * w - b] = (byte) (words[w] >>> (8 * b));
            }
        }
        int skip = 0;
        while (skip < number.length && number[skip] == 0) {
            skip++;
        }
        byte[] decoded = new byte[zeros + number.length - skip];
        System.arraycopy(number, skip, decoded, zeros, number.length - skip);
        return Optional.of(decoded);
    }

    /** Decodes exactly {@code length} bytes, or empty for anything else. */
    public static Optional<byte[]> decode(String text, int length) {
        return decode(text).filter(bytes -> bytes.length == length);
    }
}
