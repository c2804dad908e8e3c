package com.agentwallet.adapters.dashboard;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/** CSRF tokens of forms: random, and compared in constant time. */
final class Csrf {
    private static final SecureRandom RANDOM = new SecureRandom();

    private Csrf() {
    }

    static String newToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Whether the form sent the token expected; a missing or empty one never matches. */
    static boolean matches(String expected, String sent) {
        if (expected == null || sent == null || expected.isEmpty()) {
            return false;
        }
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), sent.getBytes(StandardCharsets.UTF_8));
    }
}
