package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TypedId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.port.WalletStore;
import com.agentwallet.core.wallet.Funding;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletService;
import com.agentwallet.core.wallet.WalletStatus;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Moving the organisation's USDC between its unallocated balance and its wallets, for admins and
 * owners: fund one wallet, fund several at once (all or none), withdraw from one. Each is the /v1
 * use case of the same name; the answer leads back here showing the wallets it touched with their
 * balances as they are now, under the organisation's.
 */
@Singleton
@Path("funding")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class FundingPages {
    static final String PATH = Dashboard.PATH + "/funding";
    private static final String FORBIDDEN = "Forbidden: only an admin or owner moves the organisation's funds";
    /** Every line of a batch is "wallet id, amount". */
    static final String BATCH_FORMAT = "write one \"wallet id, amount\" per line, such as \"wal_…, 12.50\"";

    private static final Template PAGE = Template.load("funding.html");
    private static final Template DONE = Template.load("funding-done.html");
    private static final Template DONE_ROW = Template.load("funding-done-row.html");
    private static final Template ROW = Template.load("funding-row.html");
    private static final Template NONE = Template.load("funding-none.html");
    private static final Template ERROR = Template.load("sign-in-error.html");

    private final DashboardSessions sessions;
    private final OrganisationService organisations;
    private final WalletService wallets;

    @Inject
    public FundingPages(DashboardSessions sessions, OrganisationService organisations, WalletService wallets) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.organisations = requireNonNull(organisations, "organisations is null");
        this.wallets = requireNonNull(wallets, "wallets is null");
    }

    /** What the forms hold: empty at first, what the user typed after a refusal. */
    private record Typed(String fundWallet, String fundAmount, String batch, String withdrawWallet,
                         String withdrawAmount) {
        static final Typed EMPTY = new Typed("", "", "", "", "");
    }

    /** What the last action did, named in the redirect that led here. */
    enum Done {
        FUNDED("Funded"), WITHDREW("Withdrew");

        private final String heading;

        Done(String heading) {
            this.heading = heading;
        }
    }

    /** The page; {@code done} and {@code wallet} report the action just taken and the wallets it touched. */
    @GET
    public Response page(@CookieParam(DashboardSessions.COOKIE) String cookie, @QueryParam("done") String done,
                         @QueryParam("wallet") List<String> touched) {
        return Access.as(sessions, cookie, Role.ADMIN, FORBIDDEN, admin -> Response.ok(
                page(admin, doneReport(admin, done, touched), Typed.EMPTY, Html.EMPTY).markup()).build());
    }

    @POST
    @Path("fund")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response fund(@CookieParam(DashboardSessions.COOKIE) String cookie,
                         @FormParam("csrf_token") String csrfToken, @FormParam("wallet_id") String walletId,
                         @FormParam("amount") String amount) {
        Typed typed = new Typed(WalletPages.trimmed(walletId), WalletPages.trimmed(amount), "", "", "");
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, FORBIDDEN, admin -> act(admin, typed, Done.FUNDED,
                () -> wallets.fund(admin.user().orgId(), walletId(typed.fundWallet(), "wallet_id"),
                        Usdc.parsePositive(typed.fundAmount(), "amount"), RequestKey.none()).map(List::of)));
    }

    /** Funds every line's wallet with its amount, all or none; see {@link #BATCH_FORMAT}. */
    @POST
    @Path("fund-batch")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response fundBatch(@CookieParam(DashboardSessions.COOKIE) String cookie,
                              @FormParam("csrf_token") String csrfToken, @FormParam("fundings") String fundings) {
        Typed typed = new Typed("", "", fundings == null ? "" : fundings, "", "");
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, FORBIDDEN, admin -> act(admin, typed, Done.FUNDED,
                () -> wallets.fundBatch(admin.user().orgId(), lines(typed.batch()), RequestKey.none())));
    }

    /** Returns the amount, or with {@code all} the whole balance, to the organisation. */
    @POST
    @Path("withdraw")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response withdraw(@CookieParam(DashboardSessions.COOKIE) String cookie,
                             @FormParam("csrf_token") String csrfToken, @FormParam("wallet_id") String walletId,
                             @FormParam("amount") String amount) {
        Typed typed = new Typed("", "", "", WalletPages.trimmed(walletId), WalletPages.trimmed(amount));
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, FORBIDDEN, admin -> act(admin, typed,
                Done.WITHDREW, () -> wallets.withdraw(admin.user().orgId(), walletId(typed.withdrawWallet(), "wallet_id"),
                        typed.withdrawAmount().equalsIgnoreCase("all") ? Optional.empty()
                                : Optional.of(Usdc.parsePositive(typed.withdrawAmount(), "amount")),
                        RequestKey.none()).map(List::of)));
    }

    /** An action: 303 to the page reporting the wallets it touched, or the page again with the refusal and the forms as typed. */
    private Response act(SignedIn admin, Typed typed, Done done, Supplier<Result<List<Wallet>>> action) {
        Result<List<Wallet>> result;
        try {
            result = action.get();
        } catch (ValidationException invalid) {
            return refused(admin, 400, invalid.getMessage(), typed);
        }
        if (!result.isOk()) {
            return refused(admin, Access.status(result.rejection()), result.rejection().message(), typed);
        }
        return Response.seeOther(URI.create(PATH + "?done=" + done.name().toLowerCase(Locale.ROOT) + result.value().stream()
                .map(wallet -> "&wallet=" + wallet.id().value()).collect(Collectors.joining()))).build();
    }

    private Response refused(SignedIn admin, int status, String message, Typed typed) {
        return Response.status(status).entity(page(admin, Html.EMPTY, typed,
                ERROR.render(Map.of("message", message))).markup()).build();
    }

    /** The lines of a batch; a line that is not "wallet id, amount" is refused with its number. */
    static List<Funding> lines(String text) {
        List<Funding> lines = new ArrayList<>();
        String[] all = text.split("\\R");
        for (int number = 1; number <= all.length; number++) {
            String line = all[number - 1].strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split(",", -1);
            String where = "Line " + number + ": ";
            ValidationException.check(parts.length == 2, "fundings", where + BATCH_FORMAT);
            try {
                lines.add(new Funding(walletId(parts[0].strip(), "wallet_id"),
                        Usdc.parsePositive(parts[1].strip(), "amount")));
            } catch (ValidationException invalid) {
                throw new ValidationException("fundings", where + invalid.getMessage());
            }
        }
        ValidationException.check(!lines.isEmpty(), "fundings", "No fundings: " + BATCH_FORMAT);
        return lines;
    }

    private static WalletId walletId(String id, String param) {
        ValidationException.check(TypedId.isWellFormed(id, WalletId.PREFIX), param,
                "'" + param + "' must be a wallet id of your organisation, such as wal_…");
        return new WalletId(id);
    }

    /** The report of {@code done}: the touched wallets of the organisation with their balances now. */
    private Html doneReport(SignedIn admin, String done, List<String> touched) {
        Optional<Done> what = Arrays.stream(Done.values())
                .filter(each -> each.name().equalsIgnoreCase(WalletPages.trimmed(done))).findFirst();
        if (what.isEmpty()) {
            return Html.EMPTY;
        }
        List<Html> rows = touched.stream().filter(id -> TypedId.isWellFormed(id, WalletId.PREFIX)).distinct()
                .map(id -> wallets.get(admin.user().orgId(), new WalletId(id)))
                .filter(Result::isOk).map(Result::value)
                .map(wallet -> DONE_ROW.render(Map.of("id", wallet.id().value(), "name", WalletPages.name(wallet),
                        "balance", Shown.usdc(wallet.balance()))))
                .toList();
        return rows.isEmpty() ? Html.EMPTY : DONE.render(Map.of("heading", what.get().heading, "rows", Html.join(rows)));
    }

    private Html page(SignedIn admin, Html done, Typed typed, Html error) {
        OrgId orgId = admin.user().orgId();
        Result<Organisation> organisation = organisations.get(orgId);
        List<Wallet> all = Everything.of(request -> wallets.list(orgId, WalletStore.Query.ALL, request));
        List<Wallet> open = all.stream().filter(wallet -> wallet.status() != WalletStatus.ARCHIVED).toList();
        List<Wallet> holding = all.stream().filter(wallet -> !wallet.balance().isZero()).toList();
        List<Html> rows = all.stream().map(wallet -> ROW.render(Map.of("id", wallet.id().value(),
                "name", WalletPages.name(wallet), "status", wallet.status().wireName(),
                "balance", Shown.usdc(wallet.balance())))).toList();
        return Pages.page("Funding", Optional.of(admin), PATH, PAGE.render(Map.ofEntries(
                Map.entry("balance", organisation.isOk() ? Shown.usdc(organisation.value().balance()) : "unknown"),
                Map.entry("done", done),
                Map.entry("error", error),
                Map.entry("csrf", admin.csrfToken()),
                Map.entry("fundWallets", walletOptions(open, typed.fundWallet())),
                Map.entry("fundAmount", typed.fundAmount()),
                Map.entry("batch", typed.batch()),
                Map.entry("withdrawWallets", walletOptions(holding, typed.withdrawWallet())),
                Map.entry("withdrawAmount", typed.withdrawAmount()),
                Map.entry("rows", rows.isEmpty() ? NONE.render(Map.of()) : Html.join(rows)))));
    }

    private static Html walletOptions(List<Wallet> choices, String selected) {
        return Html.join(choices.stream().map(wallet -> WalletPages.option(wallet.id().value(),
                WalletPages.name(wallet) + " (" + wallet.id().value() + ", " + Shown.usdc(wallet.balance()) + ")",
                wallet.id().value().equals(selected))).toList());
    }
}
