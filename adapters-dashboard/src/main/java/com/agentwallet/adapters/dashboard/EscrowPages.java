package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Requester;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.WireNamed;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowCommand;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.escrow.EscrowStatus;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.TypedId;
import com.agentwallet.core.port.EscrowStore;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * The escrows the organisation is a party to (it sends or receives them), for every role: the list
 * newest first, filtered by status, and one escrow in full with its proof and dispute. On a
 * disputed escrow the organisation sends, operators and the roles above resolve the dispute:
 * release to the receiver or refund to the paying wallet, as /v1's
 * {@code POST /payments/a2a/{id}/resolve}.
 */
@Singleton
@Path("escrows")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class EscrowPages {
    static final String PATH = Dashboard.PATH + "/escrows";
    private static final String FORBIDDEN = "Forbidden: escrows are for your organisation's users";
    private static final String FORBIDDEN_RESOLVE = "Forbidden: operators, admins and owners resolve disputes";

    private static final Template LIST = Template.load("escrows.html");
    private static final Template TABLE = Template.load("escrow-table.html");
    private static final Template ROW = Template.load("escrow-row.html");
    private static final Template DETAIL = Template.load("escrow.html");
    private static final Template RESOLVE = Template.load("escrow-resolve.html");
    private static final Template RESOLVED = Template.load("escrow-resolved.html");
    private static final Template EMPTY = Template.load("records-empty.html");
    private static final Template CODE = Template.load("code.html");
    private static final Template CODE_LINK = Template.load("code-link.html");

    private final DashboardSessions sessions;
    private final EscrowService escrows;

    @Inject
    public EscrowPages(DashboardSessions sessions, EscrowService escrows) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.escrows = requireNonNull(escrows, "escrows is null");
    }

    @GET
    public Response list(@CookieParam(DashboardSessions.COOKIE) String cookie, @QueryParam("status") String status,
                         @QueryParam("cursor") String cursor) {
        return Access.as(sessions, cookie, Role.VIEWER, FORBIDDEN, user -> {
            Optional<EscrowStatus> chosen = Listings.chosen(EscrowStatus.class, status, "status");
            Page<Escrow> found = escrows.list(Requester.of(user.user().orgId()),
                    new EscrowStore.Query(Optional.empty(), chosen), Listings.request(cursor));
            Html results = found.data().isEmpty()
                    ? EMPTY.render(Map.of("message", "No escrows match this filter."))
                    : TABLE.render(Map.of("rows", Html.join(found.data().stream().map(EscrowPages::row).toList()),
                    "pager", Listings.pager(found, Listings.present(cursor).isEmpty(), PATH,
                            Map.of("status", chosen.map(EscrowStatus::wireName).orElse("")), "escrows")));
            return Response.ok(Pages.page("Escrows", Optional.of(user), PATH, LIST.render(Map.of(
                    "statuses", Listings.options(EscrowStatus.class, chosen), "results", results))).markup()).build();
        });
    }

    /** The escrow; {@code resolved} is set by the redirect after a resolution, which the page then reports. */
    @GET
    @Path("{escrowId}")
    public Response detail(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("escrowId") String escrowId,
                           @QueryParam("resolved") String resolved) {
        return Access.as(sessions, cookie, Role.VIEWER, FORBIDDEN, user -> withEscrow(user, escrowId, escrow -> {
            boolean resolvable = escrow.status() == EscrowStatus.DISPUTED && user.role().covers(Role.OPERATOR)
                    && escrow.orgId().equals(user.user().orgId());
            Html done = resolved != null && escrow.status().isTerminal()
                    ? RESOLVED.render(Map.of("status", escrow.status().wireName())) : Html.EMPTY;
            return Response.ok(Pages.page("Escrow " + escrow.id().value(), Optional.of(user), PATH,
                    DETAIL.render(Map.of("id", escrow.id().value(), "done", done, "facts", facts(escrow, escrow.orgId().equals(user.user().orgId())),
                            "resolve", resolvable ? RESOLVE.render(Map.of("id", escrow.id().value(),
                                    "csrf", user.csrfToken())) : Html.EMPTY))).markup()).build();
        }));
    }

    /** Settles a dispute: {@code outcome} {@code release} or {@code refund}; back to the escrow, which reports it. */
    @POST
    @Path("{escrowId}/resolve")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response resolve(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("escrowId") String escrowId,
                            @FormParam("csrf_token") String csrfToken, @FormParam("outcome") String outcome) {
        return Access.asForm(sessions, cookie, csrfToken, Role.OPERATOR, FORBIDDEN_RESOLVE,
                user -> withEscrow(user, escrowId, escrow -> {
            Result<Escrow> resolved = escrows.resolve(user.user().orgId(), escrow.id(),
                    WireNamed.parse(EscrowCommand.Outcome.class, outcome, "outcome"));
            return resolved.isOk()
                    ? Response.seeOther(URI.create(PATH + "/" + escrow.id().value() + "?resolved=1")).build()
                    : Access.refused(user, resolved.rejection());
        }));
    }

    /** {@code action} on the escrow of that id the organisation is a party to; a 404 page if there is none. */
    private Response withEscrow(SignedIn user, String escrowId, Function<Escrow, Response> action) {
        if (!TypedId.isWellFormed(escrowId, EscrowId.PREFIX)) {
            return Access.error(user, 404, "Not Found: no escrow of that id");
        }
        Result<Escrow> found = escrows.get(Requester.of(user.user().orgId()), new EscrowId(escrowId));
        return found.isOk() ? action.apply(found.value()) : Access.refused(user, found.rejection());
    }

    private static Html row(Escrow escrow) {
        return ROW.render(Map.of(
                "id", escrow.id().value(),
                "status", escrow.status().wireName(),
                "from", escrow.fromWallet().value(),
                "to", escrow.toWallet(),
                "amount", Shown.usdc(escrow.amount()),
                "timeout", Shown.time(escrow.timeoutAt()),
                "dispute", escrow.dispute().map(dispute -> dispute.reason())
                        .or(() -> escrow.proof().map(proof -> "proof given"))
                        .orElse("—")));
    }

    /**
     * Every field of the escrow that has a value: its parties, terms, proof, dispute and settlement;
     * its transactions are links when they are the organisation's ({@code sent}).
     */
    private static Html facts(Escrow escrow, boolean sent) {
        List<Html> facts = new ArrayList<>();
        facts.add(Listings.fact("Status", Html.text(escrow.status().wireName())));
        facts.add(Listings.fact("Amount", Html.text(Shown.usdc(escrow.amount()))));
        facts.add(Listings.fact("Paying wallet", CODE.render(Map.of("text", escrow.fromWallet().value()))));
        facts.add(Listings.fact("Receiver", CODE.render(Map.of("text", escrow.toWallet()))));
        if (!escrow.receiver().equals(escrow.toWallet())) {
            facts.add(Listings.fact("Receiver's ledger address", CODE.render(Map.of("text", escrow.receiver()))));
        }
        if (!escrow.taskDescription().isBlank()) {
            facts.add(Listings.fact("Task", Html.text(escrow.taskDescription())));
        }
        facts.add(Listings.fact("Timeout", Html.join(List.of(Shown.time(escrow.timeoutAt()),
                Html.text(" (" + Shown.span(Duration.ofSeconds(escrow.timeoutSeconds())) + " after the lock)")))));
        escrow.expectedProof().ifPresent(hash -> facts.add(Listings.fact("Expected proof", CODE.render(Map.of("text", hash)))));
        escrow.proof().ifPresent(proof -> facts.add(Listings.fact("Proof", CODE.render(Map.of("text", proof)))));
        escrow.dispute().ifPresent(dispute -> {
            facts.add(Listings.fact("Disputed", Shown.time(dispute.at())));
            facts.add(Listings.fact("Dispute reason", Html.text(dispute.reason())));
            facts.add(Listings.fact("Evidence hash", CODE.render(Map.of("text", dispute.evidence()))));
        });
        escrow.settleReason().ifPresent(reason -> facts.add(Listings.fact("Settled because", Html.text(reason))));
        facts.add(Listings.fact("Lock transaction", tx(escrow.lockTx(), sent)));
        escrow.settleTx().ifPresent(tx -> facts.add(Listings.fact("Payout transaction", tx(tx, sent))));
        facts.add(Listings.fact("Created", Shown.time(escrow.createdAt())));
        facts.add(Listings.fact("Last changed", Shown.time(escrow.updatedAt())));
        return Html.join(facts);
    }

    private static Html tx(TxId tx, boolean linked) {
        return linked ? CODE_LINK.render(Map.of("href", TransactionPages.PATH + "/" + tx.value(), "text", tx.value()))
                : CODE.render(Map.of("text", tx.value()));
    }
}
