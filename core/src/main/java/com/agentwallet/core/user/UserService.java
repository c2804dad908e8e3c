package com.agentwallet.core.user;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.port.PasswordHasher;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.Stores;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

import static java.util.Objects.requireNonNull;

/**
 * Dashboard users and their sessions. A session is a random token kept by the browser; the books
 * keep its SHA-256, so a copy of the books signs no one in. It ends at its absolute expiry, at sign
 * out, when its user is removed, and when the user's password changes. Passwords are checked outside
 * any storage transaction (the hash is slow on purpose), and the outcome is recorded under the user's
 * lock: each failure counts, the fifth in a row and every one after it lock the account for
 * {@link #LOCK_DURATION}, a success resets the count. Failures answer how long the caller should wait
 * before replying ({@code slowDown}); the core never sleeps.
 */
public final class UserService {
    public static final Duration DEFAULT_SESSION_LIFETIME = Duration.ofHours(12);
    public static final int MIN_PASSWORD_LENGTH = 12;
    public static final int MAX_PASSWORD_LENGTH = 256;
    public static final int LOCK_AFTER_FAILURES = 5;
    public static final Duration LOCK_DURATION = Duration.ofMinutes(15);
    public static final Duration FIRST_SLOW_DOWN = Duration.ofMillis(250);
    public static final Duration MAX_SLOW_DOWN = Duration.ofSeconds(2);
    private static final int TOKEN_BYTES = 32;
    private static final int TOKEN_LENGTH = 43;

    private final Storage storage;
    private final PasswordHasher hasher;
    private final IdGenerator ids;
    private final Clock clock;
    private final Duration sessionLifetime;
    private final SecureRandom random = new SecureRandom();
    /** Checked against when the email is unknown, so that an unknown email takes as long as a wrong password. */
    private volatile String decoyHash;

