package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.user.SignedInUser;
import com.agentwallet.core.user.UserService;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The users' sign-in sessions as the pages meet them: a session cookie names one, whose user and
 * CSRF token every page and form needs, with the inbox badge's count of their organisation.
 */
public final class DashboardSessions {
    /** {@code __Host-} makes browsers keep the cookie only if Secure, on Path=/, with no Domain. */
    public static final String COOKIE = "__Host-agent-wallet-session";
    /** The badge counts up to this many payments; more show as this number and a plus. */
    static final int BADGE_LIMIT = 99;

    private final UserService users;
    private final PaymentService payments;

    public DashboardSessions(UserService users, PaymentService payments) {
        this.users = requireNonNull(users, "users is null");
        this.payments = requireNonNull(payments, "payments is null");
    }

    /** The user of the live session the cookie's value names; empty for none, or one that expired or ended. */
    Optional<SignedIn> find(String cookie) {
        if (cookie == null || cookie.isEmpty()) {
            return Optional.empty();
        }
        return users.authenticate(cookie).map(user -> new SignedIn(user, awaitingCoSign(user)));
    }

    Result<com.agentwallet.core.user.SignedIn> signIn(String email, String password) {
        return users.signIn(email, password);
    }

    void signOut(String cookie) {
        users.signOut(cookie);
    }

    private int awaitingCoSign(SignedInUser user) {
        TransactionStore.Query pending = TransactionStore.Query.ofStatus(TransactionStatus.PENDING_CO_SIGN);
        var page = payments.list(user.orgId(), pending, PageRequest.first(BADGE_LIMIT));
        return page.data().size() + (page.hasMore() ? 1 : 0);
    }
}
