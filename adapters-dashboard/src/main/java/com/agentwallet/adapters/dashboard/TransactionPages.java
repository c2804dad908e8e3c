package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.TypedId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.core.port.TransactionStore;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The organisation's transactions, for every role: the history newest first, filtered by wallet,
 * status and type, a page at a time, and one transaction in full. Read-only, as /v1's
 * {@code GET /transactions}.
 */
@Singleton
@Path("transactions")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class TransactionPages {
    static final String PATH = Dashboard.PATH + "/transactions";
    private static final String FORBIDDEN = "Forbidden: transactions are for your organisation's users";

    private static final Template LIST = Template.load("transactions.html");
    private static final Template TABLE = Template.load("transaction-table.html");
    private static final Template ROW = Template.load("transaction-row.html");
    private static final Template RULE = Template.load("transaction-rule.html");
    private static final Template DETAIL = Template.load("transaction.html");
    private static final Template EMPTY = Template.load("records-empty.html");
    private static final Template ERROR = Template.load("sign-in-error.html");
    private static final Template CODE = Template.load("code.html");
    private static final Template CODE_LINK = Template.load("code-link.html");

    private final DashboardSessions sessions;
    private final PaymentService payments;

    @Inject
    public TransactionPages(DashboardSessions sessions, PaymentService payments) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.payments = requireNonNull(payments, "payments is null");
    }

    /** The history with the filters the form sent; a wallet id that is not one is shown above the form. */
    @GET
    public Response list(@CookieParam(DashboardSessions.COOKIE) String cookie, @QueryParam("wallet_id") String walletId,
                         @QueryParam("status") String status, @QueryParam("type") String type,
                         @QueryParam("cursor") String cursor) {
        return Access.as(sessions, cookie, Role.VIEWER, FORBIDDEN, user -> {
            Optional<String> wallet = Listings.present(walletId);
            Optional<TransactionStatus> chosenStatus = Listings.chosen(TransactionStatus.class, status, "status");
            Optional<TransactionType> chosenType = Listings.chosen(TransactionType.class, type, "type");
            Map<String, Html> form = Map.of("wallet", Html.text(wallet.orElse("")),
                    "statuses", Listings.options(TransactionStatus.class, chosenStatus),
                    "types", Listings.options(TransactionType.class, chosenType));
            if (wallet.isPresent() && !TypedId.isWellFormed(wallet.get(), WalletId.PREFIX)) {
                Html error = ERROR.render(Map.of("message", "'" + wallet.get() + "' is not a wallet id: one looks like "
                        + WalletId.PREFIX + "…"));
                return Response.status(400).entity(page(user, form, error, Html.EMPTY).markup()).build();
            }
            TransactionStore.Query query = new TransactionStore.Query(wallet.map(WalletId::new), chosenStatus,
                    chosenType, Optional.empty(), Optional.empty());
            Page<Transaction> found = payments.list(user.user().orgId(), query, Listings.request(cursor));
            Map<String, String> filters = new LinkedHashMap<>();
            filters.put("wallet_id", wallet.orElse(""));
            filters.put("status", chosenStatus.map(TransactionStatus::wireName).orElse(""));
            filters.put("type", chosenType.map(TransactionType::wireName).orElse(""));
            Html results = found.data().isEmpty()
                    ? EMPTY.render(Map.of("message", "No transactions match these filters."))
                    : TABLE.render(Map.of("rows", Html.join(found.data().stream().map(TransactionPages::row).toList()),
                    "pager", Listings.pager(found, Listings.present(cursor).isEmpty(), PATH, filters, "transactions")));
            return Response.ok(page(user, form, Html.EMPTY, results).markup()).build();
        });
    }

    @GET
    @Path("{txId}")
    public Response detail(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("txId") String txId) {
        return Access.as(sessions, cookie, Role.VIEWER, FORBIDDEN, user -> {
            if (!TypedId.isWellFormed(txId, TxId.PREFIX)) {
                return Access.error(user, 404, "Not Found: no transaction of that id");
            }
            Result<Transaction> found = payments.get(user.user().orgId(), new TxId(txId));
            if (!found.isOk()) {
                return Access.refused(user, found.rejection());
            }
            Transaction tx = found.value();
            return Response.ok(Pages.page("Transaction " + tx.id().value(), Optional.of(user), PATH,
                    DETAIL.render(Map.of("id", tx.id().value(), "facts", facts(tx)))).markup()).build();
        });
    }

    private static Html page(SignedIn user, Map<String, Html> form, Html error, Html results) {
        Map<String, Html> values = new LinkedHashMap<>(form);
        values.put("error", error);
        values.put("results", results);
        return Pages.page("Transactions", Optional.of(user), PATH, LIST.render(values));
    }

    private static Html row(Transaction tx) {
        return ROW.render(Map.of(
                "id", tx.id().value(),
                "wallet", tx.walletId().value(),
                "walletLink", Listings.link(PATH, Map.of("wallet_id", tx.walletId().value())),
                "type", tx.type().wireName(),
                "recipient", tx.recipient(),
                "amount", Shown.usdc(tx.amount()),
                "status", tx.status().wireName(),
                "rule", tx.violation().map(TransactionPages::rule).orElse(Html.EMPTY),
                "created", Shown.time(tx.createdAt())));
    }

    private static Html rule(Violation violation) {
        return RULE.render(Map.of("rule", violation.rule().wireName(), "description", violation.describe()));
    }

    /** Every field of the transaction that has a value, in the order a reader asks about them. */
    private static Html facts(Transaction tx) {
        List<Html> facts = new ArrayList<>();
        facts.add(Listings.fact("Status", Html.text(tx.status().wireName())));
        tx.violation().ifPresent(violation -> facts.add(Listings.fact("Blocked by", Html.text(violation.rule().wireName()
                + ": " + violation.describe()))));
        tx.failureReason().ifPresent(reason -> facts.add(Listings.fact("Why it ended", Html.text(reason))));
        facts.add(Listings.fact("Type", Html.text(tx.type().wireName())));
        facts.add(Listings.fact("Amount", Html.text(Shown.usdc(tx.amount()))));
        facts.add(Listings.fact("Wallet", CODE_LINK.render(Map.of("href",
                Listings.link(PATH, Map.of("wallet_id", tx.walletId().value())), "text", tx.walletId().value()))));
        facts.add(Listings.fact("Recipient", CODE.render(Map.of("text", tx.recipient()))));
        tx.memo().ifPresent(memo -> facts.add(Listings.fact("Memo", Html.text(memo))));
        facts.add(Listings.fact("Policy triggered", Html.text(tx.policyTriggered() ? "yes" : "no")));
        tx.coSign().ifPresent(coSign -> {
            facts.add(Listings.fact("Co-signer", CODE.render(Map.of("text", coSign.coSigner()))));
            facts.add(Listings.fact(coSign.signature().isPresent() ? "Co-signed" : "Co-signature due by",
                    coSign.signature().isPresent() ? Html.text("yes") : Shown.time(coSign.expiresAt())));
        });
        tx.escrowId().ifPresent(escrow -> facts.add(Listings.fact("Escrow", CODE_LINK.render(Map.of(
                "href", EscrowPages.PATH + "/" + escrow.value(), "text", escrow.value())))));
        tx.signature().ifPresent(signature -> facts.add(Listings.fact("Ledger signature", CODE.render(Map.of("text", signature)))));
        tx.slot().ifPresent(slot -> facts.add(Listings.fact("Ledger slot", Html.text(String.valueOf(slot)))));
        facts.add(Listings.fact("Created", Shown.time(tx.createdAt())));
        facts.add(Listings.fact("Last changed", Shown.time(tx.updatedAt())));
        return Html.join(facts);
    }

}
