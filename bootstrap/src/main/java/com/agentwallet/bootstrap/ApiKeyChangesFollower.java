package com.agentwallet.bootstrap;

import com.agentwallet.adapters.persistence.ApiKeyChanges;
import com.agentwallet.adapters.persistence.Persistence;
import com.agentwallet.core.auth.ApiKeyCache;
import com.google.inject.Inject;
import io.dropwizard.lifecycle.Managed;

import static java.util.Objects.requireNonNull;

/** While the server runs, its cache of API keys follows the changes any process commits to them. */
final class ApiKeyChangesFollower implements Managed {
    private final Persistence persistence;
    private final ApiKeyCache cache;
    private ApiKeyChanges changes;

    @Inject
    ApiKeyChangesFollower(Persistence persistence, ApiKeyCache cache) {
        this.persistence = requireNonNull(persistence, "persistence is null");
        this.cache = requireNonNull(cache, "cache is null");
    }

    @Override
    public void start() {
        changes = ApiKeyChanges.follow(persistence.dataSource(), cache);
    }

    @Override
    public void stop() {
        changes.close();
    }
}
