package com.agentwallet.core.crypto;

import com.agentwallet.core.ledger.solana.SolanaKeypair;
import org.junit.jupiter.api.Test;

import java.security.KeyFactory;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** RFC 8032's first Ed25519 test vector, and Solana's secret-key text forms. */
class Ed25519KeyPairTest {
    private static final byte[] SEED = HexFormat.of()
            .parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
    private static final byte[] PUBLIC = HexFormat.of()
            .parseHex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");

    @Test
    void thePublicKeyOfASeedIsRfc8032s() throws Exception {
        Ed25519KeyPair keyPair = Ed25519KeyPair.fromSeed(SEED);

        assertThat(keyPair.publicKey()).isEqualTo(PUBLIC);
        assertThat(keyPair.secretKey()).startsWith(SEED).endsWith(PUBLIC);
        assertThat(keyPair.toString()).contains(Base58.encode(PUBLIC)).doesNotContain(Base58.encode(SEED));
        Signature signer = Signature.getInstance("Ed25519");
        signer.initSign(KeyFactory.getInstance("Ed25519").generatePrivate(
                new EdECPrivateKeySpec(NamedParameterSpec.ED25519, SEED)));
        signer.update(new byte[]{1, 2, 3});
        assertThat(Ed25519.verify(Base58.encode(PUBLIC), new byte[]{1, 2, 3}, Base58.encode(signer.sign()))).isTrue();
        assertThatThrownBy(() -> Ed25519KeyPair.fromSeed(new byte[31])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSolanaSecretKeyIsReadAsJsonOrBase58AndOnlyWhenItsHalvesMatch() {
        byte[] secret = Ed25519KeyPair.fromSeed(SEED).secretKey();
        String json = IntStream.range(0, secret.length).mapToObj(i -> Integer.toString(secret[i] & 0xff))
                .collect(Collectors.joining(",", "[", "]"));

        assertThat(SolanaKeypair.parse(json).orElseThrow().publicKey()).isEqualTo(PUBLIC);
        assertThat(SolanaKeypair.parse(" " + Base58.encode(secret) + "\n").orElseThrow().publicKey()).isEqualTo(PUBLIC);
        byte[] mismatched = secret.clone();
        mismatched[63] ^= 1;
        assertThat(SolanaKeypair.parse(Base58.encode(mismatched))).isEmpty();
        assertThat(SolanaKeypair.parse(Base58.encode(Arrays.copyOf(secret, 32)))).isEmpty();
        assertThat(SolanaKeypair.parse("[256" + ",1".repeat(63) + "]")).isEmpty();
    }
}
