package com.agentwallet.bootstrap.api;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Prints, when a test JVM's tests are done, how many answers {@link OpenApiContract} checked, so a
 * build log shows that the end-to-end tests really held the server to its document. Registered in
 * {@code META-INF/services}, which JUnit reads in every test JVM.
 */
public final class OpenApiReport implements LauncherSessionListener {
    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (OpenApiContract.SERVED.validatedCount() > 0) {
            System.out.println(OpenApiContract.SERVED.report());
        }
    }
}
