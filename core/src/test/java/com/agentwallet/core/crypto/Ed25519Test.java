package com.agentwallet.core.crypto;

import com.agentwallet.core.testing.TestCoSigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

class Ed25519Test {
    private static final TestCoSigner SIGNER = new TestCoSigner(7);
    private static final TestCoSigner OTHER_SIGNER = new TestCoSigner(8);
    private static final byte[] MESSAGE = "pay 12.50 USDC to 7EcDhSYG".getBytes(StandardCharsets.UTF_8);

    /** 32 bytes encoding y = 2, which is not the y of any point of the curve. */
    private static final String OFF_CURVE_KEY = Base58.encode(littleEndian(2));

    @Test
    void acceptsARealSignature() {
        assertThat(Ed25519.verify(SIGNER.publicKey(), MESSAGE, sign(SIGNER, MESSAGE))).isTrue();
    }

    @Test
    void refusesASignatureOfAnotherMessage() {
        byte[] tampered = MESSAGE.clone();
        tampered[0] ^= 1;
        assertThat(Ed25519.verify(SIGNER.publicKey(), tampered, sign(SIGNER, MESSAGE))).isFalse();
        assertThat(Ed25519.verify(SIGNER.publicKey(), new byte[0], sign(SIGNER, MESSAGE))).isFalse();
    }

    @ParameterizedTest(name = "bit flipped in byte {0}")
    @ValueSource(ints = {0, 1, 31, 32, 33, 62, 63})
    void refusesATamperedSignature(int index) {
        byte[] signature = Base58.decode(sign(SIGNER, MESSAGE)).orElseThrow();
        signature[index] ^= 0x01;
        assertThat(Ed25519.verify(SIGNER.publicKey(), MESSAGE, Base58.encode(signature))).isFalse();
    }

    @Test
    void refusesASignatureByAnotherKey() {
        assertThat(Ed25519.verify(OTHER_SIGNER.publicKey(), MESSAGE, sign(SIGNER, MESSAGE))).isFalse();
        assertThat(Ed25519.verify(SIGNER.publicKey(), MESSAGE, sign(OTHER_SIGNER, MESSAGE))).isFalse();
    }

    @ParameterizedTest(name = "key \"{0}\"")
    @ValueSource(strings = {"", "0OIl", "not base58!", "1111111111111111111111111111111"})
    void refusesGarbageKeys(String key) {
        assertThat(Ed25519.verify(key, MESSAGE, sign(SIGNER, MESSAGE))).isFalse();
    }

    @Test
    void refusesGarbageAndWrongLengthSignatures() {
        byte[] signature = Base58.decode(sign(SIGNER, MESSAGE)).orElseThrow();
        byte[] shorter = Arrays.copyOf(signature, 63);
        byte[] longer = Arrays.copyOf(signature, 65);
        assertThat(Ed25519.verify(SIGNER.publicKey(), MESSAGE, "")).isFalse();
        assertThat(Ed25519.verify(SIGNER.publicKey(), MESSAGE, "0OIl")).isFalse();
        assertThat(Ed25519.verify(SIGNER.publicKey(), MESSAGE, Base58.encode(shorter))).isFalse();
        assertThat(Ed25519.verify(SIGNER.publicKey(), MESSAGE, Base58.encode(longer))).isFalse();
        assertThat(Ed25519.verify(SIGNER.publicKey(), MESSAGE, Base58.encode(new byte[64]))).isFalse();
    }

    /** A well-formed 32-byte text that is no curve point is a bad key: the answer is "no", not a crash. */
    @Test
    void refusesAKeyThatIsNotACurvePointWithoutThrowing() {
        assertThat(Ed25519.verify(OFF_CURVE_KEY, MESSAGE, sign(SIGNER, MESSAGE))).isFalse();
    }

    @Test
    void recognisesPublicKeys() {
        assertThat(Ed25519.isPublicKey(SIGNER.publicKey())).isTrue();
        assertThat(Ed25519.isPublicKey(OTHER_SIGNER.publicKey())).isTrue();
    }

    @ParameterizedTest(name = "\"{0}\" is no public key")
    @ValueSource(strings = {"", "0OIl", "not base58!", "1111111111111111111111111111111", "111111111111111111111111111111111",
            "JxF12TrwUP45BMd"})
    void refusesTextsThatAreNot32Bytes(String text) {
        assertThat(Ed25519.isPublicKey(text)).isFalse();
    }

    @Test
    void refusesA32ByteTextThatIsNotACurvePoint() {
        assertThat(Ed25519.isPublicKey(OFF_CURVE_KEY)).isFalse();
    }

    private static String sign(TestCoSigner signer, byte[] message) {
        return signer.sign(Base64.getEncoder().encodeToString(message));
    }

    private static byte[] littleEndian(int value) {
        byte[] bytes = new byte[32];
        bytes[0] = (byte) value;
        return bytes;
    }
}
