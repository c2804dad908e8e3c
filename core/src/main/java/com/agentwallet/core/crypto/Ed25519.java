package com.agentwallet.core.crypto;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.X509EncodedKeySpec;
import java.util.Optional;

/** Ed25519 signature checks with the JDK's provider, on Solana's raw 32-byte keys and 64-byte signatures. */
public final class Ed25519 {
    public static final int PUBLIC_KEY_LENGTH = 32;
    public static final int SIGNATURE_LENGTH = 64;

    /** DER prefix of an X.509 SubjectPublicKeyInfo for Ed25519; the raw key follows it. */
    private static final byte[] X509_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};

    private Ed25519() {
    }

    /** The key, or empty when the bytes are not a valid Ed25519 public key. */
    public static Optional<PublicKey> publicKey(byte[] raw) {
        if (raw.length != PUBLIC_KEY_LENGTH) {
            return Optional.empty();
        }
        byte[] encoded = new byte[X509_PREFIX.length + PUBLIC_KEY_LENGTH];
        System.arraycopy(X509_PREFIX, 0, encoded, 0, X509_PREFIX.length);
        System.arraycopy(raw, 0, encoded, X509_PREFIX.length, PUBLIC_KEY_LENGTH);
        try {
            PublicKey key = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(encoded));
            // The key factory does not decode the point; initialising a verifier does, and refuses one off the curve.
            Signature.getInstance("Ed25519").initVerify(key);
            return Optional.of(key);
        } catch (InvalidKeySpecException | InvalidKeyException e) {
            return Optional.empty();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no Ed25519 provider", e);
        }
    }

    /** Whether a base58 text is a 32-byte Ed25519 public key. */
    public static boolean isPublicKey(String base58) {
        return Base58.decode(base58, PUBLIC_KEY_LENGTH).flatMap(Ed25519::publicKey).isPresent();
    }

    /** Whether {@code signature} (base58, 64 bytes) signs {@code message} with {@code publicKey} (base58, 32 bytes). */
    public static boolean verify(String publicKey, byte[] message, String signature) {
        Optional<PublicKey> key = Base58.decode(publicKey, PUBLIC_KEY_LENGTH).flatMap(Ed25519::publicKey);
        Optional<byte[]> signatureBytes = Base58.decode(signature, SIGNATURE_LENGTH);
        if (key.isEmpty() || signatureBytes.isEmpty()) {
            return false;
        }
        try {
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(key.get());
            verifier.update(message);
            return verifier.verify(signatureBytes.get());
        } catch (SignatureException e) {
            return false;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 verification is unavailable", e);
        }
    }
}
