package com.agentwallet.bootstrap;

import com.agentwallet.edge.session.SessionTokens;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The key session tokens are signed with: from the configuration (base64, normally from the
 * environment), else made once and kept under the data directory, readable by its owner only, so
 * tokens survive restarts.
 */
final class SessionSigningKey {
    static final String FILE_NAME = "session-signing.key";

    private SessionSigningKey() {
    }

    static byte[] load(Optional<String> configured, Path dataDirectory) {
        if (configured.isPresent()) {
            return decode(configured.get(), "api.sessionTokens.signingKey");
        }
        Path file = dataDirectory.resolve(FILE_NAME);
        try {
            if (Files.exists(file)) {
                OwnerOnly.file(file);
            } else {
                OwnerOnly.directory(dataDirectory);
                byte[] key = new byte[SessionTokens.MIN_SECRET_BYTES];
                new SecureRandom().nextBytes(key);
                OwnerOnly.writeString(file, Base64.getEncoder().encodeToString(key));
            }
            return decode(Files.readString(file).trim(), file.toString());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read or make the session signing key " + file, e);
        }
    }

    /** The retired keys that still verify the tokens they signed, each as {@link #load} takes a configured one. */
    static List<byte[]> retired(List<String> configured) {
        return configured.stream().map(key -> decode(key, "api.sessionTokens.retiredSigningKeys")).toList();
    }

    private static byte[] decode(String base64, String source) {
        byte[] key;
        try {
            key = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(source + " is not base64", e);
        }
        if (key.length < SessionTokens.MIN_SECRET_BYTES) {
            throw new IllegalStateException(source + " must hold at least " + SessionTokens.MIN_SECRET_BYTES + " bytes");
        }
        return key;
    }
}