    public UserService(Storage storage, PasswordHasher hasher, IdGenerator ids, Clock clock, Duration sessionLifetime) {
        this.storage = requireNonNull(storage, "storage is null");
        this.hasher = requireNonNull(hasher, "hasher is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.sessionLifetime = requireNonNull(sessionLifetime, "sessionLifetime is null");
        if (sessionLifetime.isNegative() || sessionLifetime.isZero()) {
            throw new IllegalArgumentException("sessionLifetime must be positive");
        }
    }

    public Result<DashboardUser> create(OrgId orgId, String email, Role role, String password) {
        String normal = DashboardUser.normaliseEmail(email);
        requireNonNull(role, "role is null");
        checkPolicy(password);
        String hash = hasher.hash(password);
        Instant now = clock.instant();
        DashboardUser user = new DashboardUser(ids.next(UserId.PREFIX, UserId::new), orgId, normal, role, hash, 0,
                Optional.empty(), now, now);
        return storage.inTransaction(stores -> Result.found(stores.organisations().find(orgId), "organisation", orgId)
                .flatMap(org -> {
                    if (stores.users().findByEmail(normal).isPresent()) {
                        return Result.refused(new Rejection.AlreadyExists(
                                "A dashboard user with email '" + normal + "' already exists"));
                    }
                    stores.users().insert(user);
                    return Result.ok(user);
                }));
    }

    /** The organisation's users, oldest first. */
    public List<DashboardUser> list(OrgId orgId) {
        return storage.inTransaction(stores -> stores.users().list(orgId));
    }

    /** Takes effect on the user's next request: a session reads its user's role afresh each time. */
    public Result<DashboardUser> changeRole(OrgId orgId, UserId userId, Role role) {
        requireNonNull(role, "role is null");
        return storage.inTransaction(stores -> Result.found(stores.users().lock(orgId, userId), "user", userId)
                .map(user -> {
                    DashboardUser changed = user.withRole(role);
                    stores.users().update(changed);
                    return changed;
                }));
    }

    /** Removes the user and ends its sessions; answers the user as it was. */
    public Result<DashboardUser> remove(OrgId orgId, UserId userId) {
        return storage.inTransaction(stores -> Result.found(stores.users().lock(orgId, userId), "user", userId)
                .map(user -> {
                    stores.dashboardSessions().deleteAllOf(userId);
                    stores.users().delete(orgId, userId);
                    return user;
                }));
    }

    /**
     * A new session for the user of {@code email} if {@code password} is theirs. An unknown email and a
     * wrong password are the same refusal ({@link Rejection.SignInRefused}); a locked account is
     * {@link Rejection.AccountLocked}, whatever the password.
     */
    public Result<SignedIn> signIn(String email, String password) {
        Optional<DashboardUser> user = wellFormedEmail(email)
                .flatMap(normal -> storage.readOne(stores -> stores.users().findByEmail(normal)));
        if (user.isEmpty()) {
            if (isPlausible(password)) {
                hasher.matches(password, decoyHash());
            }
            return Result.refused(new Rejection.SignInRefused(slowDown(1)));
        }
        return checkPassword(user.get(), password, failures -> new Rejection.SignInRefused(slowDown(failures)),
                this::startSession);
    }

    /** The live session of a token: not expired, its user still there and with the password it signed in with. */
    public Optional<SignedInUser> authenticate(String sessionToken) {
        if (sessionToken == null || sessionToken.length() != TOKEN_LENGTH) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        return storage.inTransaction(stores -> stores.dashboardSessions().findByTokenHash(hash(sessionToken))
                .filter(session -> now.isBefore(session.expiresAt()))
                .flatMap(session -> stores.users().find(session.orgId(), session.userId())
                        .filter(user -> !user.passwordChangedAt().isAfter(session.createdAt()))
                        .map(user -> new SignedInUser(user.id(), user.orgId(), user.role(), user.email(),
                                session.csrfToken(), session.expiresAt()))));
    }

    public void signOut(String sessionToken) {
        if (sessionToken == null) {
            return;
        }
        storage.inTransaction(stores -> {
            stores.dashboardSessions().delete(hash(sessionToken));
            return null;
        });
    }

    /**
     * The user's own change, proven with the current password (a wrong one counts as a failed
     * sign-in); ends every session of the user, the caller's too.
     */
    public Result<DashboardUser> changePassword(OrgId orgId, UserId userId, String current, String next) {
        checkPolicy(next);
        return Result.found(storage.readOne(stores -> stores.users().find(orgId, userId)), "user", userId)
                .flatMap(user -> {
                    String newHash = hasher.hash(next);
                    return checkPassword(user, current,
                            failures -> new Rejection.InvalidInput("current_password", "The current password is wrong"),
                            (stores, checked) -> replacePassword(stores, checked, newHash));
                });
    }

    /** An operator's reset: a new password, no lockout, and every session of the user ended. */
    public Result<DashboardUser> resetPassword(String email, String next) {
        String normal = DashboardUser.normaliseEmail(email);
        checkPolicy(next);
        String newHash = hasher.hash(next);
        return storage.inTransaction(stores -> stores.users().findByEmail(normal)
                .flatMap(user -> stores.users().lock(user.orgId(), user.id()))
                .<Result<DashboardUser>>map(user -> Result.ok(replacePassword(stores, user, newHash)))
                .orElseGet(() -> Result.refused(new Rejection.NotFound("dashboard user", normal))));
    }

    /** Clockwork: forgets up to {@code limit} expired sessions; answers how many. */
    public int purgeExpiredSessions(int limit) {
        return storage.inTransaction(stores -> stores.dashboardSessions().deleteExpired(clock.instant(), limit));
    }

    /** How long to wait before answering the {@code failures}-th failure in a row: doubling, capped. */
    static Duration slowDown(int failures) {
        int doublings = Math.min(Math.max(failures, 1) - 1, 8);
        Duration wait = FIRST_SLOW_DOWN.multipliedBy(1L << doublings);
        return wait.compareTo(MAX_SLOW_DOWN) > 0 ? MAX_SLOW_DOWN : wait;
    }

    /**
     * Checks {@code password} against the user as read, outside any transaction; then, under the
     * user's lock, refuses if it is locked by now, counts a failure, or resets the count and runs
     * {@code onRight}. A user removed, or whose password changed, meanwhile is a failure not counted.
     */
    private <T> Result<T> checkPassword(DashboardUser read, String password, IntFunction<Rejection> wrong,
                                        BiFunction<Stores, DashboardUser, T> onRight) {
        if (read.isLocked(clock.instant())) {
            return Result.refused(locked(read));
        }
        boolean right = isPlausible(password) && hasher.matches(password, read.passwordHash());
        return storage.inTransaction(stores -> {
            Optional<DashboardUser> current = stores.users().lock(read.orgId(), read.id())
                    .filter(user -> user.passwordHash().equals(read.passwordHash()));
            if (current.isEmpty()) {
                return Result.refused(wrong.apply(1));
            }
            DashboardUser user = current.get();
            Instant now = clock.instant();
            if (user.isLocked(now)) {
                return Result.refused(locked(user));
            }
            if (!right) {
                boolean lock = user.failedSignIns() + 1 >= LOCK_AFTER_FAILURES;
                DashboardUser failed = user.failedSignIn(lock ? Optional.of(now.plus(LOCK_DURATION)) : Optional.empty());
                stores.users().update(failed);
                return Result.refused(wrong.apply(failed.failedSignIns()));
            }
            DashboardUser signedIn = user.signedIn();
            stores.users().update(signedIn);
            return Result.ok(onRight.apply(stores, signedIn));
        });
    }

    private SignedIn startSession(Stores stores, DashboardUser user) {
        String token = randomToken();
        String csrfToken = randomToken();
        Instant now = clock.instant();
        Instant expiresAt = now.plus(sessionLifetime);
        stores.dashboardSessions().insert(new DashboardSession(hash(token), user.id(), user.orgId(), csrfToken, now,
                expiresAt));
        return new SignedIn(user, token, csrfToken, expiresAt);
    }

    private DashboardUser replacePassword(Stores stores, DashboardUser user, String newHash) {
        DashboardUser changed = user.withPassword(newHash, clock.instant());
        stores.users().update(changed);
        stores.dashboardSessions().deleteAllOf(user.id());
        return changed;
    }

    private static Rejection locked(DashboardUser user) {
        return new Rejection.AccountLocked(user.lockedUntil().orElseThrow(), slowDown(user.failedSignIns()));
    }

    private static void checkPolicy(String password) {
        ValidationException.check(password != null && characters(password) >= MIN_PASSWORD_LENGTH
                        && characters(password) <= MAX_PASSWORD_LENGTH, "password",
                "'password' must be " + MIN_PASSWORD_LENGTH + " to " + MAX_PASSWORD_LENGTH + " characters");
    }

    /** Whether the password could be anyone's: longer ones are refused before any slow hashing. */
    private static boolean isPlausible(String password) {
        return password != null && characters(password) <= MAX_PASSWORD_LENGTH;
    }

    private static int characters(String text) {
        return text.codePointCount(0, text.length());
    }

    private static Optional<String> wellFormedEmail(String email) {
        try {
            return Optional.of(DashboardUser.normaliseEmail(email));
        } catch (ValidationException e) {
            return Optional.empty();
        }
    }

    private String decoyHash() {
        String decoy = decoyHash;
        if (decoy == null) {
            decoy = hasher.hash(randomToken());
            decoyHash = decoy;
        }
        return decoy;
    }

    private String randomToken() {
        byte[] bytes = new byte[TOKEN_BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String hash(String token) {
        return Hashing.sha256Hex(token);
    }
}
