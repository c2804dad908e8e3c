package com.agentwallet.bootstrap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The embedded default's certificate: a PKCS12 key store for {@code localhost} made with the JDK's
 * own {@code keytool} on first start, and kept, so later starts present the same certificate. The
 * delivery benchmark's receiver uses one too.
 */
public final class SelfSignedCertificate {
    private SelfSignedCertificate() {
    }

    public static void createIfAbsent(Path keyStore, String password) {
        if (Files.exists(keyStore)) {
            return;
        }
        try {
            Files.createDirectories(keyStore.toAbsolutePath().getParent());
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
        } catch (IOException e) {
            throw new IllegalStateException("cannot make a certificate at " + keyStore, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making a certificate", e);
        }
    }
}
