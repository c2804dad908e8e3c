package com.agentwallet.client;

import java.math.BigInteger;
import java.util.Arrays;

/** Bitcoin-alphabet base58, the text form of Solana keys and signatures. */
final class Base58 {
    private static final String ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    private static final BigInteger BASE = BigInteger.valueOf(58);

    private Base58() {
    }

    static String encode(byte[] bytes) {
        StringBuilder text = new StringBuilder();
        for (BigInteger n = new BigInteger(1, bytes); n.signum() > 0; ) {
            BigInteger[] qr = n.divideAndRemainder(BASE);
            text.append(ALPHABET.charAt(qr[1].intValue()));
            n = qr[0];
        }
        for (int i = 0; i < bytes.length && bytes[i] == 0; i++) {
            text.append('1');
        }
        return text.reverse().toString();
    }

    static byte[] decode(String text) {
        BigInteger n = BigInteger.ZERO;
        for (char c : text.toCharArray()) {
            int digit = ALPHABET.indexOf(c);
            if (digit < 0) {
                throw new IllegalArgumentException("not base58: " + c);
            }
            n = n.multiply(BASE).add(BigInteger.valueOf(digit));
        }
        byte[] magnitude = n.signum() == 0 ? new byte[0] : n.toByteArray();
        int sign = magnitude.length > 1 && magnitude[0] == 0 ? 1 : 0;
        int zeros = 0;
        while (zeros < text.length() && text.charAt(zeros) == '1') {
            zeros++;
        }
        byte[] bytes = new byte[zeros + magnitude.length - sign];
        System.arraycopy(magnitude, sign, bytes, zeros, magnitude.length - sign);
        return bytes;
    }

    static byte[] decode(String text, int length) {
        byte[] bytes = decode(text);
        if (bytes.length != length) {
            throw new IllegalArgumentException("expected " + length + " bytes, got " + bytes.length);
        }
        return Arrays.copyOf(bytes, length);
    }
}
