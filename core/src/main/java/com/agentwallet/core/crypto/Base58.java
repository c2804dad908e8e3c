package com.agentwallet.core.crypto;

import java.util.Arrays;
import java.util.Optional;

/** Bitcoin-alphabet base58, the text form of Solana keys, addresses and signatures. */
public final class Base58 {
    private static final char[] ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".toCharArray();
    private static final int[] INDEXES = new int[128];

    static {
        Arrays.fill(INDEXES, -1);
        for (int i = 0; i < ALPHABET.length; i++) {
            INDEXES[ALPHABET[i]] = i;
        }
    }

    private Base58() {
    }

    public static String encode(byte[] input) {
        if (input.length == 0) {
            return "";
        }
        int zeros = 0;
        while (zeros < input.length && input[zeros] == 0) {
            zeros++;
        }
        byte[] digits = Arrays.copyOf(input, input.length);
        char[] encoded = new char[input.length * 2];
        int out = encoded.length;
        int start = zeros;
        while (start < digits.length) {
            encoded[--out] = ALPHABET[divmod(digits, start, 256, 58)];
            if (digits[start] == 0) {
                start++;
            }
        }
        while (out < encoded.length && encoded[out] == ALPHABET[0]) {
            out++;
        }
        while (--zeros >= 0) {
            encoded[--out] = ALPHABET[0];
        }
        return new String(encoded, out, encoded.length - out);
    }

    /** The decoded bytes, or empty when {@code text} holds a character outside the alphabet. */
    public static Optional<byte[]> decode(String text) {
        if (text.isEmpty()) {
            return Optional.of(new byte[0]);
        }
        byte[] input58 = new byte[text.length()];
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int digit = c < 128 ? INDEXES[c] : -1;
            if (digit < 0) {
                return Optional.empty();
            }
            input58[i] = (byte) digit;
        }
        int zeros = 0;
        while (zeros < input58.length && input58[zeros] == 0) {
            zeros++;
        }
        byte[] decoded = new byte[text.length()];
        int out = decoded.length;
        int start = zeros;
        while (start < input58.length) {
            decoded[--out] = divmod(input58, start, 58, 256);
            if (input58[start] == 0) {
                start++;
            }
        }
        while (out < decoded.length && decoded[out] == 0) {
            out++;
        }
        return Optional.of(Arrays.copyOfRange(decoded, out - zeros, decoded.length));
    }

    /** Decodes exactly {@code length} bytes, or empty for anything else. */
    public static Optional<byte[]> decode(String text, int length) {
        return decode(text).filter(bytes -> bytes.length == length);
    }

    private static byte divmod(byte[] number, int firstDigit, int base, int divisor) {
        int remainder = 0;
        for (int i = firstDigit; i < number.length; i++) {
            int digit = number[i] & 0xFF;
            int temp = remainder * base + digit;
            number[i] = (byte) (temp / divisor);
            remainder = temp % divisor;
        }
        return (byte) remainder;
    }
}
