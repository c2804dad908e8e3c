package com.agentwallet.client;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import java.util.Base64;

/**
 * An operator's co-signing key, signing a payment's {@code co_sign_payload} with the JDK's Ed25519 (no
 * other crypto library). The key never leaves this process: only the signature is sent.
 */
public final class CoSigner {
    private final PrivateKey key;
    private final String publicKey;

    private CoSigner(byte[] seed, String publicKey) {
        try {
            this.key = KeyFactory.getInstance("Ed25519")
                    .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, seed));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks Ed25519", e);
        }
        this.publicKey = publicKey;
    }

    /** From a Solana secret key in base58: 64 bytes, the 32-byte seed then the 32-byte public key. */
    public static CoSigner fromSolanaSecretKey(String base58SecretKey) {
        byte[] secret = Base58.decode(base58SecretKey, 64);
        return new CoSigner(Arrays.copyOf(secret, 32), Base58.encode(Arrays.copyOfRange(secret, 32, 64)));
    }

    /** The base58 public key, the value of a policy's {@code co_signer}. */
    public String publicKey() {
        return publicKey;
    }

    /** The base58 signature of the decoded payload, as {@link Payments#coSign} sends it. */
    public String sign(String coSignPayloadBase64) {
        try {
            Signature signature = Signature.getInstance("Ed25519");
            signature.initSign(key);
            signature.update(Base64.getDecoder().decode(coSignPayloadBase64));
            return Base58.encode(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 signing failed", e);
        }
    }
}
