package com.agentwallet.bootstrap;

import org.apache.commons.text.StringSubstitutor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Where the configuration file's secrets come from, so that none is written in it:
 * {@code ${NAME}} is the environment variable {@code NAME} ({@code ${NAME:-default}} when it is
 * unset; one unset without a default is left as written, as in the shipped files' comments), and
 * {@code ${generated-secret:path}} is the secret kept in the file {@code path}, made at random on
 * first use and readable by its owner only (the embedded default's key store password).
 */
final class ConfigurationSecrets extends StringSubstitutor {
    static final String GENERATED = "generated-secret:";
    private static final int SECRET_BYTES = 32;

    ConfigurationSecrets() {
        super(ConfigurationSecrets::lookup);
        setEnableUndefinedVariableException(false);
    }

    private static String lookup(String name) {
        if (name.startsWith(GENERATED)) {
            return generated(Path.of(name.substring(GENERATED.length())));
        }
        return System.getenv(name);
    }

    /** The secret in {@code file}, made now unless an earlier start made it. */
    static String generated(Path file) {
        try {
            if (Files.exists(file)) {
                OwnerOnly.file(file);
            } else {
                OwnerOnly.directory(file.toAbsolutePath().getParent());
                byte[] secret = new byte[SECRET_BYTES];
                new SecureRandom().nextBytes(secret);
                OwnerOnly.writeString(file, Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
            }
            return Files.readString(file).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or make the secret " + file, e);
        }
    }
}
