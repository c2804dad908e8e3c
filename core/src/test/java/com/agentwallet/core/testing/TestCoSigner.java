package com.agentwallet.core.testing;

import com.agentwallet.core.common.Actor;
import com.agentwallet.core.crypto.Base58;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.util.Arrays;
import java.util.Base64;

/** An operator's Ed25519 key pair, as a test's co-signer. */
public final class TestCoSigner {
    /** The operator credential that approves co-signatures in tests: not the one that made the payments. */
    public static final Actor APPROVER = new Actor("key_approver");

    private final KeyPair keys;

    public TestCoSigner(long seed) {
        try {
            SecureRandom random = SecureRandom.getInstance("SHA1PRNG");
            random.setSeed(seed);
            KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
            generator.initialize(255, random);
            keys = generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The base58 raw 32-byte public key, as a policy's {@code co_signer}. */
    public String publicKey() {
        byte[] encoded = keys.getPublic().getEncoded();
        return Base58.encode(Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length));
    }

    /** The base58 signature of the decoded {@code co_sign_payload}. */
    public String sign(String base64Payload) {
        try {
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(keys.getPrivate());
            signer.update(Base64.getDecoder().decode(base64Payload));
            return Base58.encode(signer.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
