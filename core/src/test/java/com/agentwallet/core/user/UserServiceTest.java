package com.agentwallet.core.user;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.port.PasswordHasher;
import com.agentwallet.core.testing.CoreFixture;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UserServiceTest {
    private static final String PASSWORD = "correct horse battery";
    private static final String OTHER_PASSWORD = "another long passphrase";

    private final CoreFixture core = new CoreFixture();
    private final CountingHasher hasher = new CountingHasher();
    private final UserService users = new UserService(core.storage, hasher, core.ids, core.clock,
            UserService.DEFAULT_SESSION_LIFETIME);
    private final OrgId org = core.organisations.create("Acme").id();

    @Test
    void aUserIsCreatedWithANormalisedEmailAndOnlyTheHashOfItsPassword() {
        DashboardUser user = users.create(org, "  Ada@Example.COM ", Role.ADMIN, PASSWORD).value();

        assertThat(user.id().value()).matches("usr_[0-9A-Za-z]{24}");
        assertThat(user.email()).isEqualTo("ada@example.com");
        assertThat(user.role()).isEqualTo(Role.ADMIN);
        assertThat(user.passwordHash()).isNotEqualTo(PASSWORD).doesNotContain(PASSWORD);
        assertThat(user.failedSignIns()).isZero();
        assertThat(user.lockedUntil()).isEmpty();
        assertThat(user.passwordChangedAt()).isEqualTo(core.clock.instant());
        assertThat(users.list(org)).containsExactly(user);
    }

    @Test
    void anEmailBelongsToOneUserOfTheWholeService() {
        OrgId other = core.organisations.create("Other").id();
        users.create(org, "ada@example.com", Role.OWNER, PASSWORD).value();

        Result<DashboardUser> again = users.create(other, "ADA@example.com", Role.VIEWER, PASSWORD);

        assertThat(again.rejection()).isInstanceOf(Rejection.AlreadyExists.class);
        assertThat(users.list(other)).isEmpty();
    }

    @Test
    void anUnknownOrganisationIsNotFound() {
        assertThat(users.create(core.ids.org(), "ada@example.com", Role.OWNER, PASSWORD).rejection())
                .isInstanceOf(Rejection.NotFound.class);
    }

    @Test
    void passwordsOfFewerThan12OrMoreThan256CharactersAreValidationErrorsNamingPassword() {
        for (String refused : new String[] {null, "elevenchars", "x".repeat(257)}) {
            assertThatThrownBy(() -> users.create(org, "ada@example.com", Role.OWNER, refused))
                    .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.param()).isEqualTo("password"));
        }
        assertThat(users.create(org, "a@example.com", Role.OWNER, "twelve chars").isOk()).isTrue();
        assertThat(users.create(org, "b@example.com", Role.OWNER, "\uD83D\uDD11".repeat(256)).isOk()).isTrue();
    }

    @Test
    void malformedEmailsAreValidationErrorsNamingEmail() {
        for (String refused : new String[] {null, "", "ada", "@example.com", "ada@", "ada@example", "a@b@c.com",
                "ada @example.com", "ada@example.", "a@" + "x".repeat(250) + ".com"}) {
            assertThatThrownBy(() -> users.create(org, refused, Role.OWNER, PASSWORD))
                    .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.param()).isEqualTo("email"));
        }
    }

    @Test
    void aSignInStartsASessionThatAuthenticatesWithTheUsersCurrentRole() {
        DashboardUser user = users.create(org, "ada@example.com", Role.OPERATOR, PASSWORD).value();

        SignedIn signedIn = users.signIn("Ada@Example.com", PASSWORD).value();

        assertThat(signedIn.sessionToken()).matches("[A-Za-z0-9_-]{43}");
        assertThat(signedIn.csrfToken()).matches("[A-Za-z0-9_-]{43}").isNotEqualTo(signedIn.sessionToken());
        assertThat(signedIn.expiresAt()).isEqualTo(core.clock.instant().plus(Duration.ofHours(12)));
        assertThat(signedIn.toString()).doesNotContain(signedIn.sessionToken()).doesNotContain(signedIn.csrfToken());
        assertThat(users.authenticate(signedIn.sessionToken())).contains(new SignedInUser(user.id(), org,
                Role.OPERATOR, "ada@example.com", signedIn.csrfToken(), signedIn.expiresAt()));

        users.changeRole(org, user.id(), Role.VIEWER).value();

        assertThat(users.authenticate(signedIn.sessionToken())).hasValueSatisfying(
                who -> assertThat(who.role()).isEqualTo(Role.VIEWER));
    }

    @Test
    void onlyTheHashOfTheSessionTokenIsStored() {
        users.create(org, "ada@example.com", Role.OWNER, PASSWORD).value();
        SignedIn signedIn = users.signIn("ada@example.com", PASSWORD).value();

        Optional<DashboardSession> byToken = core.storage.inTransaction(
                s -> s.dashboardSessions().findByTokenHash(signedIn.sessionToken()));
        Optional<DashboardSession> byHash = core.storage.inTransaction(
                s -> s.dashboardSessions().findByTokenHash(Hashing.sha256Hex(signedIn.sessionToken())));

        assertThat(byToken).isEmpty();
        assertThat(byHash).isPresent();
    }

    @Test
    void aSessionEndsAtItsAbsoluteExpiryAndIsPurgedAfter() {
        users.create(org, "ada@example.com", Role.OWNER, PASSWORD).value();
        SignedIn signedIn = users.signIn("ada@example.com", PASSWORD).value();

        core.clock.advance(Duration.ofHours(12).minusMillis(1));
        assertThat(users.authenticate(signedIn.sessionToken())).isPresent();
        assertThat(users.purgeExpiredSessions(10)).isZero();
        core.clock.advance(Duration.ofMillis(1));

        assertThat(users.authenticate(signedIn.sessionToken())).isEmpty();
        assertThat(users.purgeExpiredSessions(10)).isEqualTo(1);
    }

    @Test
    void theSessionLifetimeIsTheConstructors() {
        UserService shortLived = new UserService(core.storage, hasher, core.ids, core.clock, Duration.ofMinutes(5));
        shortLived.create(org, "ada@example.com", Role.OWNER, PASSWORD).value();

        assertThat(shortLived.signIn("ada@example.com", PASSWORD).value().expiresAt())
                .isEqualTo(core.clock.instant().plus(Duration.ofMinutes(5)));
    }

    @Test
    void signOutEndsOnlyThatSession() {
        users.create(org, "ada@example.com", Role.OWNER, PASSWORD).value();
        SignedIn first = users.signIn("ada@example.com", PASSWORD).value();
        SignedIn second = users.signIn("ada@example.com", PASSWORD).value();

        users.signOut(first.sessionToken());
        users.signOut(null);

        assertThat(users.authenticate(first.sessionToken())).isEmpty();
        assertThat(users.authenticate(second.sessionToken())).isPresent();
    }

    @Test
    void unknownAndMalformedTokensAuthenticateNothing() {
        assertThat(users.authenticate(null)).isEmpty();
        assertThat(users.authenticate("")).isEmpty();
        assertThat(users.authenticate("A".repeat(43))).isEmpty();
        assertThat(users.authenticate("A".repeat(10_000))).isEmpty();
    }

    @Test
    void anUnknownEmailAndAWrongPasswordAreTheSameRefusalAndBothCheckAPassword() {
        users.create(org, "ada@example.com", Role.OWNER, PASSWORD).value();
        int before = hasher.checks;

        Rejection unknown = users.signIn("nobody@example.com", PASSWORD).rejection();
        Rejection wrong = users.signIn("ada@example.com", OTHER_PASSWORD).rejection();

        assertThat(unknown).isEqualTo(new Rejection.SignInRefused(Duration.ofMillis(250)));
        assertThat(wrong).isEqualTo(unknown);
        assertThat(unknown.message()).isEqualTo(wrong.message());
        assertThat(hasher.checks - before).isEqualTo(2);
        assertThat(users.signIn("not an email", PASSWORD).rejection()).isEqualTo(unknown);
        assertThat(users.signIn("ada@example.com", null).rejection()).isInstanceOf(Rejection.SignInRefused.class);
    }

    @Test
    void failuresSlowDownDoublingUpToTwoSecondsAndTheFifthLocksTheAccountFor15Minutes() {
        DashboardUser user = users.create(org, "ada@example.com", Role.OWNER, PASSWORD).value();

        for (long millis : new long[] {250, 500, 1000, 2000, 2000}) {
            assertThat(users.signIn("ada@example.com", OTHER_PASSWORD).rejection())
                    .isEqualTo(new Rejection.SignInRefused(Duration.ofMillis(millis)));
        }
        Instant lockedUntil = core.clock.instant().plus(Duration.ofMinutes(15));
        assertThat(stored(user).failedSignIns()).isEqualTo(5);
        assertThat(stored(user).lockedUntil()).contains(lockedUntil);

        Rejection locked = users.signIn("ada@example.com", PASSWORD).rejection();
        assertThat(locked).isEqualTo(new Rejection.AccountLocked(lockedUntil, Duration.ofSeconds(2)));
        assertThat(locked.message()).contains("try again after " + lockedUntil);

        core.clock.advance(Duration.ofMinutes(15));
        assertThat(users.signIn("ada@example.com", PASSWORD).isOk()).isTrue();
        assertThat(stored(user).failedSignIns()).isZero();
        assertThat(stored(user).lockedUntil()).isEmpty();
    }

    @Test
    void aFailureAfterALockRunsOutLocksAgainAtOnce() {
        DashboardUser user = users.create(org, "ada@example.com", Role.OWNER, PASSWORD).value();
        for (int i = 0; i < 5; i++) {
            users.signIn("ada@example.com", OTHER_PASSWORD);
        }
        core.clock.advance(Duration.ofMinutes(15));

        users.signIn("ada@example.com", OTHER_PASSWORD);

        assertThat(stored(user).lockedUntil()).contains(core.clock.instant().plus(Duration.ofMinutes(15)));
        assertThat(users.signIn("ada@example.com", PASSWORD).rejection()).isInstanceOf(Rejection.AccountLocked.class);
    }

    @Test
    void aSuccessResetsTheCountOfFailures() {
        DashboardUser user = users.create(org, "ada@example.com", Role.OWNER, PASSWORD).value();
        for (int i = 0; i < 4; i++) {
            users.signIn("ada@example.com", OTHER_PASSWORD);
        }

        users.signIn("ada@example.com", PASSWORD).value();

        assertThat(stored(user).failedSignIns()).isZero();
        assertThat(users.signIn("ada@example.com", OTHER_PASSWORD).rejection())
                .isEqualTo(new Rejection.SignInRefused(Duration.ofMillis(250)));
    }

    @Test
    void changingThePasswordEndsEverySessionAndNeedsTheCurrentOne() {
        DashboardUser user = users.create(org, "ada@example.com", Role.OWNER, PASSWORD).value();
        SignedIn session = users.signIn("ada@example.com", PASSWORD).value();

        Rejection wrong = users.changePassword(org, user.id(), OTHER_PASSWORD, "a brand new passphrase").rejection();
        assertThat(wrong).isInstanceOfSatisfying(Rejection.InvalidInput.class,
                invalid -> assertThat(invalid.param()).isEqualTo("current_password"));
        assertThat(stored(user).failedSignIns()).isEqualTo(1);
        assertThat(users.authenticate(session.sessionToken())).isPresent();

        core.clock.advance(Duration.ofSeconds(1));
        DashboardUser changed = users.changePassword(org, user.id(), PASSWORD, "a brand new passphrase").value();

        assertThat(changed.passwordChangedAt()).isEqualTo(core.clock.instant());
        assertThat(changed.failedSignIns()).isZero();
        assertThat(users.authenticate(session.sessionToken())).isEmpty();
        assertThat(users.signIn("ada@example.com", PASSWORD).isOk()).isFalse();
        assertThat(users.signIn("ada@example.com", "a brand new passphrase").isOk()).isTrue();
        assertThatThrownBy(() -> users.changePassword(org, user.id(), "a brand new passphrase", "short"))
                .isInstanceOf(ValidationException.class);
        assertThat(users.changePassword(core.ids.org(), user.id(), PASSWORD, "a brand new passphrase").rejection())
                .isInstanceOf(Rejection.NotFound.class);
    }

    @Test
    void aSessionOlderThanThePasswordAuthenticatesNothing() {
        DashboardUser user = users.create(org, "ada@example.com", Role.OWNER, PASSWORD).value();
        SignedIn session = users.signIn("ada@example.com", PASSWORD).value();
        core.clock.advance(Duration.ofSeconds(1));
        DashboardUser changedBehindTheServicesBack = stored(user).withPassword(user.passwordHash(), core.clock.instant());
        core.storage.inTransaction(s -> {
            s.users().update(changedBehindTheServicesBack);
            return null;
        });

        assertThat(users.authenticate(session.sessionToken())).isEmpty();
    }

    @Test
    void anOperatorsResetSetsThePasswordUnlocksAndEndsEverySession() {
        DashboardUser user = users.create(org, "ada@example.com", Role.OWNER, PASSWORD).value();
        SignedIn session = users.signIn("ada@example.com", PASSWORD).value();
        for (int i = 0; i < 5; i++) {
            users.signIn("ada@example.com", OTHER_PASSWORD);
        }

        DashboardUser reset = users.resetPassword("ADA@example.com", "a brand new passphrase").value();

        assertThat(reset.lockedUntil()).isEmpty();
        assertThat(reset.failedSignIns()).isZero();
        assertThat(users.authenticate(session.sessionToken())).isEmpty();
        assertThat(users.signIn("ada@example.com", "a brand new passphrase").isOk()).isTrue();
        assertThat(users.resetPassword("nobody@example.com", "a brand new passphrase").rejection())
                .isInstanceOf(Rejection.NotFound.class);
        assertThat(stored(user).id()).isEqualTo(user.id());
    }

    @Test
    void removingAUserEndsItsSessionsAndOnlyItsOrganisationCanRemoveIt() {
        DashboardUser user = users.create(org, "ada@example.com", Role.OWNER, PASSWORD).value();
        SignedIn session = users.signIn("ada@example.com", PASSWORD).value();
        OrgId other = core.organisations.create("Other").id();

        assertThat(users.remove(other, user.id()).rejection()).isInstanceOf(Rejection.NotFound.class);
        assertThat(users.changeRole(other, user.id(), Role.VIEWER).rejection()).isInstanceOf(Rejection.NotFound.class);
        assertThat(users.remove(org, user.id()).value()).isEqualTo(user);

        assertThat(users.authenticate(session.sessionToken())).isEmpty();
        assertThat(users.list(org)).isEmpty();
        assertThat(users.signIn("ada@example.com", PASSWORD).rejection()).isInstanceOf(Rejection.SignInRefused.class);
        assertThat(users.remove(org, user.id()).rejection()).isInstanceOf(Rejection.NotFound.class);
    }

    @Test
    void slowDownDoublesFrom250MillisecondsAndStopsAtTwoSeconds() {
        assertThat(UserService.slowDown(1)).isEqualTo(Duration.ofMillis(250));
        assertThat(UserService.slowDown(3)).isEqualTo(Duration.ofSeconds(1));
        assertThat(UserService.slowDown(4)).isEqualTo(Duration.ofSeconds(2));
        assertThat(UserService.slowDown(1_000)).isEqualTo(Duration.ofSeconds(2));
    }

    private DashboardUser stored(DashboardUser user) {
        return core.storage.inTransaction(s -> s.users().find(user.orgId(), user.id())).orElseThrow();
    }

    /** A fast stand-in for the real slow hash, counting the checks. */
    private static final class CountingHasher implements PasswordHasher {
        private int checks;

        @Override
        public String hash(String password) {
            return "test$" + Hashing.sha256Hex(password);
        }

        @Override
        public boolean matches(String password, String hash) {
            checks++;
            return hash(password).equals(hash);
        }
    }
}
