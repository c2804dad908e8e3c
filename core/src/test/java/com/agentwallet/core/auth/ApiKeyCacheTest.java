package com.agentwallet.core.auth;

import com.agentwallet.core.id.ApiKeyId;
import com.agentwallet.core.id.OrgId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ApiKeyCacheTest {
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    private final ApiKeyCache cache = new ApiKeyCache();

    @BeforeEach
    void follow() {
        cache.following(true);
    }

    @Test
    void aLiveKeyLookedUpInTheCurrentEpochIsKeptUntilItChanges() {
        ApiKey key = key(1);

        cache.keep(cache.epoch(), key);

        assertThat(cache.find(key.secretHash())).contains(key);
        cache.changed(key.secretHash());
        assertThat(cache.find(key.secretHash())).isEmpty();
    }

    @Test
    void aLookupThatRacedAnyChangeIsNotKept() {
        ApiKey key = key(1);
        long readAt = cache.epoch();

        cache.changed(key(2).secretHash());
        cache.keep(readAt, key);

        assertThat(cache.find(key.secretHash())).isEmpty();
    }

    @Test
    void nothingIsKeptWhileChangesAreNotFollowedAndAllIsForgottenWhenFollowingStartsOrStops() {
        ApiKey kept = key(1);
        cache.keep(cache.epoch(), kept);

        cache.following(false);
        cache.keep(cache.epoch(), key(2));

        assertThat(cache.find(kept.secretHash())).isEmpty();
        assertThat(cache.find(key(2).secretHash())).isEmpty();
        cache.keep(cache.epoch(), kept);
        cache.following(true);
        assertThat(cache.find(kept.secretHash())).isEmpty();
    }

    @Test
    void aRevokedKeyIsNotKept() {
        ApiKey revoked = key(1).revokedAt(NOW);

        cache.keep(cache.epoch(), revoked);

        assertThat(cache.find(revoked.secretHash())).isEmpty();
    }

    @Test
    void whenFullEverythingIsForgottenAndTheNewKeyKept() {
        for (int i = 0; i < ApiKeyCache.MAX_KEYS; i++) {
            cache.keep(cache.epoch(), key(i));
        }
        assertThat(cache.find(key(0).secretHash())).isPresent();

        cache.keep(cache.epoch(), key(ApiKeyCache.MAX_KEYS));

        assertThat(cache.find(key(0).secretHash())).isEmpty();
        assertThat(cache.find(key(ApiKeyCache.MAX_KEYS).secretHash())).map(ApiKey::id)
                .isEqualTo(Optional.of(key(ApiKeyCache.MAX_KEYS).id()));
    }

    private static ApiKey key(int n) {
        return new ApiKey(new ApiKeyId("key_" + String.format("%024d", n)), new OrgId("org_" + "A".repeat(24)),
                Role.ADMIN, ApiKeyService.hash("sk_" + n), NOW, Optional.empty());
    }
}
