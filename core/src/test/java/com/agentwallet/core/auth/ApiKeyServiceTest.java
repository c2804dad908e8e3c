package com.agentwallet.core.auth;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.testing.CoreFixture;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ApiKeyServiceTest {
    private final CoreFixture core = new CoreFixture();
    private final ApiKeyService keys = new ApiKeyService(core.storage, core.ids, core.clock);
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
    void keysOfAnotherOrganisationAreNotFound() {
        IssuedKey issued = keys.issue(org, Role.ADMIN).value();
        OrgId other = core.organisations.create("Other").id();

        assertThat(keys.revoke(other, issued.key().id()).rejection().code()).isEqualTo("not_found");
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
