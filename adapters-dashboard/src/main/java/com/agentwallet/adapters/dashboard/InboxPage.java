package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.wallet.Wallet;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** The co-sign inbox's page: the message of the last decision, the key panel, and the table of payments. */
final class InboxPage {
    private static final Template INBOX = Template.load("co-sign-inbox.html");
    private static final Template TABLE = Template.load("co-sign-table.html");
    private static final Template ROW = Template.load("co-sign-row.html");
    private static final Template EMPTY = Template.load("co-sign-empty.html");
    private static final Template MORE = Template.load("co-sign-more.html");
    private static final Template DONE = Template.load("co-sign-done.html");
    private static final Template REFUSED = Template.load("sign-in-error.html");

    private InboxPage() {
    }

    /** {@code decided}: the payment just approved or rejected; {@code refusal}: why the last decision was refused. */
    static Html render(SignedIn user, CoSignInbox.Listing listing, Optional<Transaction> decided,
                       Optional<String> refusal) {
        Html message = refusal.map(text -> REFUSED.render(Map.of("message", text)))
                .or(() -> decided.map(tx -> DONE.render(Map.of("txId", tx.id().value(),
                        "status", tx.status().wireName()))))
                .orElse(Html.EMPTY);
        Html payments = listing.rows().isEmpty() ? EMPTY.render(Map.of())
                : TABLE.render(Map.of("rows", Html.join(listing.rows().stream()
                        .map(row -> row(row, user.csrfToken(), listing.now())).toList()),
                        "more", listing.hasMore() ? MORE.render(Map.of()) : Html.EMPTY));
        return Pages.page("Co-sign inbox", Optional.of(user), Navigation.CO_SIGN_INBOX,
                INBOX.render(Map.of("message", message, "payments", payments)));
    }

    private static Html row(CoSignInbox.Row row, String csrfToken, Instant now) {
        Transaction tx = row.tx();
        Instant expiresAt = row.coSign().expiresAt();
        return ROW.render(Map.ofEntries(
                Map.entry("txId", tx.id().value()),
                Map.entry("wallet", row.wallet().map(InboxPage::walletName).orElse(tx.walletId().value())),
                Map.entry("walletId", tx.walletId().value()),
                Map.entry("recipient", tx.recipient()),
                Map.entry("amount", tx.amount().toString()),
                Map.entry("policy", row.policy().map(Policy::name).orElse("—")),
                Map.entry("requester", row.coSign().requestedBy().map(actor -> actor.id()).orElse("—")),
                Map.entry("created", Timestamps.format(tx.createdAt())),
                Map.entry("age", Shown.age(Duration.between(tx.createdAt(), now))),
                Map.entry("expires", Timestamps.format(expiresAt)),
                Map.entry("left", now.isBefore(expiresAt) ? Shown.span(Duration.between(now, expiresAt)) + " left" : "expiring"),
                Map.entry("payload", row.coSign().payload()),
                Map.entry("csrf", csrfToken)));
    }

    private static String walletName(Wallet wallet) {
        return wallet.label().isBlank() ? wallet.agentId() : wallet.label();
    }
}
