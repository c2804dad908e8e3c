package com.agentwallet.core.crypto;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * An Ed25519 key pair from its 32-byte seed (RFC 8032's private key), the public key computed by the
 * JDK's provider. {@link #toString()} never shows the seed.
 */
public final class Ed25519KeyPair {
    public static final int SEED_LENGTH = 32;
    /** The X.509 encoding of a public key ends with the raw 32 bytes. */
    private static final int X509_LENGTH = 44;

    private final byte[] seed;
    private final byte[] publicKey;

    private Ed25519KeyPair(byte[] seed, byte[] publicKey) {
        this.seed = seed;
        this.publicKey = publicKey;
    }

    public static Ed25519KeyPair fromSeed(byte[] seed) {
        if (seed.length != SEED_LENGTH) {
            throw new IllegalArgumentException("an Ed25519 seed has 32 bytes, not " + seed.length);
        }
        byte[] copy = seed.clone();
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
            // The generator draws the private key as 32 random bytes: hand it the seed.
            generator.initialize(255, new SecureRandom() {
                @Override
                public void nextBytes(byte[] bytes) {
                    System.arraycopy(copy, 0, bytes, 0, bytes.length);
                }
            });
            byte[] encoded = generator.generateKeyPair().getPublic().getEncoded();
            if (encoded.length != X509_LENGTH) {
                throw new IllegalStateException("an unexpected Ed25519 public key encoding of " + encoded.length + " bytes");
            }
            return new Ed25519KeyPair(copy, Arrays.copyOfRange(encoded, X509_LENGTH - Ed25519.PUBLIC_KEY_LENGTH,
                    X509_LENGTH));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no Ed25519 provider", e);
        }
    }

    /**
     * The key pair whose seed is HMAC-SHA256({@code root}, {@code label}): one key per label, held
     * by whoever holds the root and stored nowhere.
     */
    public static Ed25519KeyPair derived(byte[] root, String label) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(root, "HmacSHA256"));
            return fromSeed(mac.doFinal(label.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    public byte[] seed() {
        return seed.clone();
    }

    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** The 64-byte secret key as Solana and NaCl write it: the seed, then the public key. */
    public byte[] secretKey() {
        byte[] secret = Arrays.copyOf(seed, SEED_LENGTH + Ed25519.PUBLIC_KEY_LENGTH);
        System.arraycopy(publicKey, 0, secret, SEED_LENGTH, Ed25519.PUBLIC_KEY_LENGTH);
        return secret;
    }

    @Override
    public String toString() {
        return "Ed25519KeyPair[public " + Base58.encode(publicKey) + "]";
    }
}
