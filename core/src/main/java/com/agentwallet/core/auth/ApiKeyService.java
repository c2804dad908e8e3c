package com.agentwallet.core.auth;

import com.agentwallet.core.common.Rejection;
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
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import static java.util.Objects.requireNonNull;

/**
 * API keys: issued with a secret shown once ({@code sk_} and 48 random base62 characters), stored
 * as a SHA-256 hash, looked up by that hash and compared in constant time, revoked at once.
 * Operator tooling, not part of /v1. Live keys are kept in an {@link ApiKeyCache}, which forgets a
 * key as soon as a revocation of it is heard, and reads it again once it has been kept for
 * {@link ApiKeyCache#TRUST_FOR}, heard or not; this process's own revocations are forgotten as they
 * commit. When each key was last used is noted in memory as it authenticates, and written to the
 * books by {@link #recordUsage} a batch at a time, so that no request waits for a write.
 */
public final class ApiKeyService {
    public static final String SECRET_PREFIX = "sk_";

    private final Storage storage;
    private final IdGenerator ids;
    private final Clock clock;
    private final ApiKeyCache cache;
    private final ConcurrentMap<ApiKeyId, Instant> unwrittenUse = new ConcurrentHashMap<>();

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
            noteUse(kept.get());
            return kept;
        }
        ApiKeyCache.Lookup lookup = cache.lookup();
        Optional<ApiKey> live = storage.readOne(stores -> stores.apiKeys().findByHash(presentedHash))
                .filter(key -> MessageDigest.isEqual(key.secretHash().getBytes(StandardCharsets.US_ASCII),
                        presentedHash.getBytes(StandardCharsets.US_ASCII)))
                .filter(key -> !key.isRevoked());
        live.ifPresent(key -> cache.keep(lookup, key));
        live.ifPresent(this::noteUse);
        return live;
    }

    /**
     * Clockwork: writes when each key used since the last write was last used (a later use already
     * written stays); answers how many keys it wrote. What a failed write held is kept for the next.
     */
    public int recordUsage() {
        Map<ApiKeyId, Instant> batch = new HashMap<>(unwrittenUse);
        if (batch.isEmpty()) {
            return 0;
        }
        batch.forEach(unwrittenUse::remove);
        try {
            storage.inTransaction(stores -> {
                stores.apiKeys().recordUse(batch);
                return null;
            });
        } catch (RuntimeException e) {
            batch.forEach(this::noteUse);
            throw e;
        }
        return batch.size();
    }

    private void noteUse(ApiKey key) {
        noteUse(key.id(), clock.instant());
    }

    private void noteUse(ApiKeyId id, Instant at) {
        unwrittenUse.merge(id, at, (noted, later) -> later.isAfter(noted) ? later : noted);
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

    /**
     * Revokes the key and issues a new one of the same role, in one step: the old secret stops working
     * at once. A revoked key is refused ({@code invalid_state}): it was rotated or revoked already, and
     * a second replacement would outlive the one its rotation meant.
     */
    public Result<IssuedKey> rotate(OrgId orgId, ApiKeyId keyId) {
        record Rotated(ApiKey old, IssuedKey issued) {
        }
        Result<Rotated> rotated = storage.inTransaction(stores -> Result.found(stores.apiKeys().lock(orgId, keyId),
                "api key", keyId).flatMap(key -> {
                    if (key.isRevoked()) {
                        return Result.refused(new Rejection.InvalidState("API key " + keyId + " is revoked"));
                    }
                    stores.apiKeys().update(key.revokedAt(clock.instant()));
                    return Result.ok(new Rotated(key, newKey(stores, orgId, key.role())));
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
