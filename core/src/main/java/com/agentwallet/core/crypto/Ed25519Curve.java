package com.agentwallet.core.crypto;

import java.math.BigInteger;

/**
 * Whether 32 bytes are the compressed form of a point on the ed25519 curve, decided as Solana does
 * (curve25519-dalek's decompression): the y coordinate is the little-endian number with the top bit
 * cleared, and the point exists when (y² − 1) / (d·y² + 1) is a square modulo p = 2²⁵⁵ − 19.
 */
public final class Ed25519Curve {
    private static final BigInteger P = BigInteger.TWO.pow(255).subtract(BigInteger.valueOf(19));
    private static final BigInteger D = BigInteger.valueOf(-121665)
            .multiply(BigInteger.valueOf(121666).modInverse(P)).mod(P);
    private static final BigInteger LEGENDRE_EXPONENT = P.subtract(BigInteger.ONE).shiftRight(1);

    private Ed25519Curve() {
    }

    public static boolean isOnCurve(byte[] compressed) {
        if (compressed.length != 32) {
            throw new IllegalArgumentException("a compressed point has 32 bytes, not " + compressed.length);
        }
        byte[] bigEndian = new byte[32];
        for (int i = 0; i < 32; i++) {
            bigEndian[i] = compressed[31 - i];
        }
        bigEndian[0] &= 0x7f;
        BigInteger y = new BigInteger(1, bigEndian).mod(P);
        BigInteger ySquared = y.multiply(y).mod(P);
        BigInteger u = ySquared.subtract(BigInteger.ONE).mod(P);
        BigInteger v = D.multiply(ySquared).add(BigInteger.ONE).mod(P);
        if (u.signum() == 0) {
            return true;
        }
        if (v.signum() == 0) {
            return false;
        }
        BigInteger ratio = u.multiply(v.modPow(P.subtract(BigInteger.TWO), P)).mod(P);
        return ratio.modPow(LEGENDRE_EXPONENT, P).equals(BigInteger.ONE);
    }
}
