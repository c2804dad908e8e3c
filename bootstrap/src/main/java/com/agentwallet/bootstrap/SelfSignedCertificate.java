package com.agentwallet.bootstrap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The embedded default's certificate: a PKCS12 key store for {@code localhost} made with the JDK's
 * own {@code keytool} on first start, and kept (readable by its owner only), so later starts present
 * the same certificate. The delivery benchmark's receiver uses one too.
 */
public final class SelfSignedCertificate {
    private static final Logger LOG = LoggerFactory.getLogger(SelfSignedCertificate.class);

    private SelfSignedCertificate() {
    }

    /**
     * Makes the key store unless it is there and {@code password} opens it: one that it does not open
     * was made by an older version under another password (the one its shipped configuration held),
     * and is made again.
     */
    public static void createIfAbsent(Path keyStore, String password) {
        if (Files.exists(keyStore)) {
            if (opens(keyStore, password)) {
                OwnerOnly.file(keyStore);
                return;
            }
            LOG.info("Making the self-signed certificate {} again: its password is not the configured one", keyStore);
        }
        try {
            Files.deleteIfExists(keyStore);
            OwnerOnly.directory(keyStore.toAbsolutePath().getParent());
            Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
            Process process = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias", "agent-wallet",
                    "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA", "-validity", "825",
                    "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1,ip:::1",
                    "-storetype", "PKCS12", "-keystore", keyStore.toString(), "-storepass", password, "-noprompt"))
                    .redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool could not make a certificate at " + keyStore + ": " + output);
            }
            OwnerOnly.file(keyStore);
        } catch (IOException e) {
            throw new IllegalStateException("cannot make a certificate at " + keyStore, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making a certificate", e);
        }
    }

    private static boolean opens(Path keyStore, String password) {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore.getInstance("PKCS12").load(in, password.toCharArray());
            return true;
        } catch (IOException | GeneralSecurityException wrongPasswordOrUnreadable) {
            return false;
        }
    }
}
