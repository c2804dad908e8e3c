package com.agentwallet.bootstrap.api;

import com.agentwallet.bootstrap.CoreModule;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.function.Consumer;

import static com.agentwallet.bootstrap.api.ApiAssertions.assertError;
import static com.agentwallet.bootstrap.api.ApiFixtures.randomAddress;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rotating the session signing key over restarts of one server: with the old key retired, the
 * tokens it signed still pay and new ones are signed with the new key; once the retired key is
 * dropped, its tokens are refused and the new ones still pay.
 */
class SessionKeyRotationTest {
    private static final String SIGNING_KEY = "api.sessionTokens.signingKey";
    private static final String RETIRED_KEYS = "api.sessionTokens.retiredSigningKeys";

    private final Path data = ApiServer.newDataDirectory();

    @Test
    void aRetiredKeyVerifiesTheTokensItSignedUntilItIsDropped() {
        String oldKey = randomKey();
        String newKey = randomKey();
        ApiFixtures.Wallet[] wallets = new ApiFixtures.Wallet[2];

        run(fx -> {
            wallets[0] = fx.fundedWallet("100.00");
            paid(fx.pay(wallets[0], randomAddress(), "1.00"));
        }, ConfigOverride.config(SIGNING_KEY, oldKey));

        run(fx -> {
            paid(fx.pay(wallets[0], randomAddress(), "1.00"));
            wallets[1] = fx.fundedWallet("100.00");
            paid(fx.pay(wallets[1], randomAddress(), "1.00"));
        }, ConfigOverride.config(SIGNING_KEY, newKey), ConfigOverride.config(RETIRED_KEYS, oldKey));

        run(fx -> {
            assertError(fx.pay(wallets[0], randomAddress(), "1.00"), 401, "authentication_failed");
            paid(fx.pay(wallets[1], randomAddress(), "1.00"));
        }, ConfigOverride.config(SIGNING_KEY, newKey));

        run(fx -> assertError(fx.pay(wallets[1], randomAddress(), "1.00"), 401, "authentication_failed"),
                ConfigOverride.config(SIGNING_KEY, oldKey));
    }

    private void run(Consumer<ApiFixtures> steps, ConfigOverride... overrides) {
        ApiServer server = ApiServer.start(CoreModule.SYSTEM_CLOCK, data, overrides);
        try {
            steps.accept(new ApiFixtures(server));
        } finally {
            server.stop();
        }
    }

    private static void paid(ApiResponse answer) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.text("status")).as(answer.toString()).isEqualTo("confirmed");
    }

    private static String randomKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }
}
