package com.agentwallet.client;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Checks a delivery's {@code Service-Signature}: the lowercase hex HMAC-SHA256 of the raw body, keyed
 * with the UTF-8 bytes of the whole {@code signing_secret}. Verify the bytes as received, before any JSON
 * parsing, which would change them.
 */
public final class WebhookSignature {
    public static final String HEADER = "Service-Signature";

    private WebhookSignature() {
    }

    /** True when {@code signature} is the body's; compared in constant time, so timing reveals nothing of it. */
    public static boolean verify(byte[] rawBody, String signature, String signingSecret) {
        if (signature == null || signingSecret == null) {
            return false;
        }
        byte[] expected = sign(rawBody, signingSecret).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, signature.trim().toLowerCase(java.util.Locale.ROOT)
                .getBytes(StandardCharsets.US_ASCII));
    }

    static String sign(byte[] rawBody, String signingSecret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(signingSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(rawBody));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks HmacSHA256", e);
        }
    }
}
