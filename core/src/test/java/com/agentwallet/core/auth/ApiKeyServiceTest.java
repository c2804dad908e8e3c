package com.agentwallet.core.auth;

import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.testing.CoreFixture;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ApiKeyServiceTest {
    private final CoreFixture core = new CoreFixture();
    private final ApiKeyCache cache = following(new ApiKeyCache(core.clock, ApiKeyCache.TRUST_FOR));
    private final ApiKeyService keys = new ApiKeyService(core.storage, core.ids, core.clock, cache);
    private final OrgId org = core.organisations.create("Acme").id();

    @Test
    void anIssuedSecretAuthenticatesItsKeyAndOnlyItsHashIsStored() {
        IssuedKey issued = keys.issue(org, Role.OPERATOR).value();

        assertThat(issued.secret()).matches("sk_[0-9A-Za-z]{48}");
        assertThat(keys.authenticate(issued.secret())).contains(issued.key());
        assertThat(issued.key().secretHash()).isNotEqualTo(issued.secret()).doesNotContain(issued.secret().substring(3));
        assertThat(issued.toString()).doesNotContain(issued.secret());
    }

    @Test
    void unknownMalformedAndRevokedSecretsAuthenticateNothing() {
        IssuedKey issued = keys.issue(org, Role.ADMIN).value();
        String unknown = "sk_" + "0".repeat(48);

        keys.revoke(org, issued.key().id()).value();

        assertThat(keys.authenticate(issued.secret())).isEmpty();
        assertThat(keys.authenticate(unknown)).isEmpty();
        assertThat(keys.authenticate("Bearer " + issued.secret())).isEmpty();
        assertThat(keys.authenticate(null)).isEmpty();
    }

    @Test
    void rotationInvalidatesTheOldSecretAtOnceAndKeepsTheRole() {
        IssuedKey old = keys.issue(org, Role.VIEWER).value();

        IssuedKey rotated = keys.rotate(org, old.key().id()).value();

        assertThat(keys.authenticate(old.secret())).isEmpty();
        assertThat(keys.authenticate(rotated.secret())).contains(rotated.key());
        assertThat(rotated.key().role()).isEqualTo(Role.VIEWER);
        assertThat(keys.list(org)).hasSize(2).filteredOn(ApiKey::isRevoked).hasSize(1);
    }

    @Test
    void aRevokedKeyCannotBeRotatedIntoASecondReplacement() {
        IssuedKey old = keys.issue(org, Role.ADMIN).value();
        keys.rotate(org, old.key().id()).value();

        assertThat(keys.rotate(org, old.key().id()).rejection()).isInstanceOf(Rejection.InvalidState.class);
        assertThat(keys.list(org)).hasSize(2);
    }

    @Test
    void theLastUseOfEachKeyIsWrittenByTheNextRecordingAndALaterUseWins() {
        IssuedKey used = keys.issue(org, Role.ADMIN).value();
        IssuedKey idle = keys.issue(org, Role.VIEWER).value();
        keys.authenticate(used.secret());
        core.clock.advance(Duration.ofMinutes(3));
        Instant last = core.clock.instant();
        keys.authenticate(used.secret());

        int written = keys.recordUsage();
        int writtenAgain = keys.recordUsage();

        assertThat(List.of(written, writtenAgain)).containsExactly(1, 0);
        assertThat(keys.list(org)).filteredOn(key -> key.id().equals(used.key().id()))
                .singleElement().extracting(ApiKey::lastUsedAt).isEqualTo(Optional.of(last));
        assertThat(keys.list(org)).filteredOn(key -> key.id().equals(idle.key().id()))
                .singleElement().extracting(ApiKey::lastUsedAt).isEqualTo(Optional.empty());
    }

    @Test
    void aRevocationKeepsWhenTheKeyWasLastUsed() {
        IssuedKey issued = keys.issue(org, Role.ADMIN).value();
        keys.authenticate(issued.secret());
        keys.recordUsage();

        keys.revoke(org, issued.key().id()).value();

        assertThat(keys.list(org).get(0).lastUsedAt()).contains(core.clock.instant());
        assertThat(keys.list(org).get(0).isRevoked()).isTrue();
    }

    @Test
    void aKeptKeyAuthenticatesWithoutTheBooksUntilItsChangeIsHeard() {
        IssuedKey issued = keys.issue(org, Role.ADMIN).value();
        assertThat(keys.authenticate(issued.secret())).contains(issued.key());

        revokeBehindTheServicesBack(issued.key());

        assertThat(keys.authenticate(issued.secret())).contains(issued.key());
        cache.changed(issued.key().secretHash());
        assertThat(keys.authenticate(issued.secret())).isEmpty();
    }

    @Test
    void aRevocationThatIsNeverHeardIsRefusedOneSecondAfterTheKeyWasLastReadFromTheBooks() {
        IssuedKey issued = keys.issue(org, Role.ADMIN).value();
        assertThat(keys.authenticate(issued.secret())).contains(issued.key());

        revokeBehindTheServicesBack(issued.key());

        core.clock.advance(ApiKeyCache.TRUST_FOR.minusMillis(1));
        assertThat(keys.authenticate(issued.secret())).as("still trusted, the revocation unheard").isPresent();
        core.clock.advance(Duration.ofMillis(1));
        assertThat(keys.authenticate(issued.secret())).as("read again from the books").isEmpty();
    }

    @Test
    void withoutFollowingChangesNothingIsKept() {
        cache.following(false);
        IssuedKey issued = keys.issue(org, Role.ADMIN).value();
        assertThat(keys.authenticate(issued.secret())).contains(issued.key());

        revokeBehindTheServicesBack(issued.key());

        assertThat(keys.authenticate(issued.secret())).isEmpty();
    }

    @Test
    void thisProcesssRevocationAndRotationAreForgottenAtOnce() {
        IssuedKey revoked = keys.issue(org, Role.ADMIN).value();
        IssuedKey rotated = keys.issue(org, Role.VIEWER).value();
        assertThat(keys.authenticate(revoked.secret())).isPresent();
        assertThat(keys.authenticate(rotated.secret())).isPresent();

        keys.revoke(org, revoked.key().id()).value();
        IssuedKey successor = keys.rotate(org, rotated.key().id()).value();

        assertThat(keys.authenticate(revoked.secret())).isEmpty();
        assertThat(keys.authenticate(rotated.secret())).isEmpty();
        assertThat(keys.authenticate(successor.secret())).contains(successor.key());
    }

    private void revokeBehindTheServicesBack(ApiKey key) {
        core.storage.inTransaction(stores -> {
            stores.apiKeys().update(key.revokedAt(core.clock.instant()));
            return null;
        });
    }

    private static ApiKeyCache following(ApiKeyCache cache) {
        cache.following(true);
        return cache;
    }

    @Test
    void keysOfAnotherOrganisationAreNotFound() {
        IssuedKey issued = keys.issue(org, Role.ADMIN).value();
        OrgId other = core.organisations.create("Other").id();

        assertThat(keys.revoke(other, issued.key().id()).rejection()).isInstanceOf(Rejection.NotFound.class);
        assertThat(keys.authenticate(issued.secret())).isPresent();
    }

    @Test
    void theRoleLadderCoversEveryLowerRole() {
        assertThat(Role.OWNER.covers(Role.ADMIN)).isTrue();
        assertThat(Role.ADMIN.covers(Role.OPERATOR)).isTrue();
        assertThat(Role.OPERATOR.covers(Role.VIEWER)).isTrue();
        assertThat(Role.VIEWER.covers(Role.OPERATOR)).isFalse();
        assertThat(Role.OPERATOR.covers(Role.ADMIN)).isFalse();
        assertThat(Role.ADMIN.covers(Role.OWNER)).isFalse();
    }
}
