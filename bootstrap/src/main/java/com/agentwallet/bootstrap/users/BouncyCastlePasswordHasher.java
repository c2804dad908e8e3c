package com.agentwallet.bootstrap.users;

import com.agentwallet.core.port.PasswordHasher;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.Semaphore;

import static java.util.Objects.requireNonNull;

/**
 * Argon2id (version 0x13) from BouncyCastle, written as the PHC string the reference implementation
 * writes: {@code $argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>}, base64 without padding. The string
 * carries its parameters and salt, so a hash made with other parameters still verifies, and the
 * parameters can change later. The defaults are RFC 9106's second recommended option: 64 MiB, 3
 * passes, 4 lanes, a 16-byte salt and a 32-byte tag. Each hash holds its memory while it runs, so at
 * most one per processor runs at once: a flood of sign-ins queues instead of exhausting the heap.
 */
public final class BouncyCastlePasswordHasher implements PasswordHasher {
    public static final int DEFAULT_MEMORY_KIB = 64 * 1024;
    public static final int DEFAULT_ITERATIONS = 3;
    public static final int DEFAULT_PARALLELISM = 4;
    private static final int SALT_BYTES = 16;
    private static final int TAG_BYTES = 32;
    /** Bounds on what a stored string may ask for: a tampered row must not cost unbounded memory or time. */
    private static final int MAX_MEMORY_KIB = 1024 * 1024;
    private static final int MAX_ITERATIONS = 64;
    private static final int MAX_PARALLELISM = 64;
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();
    private static final Base64.Decoder B64_DECODER = Base64.getDecoder();

    private final int memoryKib;
    private final int iterations;
    private final int parallelism;
    private final SecureRandom random = new SecureRandom();
    private final Semaphore running = new Semaphore(Math.max(1, Runtime.getRuntime().availableProcessors()));

    public BouncyCastlePasswordHasher() {
        this(DEFAULT_MEMORY_KIB, DEFAULT_ITERATIONS, DEFAULT_PARALLELISM);
    }

    /** Other parameters: cheaper ones let tests hash quickly. */
    public BouncyCastlePasswordHasher(int memoryKib, int iterations, int parallelism) {
        if (!withinBounds(memoryKib, iterations, parallelism)) {
            throw new IllegalArgumentException("Argon2id parameters out of bounds: m=" + memoryKib + ", t="
                    + iterations + ", p=" + parallelism);
        }
        this.memoryKib = memoryKib;
        this.iterations = iterations;
        this.parallelism = parallelism;
    }

    @Override
    public String hash(String password) {
        requireNonNull(password, "password is null");
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        byte[] tag = argon2id(password, salt, memoryKib, iterations, parallelism, TAG_BYTES);
        return "$argon2id$v=19$m=" + memoryKib + ",t=" + iterations + ",p=" + parallelism + "$" + B64.encodeToString(salt)
                + "$" + B64.encodeToString(tag);
    }

    @Override
    public boolean matches(String password, String hash) {
        if (password == null || hash == null) {
            return false;
        }
        String[] parts = hash.split("\\$", -1);
        if (parts.length != 6 || !parts[0].isEmpty() || !parts[1].equals("argon2id") || !parts[2].equals("v=19")) {
            return false;
        }
        try {
            String[] settings = parts[3].split(",", -1);
            if (settings.length != 3 || !settings[0].startsWith("m=") || !settings[1].startsWith("t=")
                    || !settings[2].startsWith("p=")) {
                return false;
            }
            int memory = Integer.parseInt(settings[0].substring(2));
            int passes = Integer.parseInt(settings[1].substring(2));
            int lanes = Integer.parseInt(settings[2].substring(2));
            byte[] salt = B64_DECODER.decode(parts[4]);
            byte[] expected = B64_DECODER.decode(parts[5]);
            if (!withinBounds(memory, passes, lanes) || salt.length < 8 || expected.length < 16 || expected.length > 64) {
                return false;
            }
            return MessageDigest.isEqual(expected, argon2id(password, salt, memory, passes, lanes, expected.length));
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }

    private byte[] argon2id(String password, byte[] salt, int memory, int passes, int lanes, int length) {
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withMemoryAsKB(memory)
                .withIterations(passes)
                .withParallelism(lanes)
                .withSalt(salt)
                .build());
        byte[] tag = new byte[length];
        running.acquireUninterruptibly();
        try {
            generator.generateBytes(password.getBytes(StandardCharsets.UTF_8), tag);
        } finally {
            running.release();
        }
        return tag;
    }

    private static boolean withinBounds(int memoryKib, int iterations, int parallelism) {
        return parallelism >= 1 && parallelism <= MAX_PARALLELISM && memoryKib >= 8 * parallelism
                && memoryKib <= MAX_MEMORY_KIB && iterations >= 1 && iterations <= MAX_ITERATIONS;
    }
}
