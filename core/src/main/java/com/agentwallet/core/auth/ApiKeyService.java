package com.agentwallet.core.auth;

import com.agentwallet.core.common.Result;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.id.ApiKeyId;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * API keys: issued with a secret shown once ({@code sk_} and 48 random base62 characters), stored
 * as a SHA-256 hash, looked up by that hash and compared in constant time, revoked at once.
 * Operator tooling, not part of /v1. Live keys are kept in an {@link ApiKeyCache}, which forgets a
 * key as soon as a revocation of it is heard; this process's own revocations are forgotten as they
 * commit.
 */
public final class ApiKeyService {
    public static final String SECRET_PREFIX = "sk_";

    private final Storage storage;
    private final IdGenerator ids;
    private final Clock clock;
    private final ApiKeyCache cache;

    public ApiKeyService(Storage storage, IdGenerator ids, Clock clock, ApiKeyCache cache) {
        this.storage = requireNonNull(storage, "storage is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.cache = requireNonNull(cache, "cache is null");
    }

    public Result<IssuedKey> issue(OrgId orgId, Role role) {
        return storage.inTransaction(stores -> Result.found(stores.organisations().find(orgId), "organisation", orgId)
                .map(org -> newKey(stores, orgId, role)));
    }

    /** The live key a presented secret belongs to; empty for an unknown, malformed or revoked one. */
    public Optional<ApiKey> authenticate(String presentedSecret) {
        if (presentedSecret == null || !presentedSecret.startsWith(SECRET_PREFIX) || presentedSecret.length() > 200) {
            return Optional.empty();
        }
        String presentedHash = hash(presentedSecret);
        Optional<ApiKey> kept = cache.find(presentedHash);
        if (kept.isPresent()) {
            return kept;
        }
        long readAt = cache.epoch();
        Optional<ApiKey> live = storage.readOne(stores -> stores.apiKeys().findByHash(presentedHash))
                .filter(key -> MessageDigest.isEqual(key.secretHash().getBytes(StandardCharsets.US_ASCII),
                        presentedHash.getBytes(StandardCharsets.US_ASCII)))
                .filter(key -> !key.isRevoked());
        live.ifPresent(key -> cache.keep(readAt, key));
        return live;
    }

    public Result<ApiKey> revoke(OrgId orgId, ApiKeyId keyId) {
        Result<ApiKey> revoked = storage.inTransaction(stores -> Result.found(stores.apiKeys().lock(orgId, keyId),
                "api key", keyId).map(key -> {
                    ApiKey ended = key.isRevoked() ? key : key.revokedAt(clock.instant());
                    stores.apiKeys().update(ended);
                    return ended;
                }));
        if (revoked.isOk()) {
            cache.changed(revoked.value().secretHash());
        }
        return revoked;
    }

    /** Revokes the key and issues a new one of the same role, in one step: the old secret stops working at once. */
    public Result<IssuedKey> rotate(OrgId orgId, ApiKeyId keyId) {
        record Rotated(ApiKey old, IssuedKey issued) {
        }
        Result<Rotated> rotated = storage.inTransaction(stores -> Result.found(stores.apiKeys().lock(orgId, keyId),
                "api key", keyId).map(key -> {
                    stores.apiKeys().update(key.isRevoked() ? key : key.revokedAt(clock.instant()));
                    return new Rotated(key, newKey(stores, orgId, key.role()));
                }));
        if (rotated.isOk()) {
            cache.changed(rotated.value().old().secretHash());
        }
        return rotated.map(Rotated::issued);
    }

    public List<ApiKey> list(OrgId orgId) {
        return storage.inTransaction(stores -> stores.apiKeys().list(orgId));
    }

    private IssuedKey newKey(Stores stores, OrgId orgId, Role role) {
        String secret = SECRET_PREFIX + ids.randomPart() + ids.randomPart();
        ApiKey key = new ApiKey(ids.next(ApiKeyId.PREFIX, ApiKeyId::new), orgId, role, hash(secret), clock.instant(),
                Optional.empty());
        stores.apiKeys().insert(key);
        return new IssuedKey(key, secret);
    }

    static String hash(String secret) {
        return Hashing.sha256Hex(secret);
    }
}
