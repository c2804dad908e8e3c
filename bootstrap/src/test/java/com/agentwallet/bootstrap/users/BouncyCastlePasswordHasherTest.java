package com.agentwallet.bootstrap.users;

import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BouncyCastlePasswordHasherTest {
    /** The reference implementation's strings for the password "password" and the salt "somesalt". */
    private static final String REFERENCE_64_MIB =
            "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";
    private static final String REFERENCE_256_KIB_TWO_LANES =
            "$argon2id$v=19$m=256,t=2,p=2$c29tZXNhbHQ$bQk8UB/VmZZF4Oo79iDXuL5/0ttZwg2f/5U52iv1cDc";

    private final BouncyCastlePasswordHasher cheap = new BouncyCastlePasswordHasher(256, 1, 2);

    @Test
    void theLibraryComputesRfc9106sArgon2idTestVector() {
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13).withMemoryAsKB(32).withIterations(3)
                .withParallelism(4).withSalt(filled(16, 0x02)).withSecret(filled(8, 0x03))
                .withAdditional(filled(12, 0x04)).build());
        byte[] tag = new byte[32];
        generator.generateBytes(filled(32, 0x01), tag);

        assertThat(HexFormat.of().formatHex(tag))
                .isEqualTo("0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659");
    }

    @Test
    void theReferenceImplementationsStringsVerify() {
        assertThat(cheap.matches("password", REFERENCE_64_MIB)).isTrue();
        assertThat(cheap.matches("password", REFERENCE_256_KIB_TWO_LANES)).isTrue();
        assertThat(cheap.matches("Password", REFERENCE_256_KIB_TWO_LANES)).isFalse();
    }

    @Test
    void theDefaultsAreRfc9106sSecondRecommendedOption() {
        String hash = new BouncyCastlePasswordHasher().hash("correct horse battery");

        assertThat(hash).matches("\\$argon2id\\$v=19\\$m=65536,t=3,p=4\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}");
        assertThat(cheap.matches("correct horse battery", hash)).isTrue();
    }

    @Test
    void aHashVerifiesItsPasswordOnlyAndIsSaltedAfresh() {
        String hash = cheap.hash("correct horse battery");

        assertThat(hash).startsWith("$argon2id$v=19$m=256,t=1,p=2$");
        assertThat(cheap.matches("correct horse battery", hash)).isTrue();
        assertThat(cheap.matches("correct horse batterY", hash)).isFalse();
        assertThat(cheap.matches(null, hash)).isFalse();
        assertThat(cheap.hash("correct horse battery")).isNotEqualTo(hash);
    }

    @Test
    void aTamperedOrMalformedHashMatchesNothing() {
        String hash = cheap.hash("correct horse battery");
        String[] parts = hash.split("\\$");
        char last = parts[5].charAt(0);
        String otherTag = hash.substring(0, hash.lastIndexOf('$') + 1) + (last == 'A' ? 'B' : 'A') + parts[5].substring(1);

        for (String tampered : new String[] {otherTag, hash.replace("t=1", "t=2"), hash.replace("argon2id", "argon2i"),
                hash.replace("v=19", "v=16"), hash.replace("m=256", "m=99999999"), hash + "$", "", "plain",
                "$argon2id$v=19$m=256,t=1,p=2$!!$!!", null}) {
            assertThat(cheap.matches("correct horse battery", tampered)).as(tampered).isFalse();
        }
    }

    @Test
    void parametersOutOfBoundsAreRefused() {
        assertThatThrownBy(() -> new BouncyCastlePasswordHasher(4, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BouncyCastlePasswordHasher(256, 0, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] filled(int length, int value) {
        byte[] bytes = new byte[length];
        java.util.Arrays.fill(bytes, (byte) value);
        return bytes;
    }
}
