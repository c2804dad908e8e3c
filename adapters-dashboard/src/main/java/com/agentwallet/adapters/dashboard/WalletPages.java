package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.FieldUpdate;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.TypedId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.policy.SessionGrant;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.port.WalletStore;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.CreatedWallet;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletService;
import com.agentwallet.core.wallet.WalletStatus;
import com.agentwallet.core.wallet.WalletUpdate;
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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * The organisation's wallets: the list (every role reads it), a wallet with its recent
 * transactions, and the changes /v1 offers on {@code /wallets}, with the same least roles: an
 * operator freezes and unfreezes; an admin creates, relabels, changes the policy, rotates the
 * session token and archives. A session token is shown once, in the answer to the POST that made it.
 */
@Singleton
@Path("wallets")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class WalletPages {
    static final String PATH = Dashboard.PATH + "/wallets";
    private static final String FORBIDDEN = "Forbidden: wallets are for the organisation's users";
    private static final String ADMINS_ONLY = "Forbidden: only an admin or owner creates and changes wallets";
    private static final String OPERATORS_ONLY =
            "Forbidden: freezing and unfreezing a wallet takes an operator, admin or owner";
    /** Transactions shown per page of a wallet. */
    static final int TRANSACTIONS_PER_PAGE = 20;

    private static final Template LIST = Template.load("wallets.html");
    private static final Template ROW = Template.load("wallet-row.html");
    private static final Template NONE = Template.load("wallet-none.html");
    private static final Template CREATE = Template.load("wallet-create.html");
    private static final Template NO_POLICY = Template.load("wallet-no-policy.html");
    private static final Template OPTION = Template.load("option.html");
    private static final Template NEXT = Template.load("next-page.html");
    private static final Template DETAIL = Template.load("wallet.html");
    private static final Template STATUS_ACTION = Template.load("wallet-status-action.html");
    private static final Template ADMIN_ACTIONS = Template.load("wallet-admin-actions.html");
    private static final Template TX_ROW = Template.load("wallet-transaction-row.html");
    private static final Template NO_TRANSACTIONS = Template.load("wallet-no-transactions.html");
    private static final Template TOKEN = Template.load("wallet-token.html");
    private static final Template ERROR = Template.load("sign-in-error.html");

    private final DashboardSessions sessions;
    private final WalletService wallets;
    private final PolicyService policies;
    private final PaymentService payments;
    private final SessionTokenSigner tokens;

    @Inject
    public WalletPages(DashboardSessions sessions, WalletService wallets, PolicyService policies,
                       PaymentService payments, SessionTokenSigner tokens) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.wallets = requireNonNull(wallets, "wallets is null");
        this.policies = requireNonNull(policies, "policies is null");
        this.payments = requireNonNull(payments, "payments is null");
        this.tokens = requireNonNull(tokens, "tokens is null");
    }

    /** What the create form holds: empty at first, what the user typed after a refusal. */
    private record CreateForm(String agentId, String label, String policyId, String ttlSeconds) {
        static final CreateForm EMPTY = new CreateForm("", "", "", "");
    }

    /** What a wallet's change forms hold: the wallet's values, or what the user typed after a refusal. */
    private record ChangeForm(String label, String policyId, String ttlSeconds) {
        static ChangeForm of(Wallet wallet) {
            return new ChangeForm(wallet.label(), wallet.policyId().value(), "");
        }
    }

    /** One page of the wallets, of one status or all; {@code cursor} is the list's "Next page". */
    @GET
    public Response list(@CookieParam(DashboardSessions.COOKIE) String cookie, @QueryParam("status") String status,
                         @QueryParam("cursor") String cursor) {
        return Access.as(sessions, cookie, Role.VIEWER, FORBIDDEN, user -> Response.ok(
                listPage(user, status, cursor, CreateForm.EMPTY, Html.EMPTY).markup()).build());
    }

    /** Opens a wallet and shows its first session token, this once; a refusal is the list again with the form as typed. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response create(@CookieParam(DashboardSessions.COOKIE) String cookie,
                           @FormParam("csrf_token") String csrfToken, @FormParam("agent_id") String agentId,
                           @FormParam("label") String label, @FormParam("policy_id") String policyId,
                           @FormParam("ttl_seconds") String ttlSeconds) {
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, ADMINS_ONLY, admin -> {
            CreateForm typed = new CreateForm(trimmed(agentId), trimmed(label), trimmed(policyId), trimmed(ttlSeconds));
            Result<CreatedWallet> created;
            try {
                created = wallets.create(new CreateWallet(admin.user().orgId(), typed.agentId(), typed.label(),
                        policyId(typed.policyId()), List.of(), ttl(typed.ttlSeconds())), RequestKey.none());
            } catch (ValidationException invalid) {
                return refusedCreate(admin, 400, invalid.getMessage(), typed);
            }
            if (!created.isOk()) {
                return refusedCreate(admin, Access.status(created.rejection()), created.rejection().message(), typed);
            }
            Wallet wallet = created.value().wallet();
            return tokenPage(admin, wallet, created.value().session(), "New wallet",
                    "Wallet " + name(wallet) + " is open, with no funds yet; fund it on the funding page.");
        });
    }

    /** A wallet, the forms the user's role may use on it, and a page of its transactions. */
    @GET
    @Path("{id}")
    public Response wallet(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("id") String id,
                           @QueryParam("cursor") String cursor) {
        return Access.as(sessions, cookie, Role.VIEWER, FORBIDDEN, user -> withWallet(user, id, wallet ->
                Response.ok(detailPage(user, wallet, cursor, ChangeForm.of(wallet), Html.EMPTY).markup()).build()));
    }

    /** Freezes or unfreezes: an update of the status alone, as an operator's PATCH of /v1. */
    @POST
    @Path("{id}/status")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response status(@CookieParam(DashboardSessions.COOKIE) String cookie,
                           @FormParam("csrf_token") String csrfToken, @PathParam("id") String id,
                           @FormParam("status") String status) {
        return Access.asForm(sessions, cookie, csrfToken, Role.OPERATOR, OPERATORS_ONLY, user -> withWallet(user, id,
                wallet -> changed(user, wallet, ChangeForm.of(wallet), () -> wallets.update(user.user().orgId(),
                        wallet.id(), new WalletUpdate(FieldUpdate.keep(), FieldUpdate.keep(),
                                Optional.of(WalletStatus.fromWire(trimmed(status), "status")))))));
    }

    @POST
    @Path("{id}/label")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response label(@CookieParam(DashboardSessions.COOKIE) String cookie,
                          @FormParam("csrf_token") String csrfToken, @PathParam("id") String id,
                          @FormParam("label") String label) {
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, ADMINS_ONLY, admin -> withWallet(admin, id,
                wallet -> changed(admin, wallet, new ChangeForm(trimmed(label), wallet.policyId().value(), ""),
                        () -> wallets.update(admin.user().orgId(), wallet.id(), new WalletUpdate(
                                FieldUpdate.set(trimmed(label)), FieldUpdate.keep(), Optional.empty())))));
    }

    @POST
    @Path("{id}/policy")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response policy(@CookieParam(DashboardSessions.COOKIE) String cookie,
                           @FormParam("csrf_token") String csrfToken, @PathParam("id") String id,
                           @FormParam("policy_id") String policyId) {
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, ADMINS_ONLY, admin -> withWallet(admin, id,
                wallet -> changed(admin, wallet, new ChangeForm(wallet.label(), trimmed(policyId), ""),
                        () -> wallets.update(admin.user().orgId(), wallet.id(), new WalletUpdate(
                                FieldUpdate.keep(), FieldUpdate.set(policyId(trimmed(policyId))), Optional.empty())))));
    }

    /** Archives: final; the wallet stays readable and its balance returns to the organisation. */
    @POST
    @Path("{id}/archive")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response archive(@CookieParam(DashboardSessions.COOKIE) String cookie,
                            @FormParam("csrf_token") String csrfToken, @PathParam("id") String id) {
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, ADMINS_ONLY, admin -> withWallet(admin, id,
                wallet -> changed(admin, wallet, ChangeForm.of(wallet),
                        () -> wallets.archive(admin.user().orgId(), wallet.id()))));
    }

    /** Ends every earlier session token of the wallet at once and shows the new one, this once. */
    @POST
    @Path("{id}/rotate-token")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response rotateToken(@CookieParam(DashboardSessions.COOKIE) String cookie,
                                @FormParam("csrf_token") String csrfToken, @PathParam("id") String id,
                                @FormParam("ttl_seconds") String ttlSeconds) {
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, ADMINS_ONLY, admin -> withWallet(admin, id,
                wallet -> {
                    ChangeForm typed = new ChangeForm(wallet.label(), wallet.policyId().value(), trimmed(ttlSeconds));
                    Result<SessionGrant> grant;
                    try {
                        grant = wallets.rotateSession(admin.user().orgId(), wallet.id(), ttl(typed.ttlSeconds()));
                    } catch (ValidationException invalid) {
                        return refusedChange(admin, wallet, 400, invalid.getMessage(), typed);
                    }
                    return grant.isOk() ? tokenPage(admin, wallet, grant.value(), "Rotated session token",
                            "Every earlier session token of " + name(wallet) + " stopped working; this one replaces them.")
                            : refusedChange(admin, wallet, Access.status(grant.rejection()),
                            grant.rejection().message(), typed);
                }));
    }

    /** {@code action} on the organisation's wallet of that id; a 404 page for a malformed or unknown id. */
    private Response withWallet(SignedIn user, String id, Function<Wallet, Response> action) {
        if (!TypedId.isWellFormed(id, WalletId.PREFIX)) {
            return Access.refused(user, new Rejection.NotFound("wallet", id));
        }
        Result<Wallet> wallet = wallets.get(user.user().orgId(), new WalletId(id));
        return wallet.isOk() ? action.apply(wallet.value()) : Access.refused(user, wallet.rejection());
    }

    private interface Change {
        Result<Wallet> apply();
    }

    /** A change: 303 back to the wallet, or the wallet's page again with the refusal above it and the form as typed. */
    private Response changed(SignedIn user, Wallet wallet, ChangeForm typed, Change change) {
        Result<Wallet> result;
        try {
            result = change.apply();
        } catch (ValidationException invalid) {
            return refusedChange(user, wallet, 400, invalid.getMessage(), typed);
        }
        return result.isOk() ? Response.seeOther(URI.create(PATH + "/" + wallet.id().value())).build()
                : refusedChange(user, wallet, Access.status(result.rejection()), result.rejection().message(), typed);
    }

    private Response refusedChange(SignedIn user, Wallet wallet, int status, String message, ChangeForm typed) {
        Result<Wallet> current = wallets.get(user.user().orgId(), wallet.id());
        Wallet now = current.isOk() ? current.value() : wallet;
        return Response.status(status).entity(detailPage(user, now, null, typed,
                ERROR.render(Map.of("message", message))).markup()).build();
    }

    private Response refusedCreate(SignedIn admin, int status, String message, CreateForm typed) {
        return Response.status(status).entity(listPage(admin, null, null, typed,
                ERROR.render(Map.of("message", message))).markup()).build();
    }

    private Response tokenPage(SignedIn admin, Wallet wallet, SessionGrant grant, String title, String note) {
        return Response.ok(Pages.page(title, Optional.of(admin), PATH, TOKEN.render(Map.of(
                "title", title, "note", note, "id", wallet.id().value(), "name", name(wallet),
                "expires", Shown.time(grant.expiresAt()),
                "token", tokens.sign(admin.user().orgId(), grant)))).markup()).build();
    }

    private Html listPage(SignedIn user, String status, String cursor, CreateForm form, Html error) {
        OrgId orgId = user.user().orgId();
        Optional<WalletStatus> shown = present(status).map(wire -> WalletStatus.fromWire(wire, "status"));
        Page<Wallet> page = wallets.list(orgId, new WalletStore.Query(shown, List.of()),
                new PageRequest(PageRequest.DEFAULT_LIMIT, present(cursor)));
        List<Policy> all = Everything.of(request -> policies.list(orgId, request));
        Map<PolicyId, String> policyNames = all.stream().collect(Collectors.toMap(Policy::id, Policy::name));
        List<Html> rows = page.data().stream().map(wallet -> ROW.render(Map.of(
                "id", wallet.id().value(),
                "name", name(wallet),
                "status", wallet.status().wireName(),
                "balance", Shown.usdc(wallet.balance()),
                "policy", policyNames.getOrDefault(wallet.policyId(), wallet.policyId().value()),
                "address", wallet.address().base58(),
                "created", Shown.time(wallet.createdAt())))).toList();
        Html more = page.nextCursor().map(next -> NEXT.render(Map.of("href", PATH + "?"
                + shown.map(s -> "status=" + s.wireName() + "&").orElse("") + "cursor=" + encoded(next))))
                .orElse(Html.EMPTY);
        return Pages.page("Wallets", Optional.of(user), PATH, LIST.render(Map.of(
                "create", user.role().covers(Role.ADMIN) ? createPanel(user, all, form, error) : error,
                "statuses", statusOptions(shown),
                "caption", shown.map(s -> "Your organisation's " + s.wireName() + " wallets")
                        .orElse("Your organisation's wallets") + ", newest first; times in UTC",
                "rows", rows.isEmpty() ? NONE.render(Map.of()) : Html.join(rows),
                "more", more)));
    }

    private static Html createPanel(SignedIn admin, List<Policy> all, CreateForm form, Html error) {
        if (all.isEmpty()) {
            return NO_POLICY.render(Map.of("error", error));
        }
        return CREATE.render(Map.of("csrf", admin.csrfToken(), "error", error, "agentId", form.agentId(),
                "label", form.label(), "ttl", form.ttlSeconds(), "policies", policyOptions(all, form.policyId())));
    }

    private Html detailPage(SignedIn user, Wallet wallet, String cursor, ChangeForm form, Html error) {
        OrgId orgId = user.user().orgId();
        Result<Policy> policy = policies.get(orgId, wallet.policyId());
        Page<Transaction> page = payments.list(orgId, TransactionStore.Query.ofWallet(wallet.id()),
                new PageRequest(TRANSACTIONS_PER_PAGE, present(cursor)));
        List<Html> rows = page.data().stream().map(tx -> TX_ROW.render(Map.of(
                "id", tx.id().value(),
                "type", tx.type().wireName(),
                "status", tx.status().wireName(),
                "amount", Shown.usdc(tx.amount()),
                "recipient", tx.recipient(),
                "created", Shown.time(tx.createdAt())))).toList();
        Html more = page.nextCursor().map(next -> NEXT.render(Map.of("href",
                PATH + "/" + wallet.id().value() + "?cursor=" + encoded(next)))).orElse(Html.EMPTY);
        List<Html> actions = new ArrayList<>();
        if (wallet.status() != WalletStatus.ARCHIVED) {
            if (user.role().covers(Role.OPERATOR)) {
                boolean frozen = wallet.status() == WalletStatus.FROZEN;
                actions.add(STATUS_ACTION.render(Map.of("id", wallet.id().value(), "csrf", user.csrfToken(),
                        "status", (frozen ? WalletStatus.ACTIVE : WalletStatus.FROZEN).wireName(),
                        "button", frozen ? "Unfreeze wallet" : "Freeze wallet",
                        "buttonClass", frozen ? "plain" : "danger",
                        "hint", frozen ? "Frozen: its payments are refused until it is unfrozen."
                                : "Freezing refuses the wallet's payments at once, until it is unfrozen.")));
            }
            if (user.role().covers(Role.ADMIN)) {
                actions.add(ADMIN_ACTIONS.render(Map.of("id", wallet.id().value(), "csrf", user.csrfToken(),
                        "label", form.label(), "ttl", form.ttlSeconds(),
                        "policies", policyOptions(Everything.of(request -> policies.list(orgId, request)),
                                form.policyId()))));
            }
        }
        return Pages.page("Wallet " + name(wallet), Optional.of(user), PATH, DETAIL.render(Map.ofEntries(
                Map.entry("name", name(wallet)),
                Map.entry("error", error),
                Map.entry("id", wallet.id().value()),
                Map.entry("agentId", wallet.agentId()),
                Map.entry("label", wallet.label().isEmpty() ? "none" : wallet.label()),
                Map.entry("status", wallet.status().wireName()),
                Map.entry("balance", Shown.usdc(wallet.balance())),
                Map.entry("policyId", wallet.policyId().value()),
                Map.entry("policyName", policy.isOk() ? policy.value().name() : wallet.policyId().value()),
                Map.entry("address", wallet.address().base58()),
                Map.entry("tags", wallet.tags().isEmpty() ? "none" : String.join(", ", wallet.tags())),
                Map.entry("created", Shown.time(wallet.createdAt())),
                Map.entry("updated", Shown.time(wallet.updatedAt())),
                Map.entry("actions", Html.join(actions)),
                Map.entry("rows", rows.isEmpty() ? NO_TRANSACTIONS.render(Map.of()) : Html.join(rows)),
                Map.entry("more", more))));
    }

    /** The label, or the agent id of a wallet without one. */
    static String name(Wallet wallet) {
        return wallet.label().isEmpty() ? wallet.agentId() : wallet.label();
    }

    private static Html statusOptions(Optional<WalletStatus> shown) {
        List<Html> options = new ArrayList<>();
        options.add(option("", "all", shown.isEmpty()));
        for (WalletStatus status : WalletStatus.values()) {
            options.add(option(status.wireName(), status.wireName(), shown.equals(Optional.of(status))));
        }
        return Html.join(options);
    }

    private static Html policyOptions(List<Policy> all, String selected) {
        return Html.join(all.stream().map(policy -> option(policy.id().value(), policy.name() + " (" + policy.id().value()
                + ")", policy.id().value().equals(selected))).toList());
    }

    static Html option(String value, String text, boolean selected) {
        return OPTION.render(Map.of("value", value, "text", text, "selected", new Html(selected ? " selected" : "")));
    }

    private static PolicyId policyId(String id) {
        ValidationException.check(TypedId.isWellFormed(id, PolicyId.PREFIX), "policy_id",
                "'policy_id' must be one of your organisation's policies");
        return new PolicyId(id);
    }

    /** A lifetime in whole seconds, or the default when left blank. */
    private static Optional<Duration> ttl(String seconds) {
        if (seconds.isEmpty()) {
            return Optional.empty();
        }
        ValidationException.check(seconds.length() <= 9 && seconds.chars().allMatch(Character::isDigit), "ttl_seconds",
                "'ttl_seconds' must be a whole number of seconds, or left blank for the default");
        return Optional.of(Duration.ofSeconds(Long.parseLong(seconds)));
    }

    static String trimmed(String value) {
        return value == null ? "" : value.strip();
    }

    static Optional<String> present(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }

    static String encoded(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
