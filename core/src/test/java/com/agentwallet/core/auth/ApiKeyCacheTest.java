package com.agentwallet.core.auth;

import com.agentwallet.core.id.ApiKeyId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.testing.MutableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ApiKeyCacheTest {
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    private final MutableClock clock = new MutableClock(NOW);
    private final ApiKeyCache cache = new ApiKeyCache(clock, ApiKeyCache.TRUST_FOR);

    @BeforeEach
    void follow() {
        cache.following(true);
    }

    @Test
    void aLiveKeyLookedUpInTheCurrentEpochIsKeptUntilItChanges() {
        ApiKey key = key(1);

        cache.keep(cache.lookup(), key);

        assertThat(cache.find(key.secretHash())).contains(key);
        cache.changed(key.secretHash());
        assertThat(cache.find(key.secretHash())).isEmpty();
    }

    @Test
    void aKeptKeyIsTrustedForOneSecondFromWhenItsLookupBeganThenLookedUpAgain() {
        ApiKey key = key(1);
        ApiKeyCache.Lookup lookup = cache.lookup();
        clock.advance(Duration.ofMillis(300));

        cache.keep(lookup, key);

        clock.advance(Duration.ofMillis(699));
        assertThat(cache.find(key.secretHash())).as("999 ms after the lookup began").contains(key);
        clock.advance(Duration.ofMillis(1));
        assertThat(cache.find(key.secretHash())).as("1 s after the lookup began").isEmpty();
        cache.keep(cache.lookup(), key);
        assertThat(cache.find(key.secretHash())).as("looked up again").contains(key);
    }

    @Test
    void aLookupThatRacedAnyChangeIsNotKept() {
        ApiKey key = key(1);
        ApiKeyCache.Lookup readAt = cache.lookup();

        cache.changed(key(2).secretHash());
        cache.keep(readAt, key);

        assertThat(cache.find(key.secretHash())).isEmpty();
    }

    @Test
    void nothingIsKeptWhileChangesAreNotFollowedAndAllIsForgottenWhenFollowingStartsOrStops() {
        ApiKey kept = key(1);
        cache.keep(cache.lookup(), kept);

        cache.following(false);
        cache.keep(cache.lookup(), key(2));

        assertThat(cache.find(kept.secretHash())).isEmpty();
        assertThat(cache.find(key(2).secretHash())).isEmpty();
        cache.keep(cache.lookup(), kept);
        cache.following(true);
        assertThat(cache.find(kept.secretHash())).isEmpty();
    }

    @Test
    void aRevokedKeyIsNotKept() {
        ApiKey revoked = key(1).revokedAt(NOW);

        cache.keep(cache.lookup(), revoked);

        assertThat(cache.find(revoked.secretHash())).isEmpty();
    }

    @Test
    void whenFullEverythingIsForgottenAndTheNewKeyKept() {
        for (int i = 0; i < ApiKeyCache.MAX_KEYS; i++) {
            cache.keep(cache.lookup(), key(i));
        }
        assertThat(cache.find(key(0).secretHash())).isPresent();

        cache.keep(cache.lookup(), key(ApiKeyCache.MAX_KEYS));

        assertThat(cache.find(key(0).secretHash())).isEmpty();
        assertThat(cache.find(key(ApiKeyCache.MAX_KEYS).secretHash())).map(ApiKey::id)
                .isEqualTo(Optional.of(key(ApiKeyCache.MAX_KEYS).id()));
    }

    private static ApiKey key(int n) {
        return new ApiKey(new ApiKeyId("key_" + String.format("%024d", n)), new OrgId("org_" + "A".repeat(24)),
                Role.ADMIN, ApiKeyService.hash("sk_" + n), NOW, Optional.empty());
    }
}
