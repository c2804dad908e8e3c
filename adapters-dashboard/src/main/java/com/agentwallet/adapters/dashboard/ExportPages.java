package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.export.ExportService;
import com.agentwallet.core.export.ExportStatus;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.id.TypedId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
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
import jakarta.ws.rs.core.StreamingOutput;

import java.net.URI;
import java.nio.file.Files;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Exports of the organisation's transaction history, for every role, as /v1's
 * {@code POST /transactions/export}: request one (a format, optionally one wallet and a range of
 * days), see the recent ones with their status and how long their file is kept, and download a
 * ready one. The clockwork writes the files in the background, so a new export is pending until
 * the page is reloaded a moment later; a file kept for the retention is deleted, its export expired.
 */
@Singleton
@Path("exports")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class ExportPages {
    static final String PATH = Dashboard.PATH + "/exports";
    private static final String FORBIDDEN = "Forbidden: exports are for your organisation's users";

    private static final Template LIST = Template.load("exports.html");
    private static final Template TABLE = Template.load("export-table.html");
    private static final Template ROW = Template.load("export-row.html");
    private static final Template DOWNLOAD = Template.load("export-download.html");
    private static final Template REQUESTED = Template.load("export-requested.html");
    private static final Template EMPTY = Template.load("records-empty.html");
    private static final Template ERROR = Template.load("sign-in-error.html");
    private static final Template OPTION = Template.load("filter-option.html");

    private final DashboardSessions sessions;
    private final ExportService exports;

    @Inject
    public ExportPages(DashboardSessions sessions, ExportService exports) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.exports = requireNonNull(exports, "exports is null");
    }

    /** The form and the recent exports; {@code requested} names the export just requested, which the page reports. */
    @GET
    public Response list(@CookieParam(DashboardSessions.COOKIE) String cookie, @QueryParam("requested") String requested,
                         @QueryParam("cursor") String cursor) {
        return Access.as(sessions, cookie, Role.VIEWER, FORBIDDEN, user -> {
            Html message = TypedId.isWellFormed(requested, ExportId.PREFIX)
                    ? REQUESTED.render(Map.of("id", requested)) : Html.EMPTY;
            return Response.ok(page(user, message, Html.EMPTY, Form.EMPTY, cursor).markup()).build();
        });
    }

    /** Requests an export; a refused one re-renders the form with the reason and what was typed. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response request(@CookieParam(DashboardSessions.COOKIE) String cookie, @FormParam("csrf_token") String csrfToken,
                            @FormParam("format") String format, @FormParam("wallet_id") String walletId,
                            @FormParam("from") String from, @FormParam("to") String to) {
        return Access.asForm(sessions, cookie, csrfToken, Role.VIEWER, FORBIDDEN, user -> {
            Form typed = new Form(Listings.present(format).orElse(ExportFormat.CSV.wireName()),
                    Listings.present(walletId).orElse(""), Listings.present(from).orElse(""),
                    Listings.present(to).orElse(""));
            try {
                Optional<String> wallet = Listings.present(walletId);
                ValidationException.check(wallet.isEmpty() || TypedId.isWellFormed(wallet.get(), WalletId.PREFIX),
                        "wallet_id", "'" + wallet.orElse("") + "' is not a wallet id: one looks like " + WalletId.PREFIX + "…");
                Result<ExportJob> job = exports.request(user.user().orgId(),
                        ExportFormat.fromWire(typed.format(), "format"), wallet.map(WalletId::new),
                        day(from, "from", 0), day(to, "to", 1), RequestKey.none());
                return job.isOk()
                        ? Response.seeOther(URI.create(PATH + "?requested=" + job.value().id().value())).build()
                        : refusedForm(user, Access.status(job.rejection()), job.rejection().message(), typed);
            } catch (ValidationException invalid) {
                return refusedForm(user, 400, invalid.getMessage(), typed);
            }
        });
    }

    /** The file of a ready export, as /v1 streams it: an attachment, never cached (the headers' filter says no-store). */
    @GET
    @Path("{exportId}/download")
    public Response download(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("exportId") String exportId) {
        return Access.as(sessions, cookie, Role.VIEWER, FORBIDDEN, user -> {
            if (!TypedId.isWellFormed(exportId, ExportId.PREFIX)) {
                return Access.error(user, 404, "Not Found: no export of that id");
            }
            Result<ExportJob> found = exports.get(user.user().orgId(), new ExportId(exportId));
            if (!found.isOk()) {
                return Access.refused(user, found.rejection());
            }
            ExportJob job = found.value();
            if (job.status() == ExportStatus.EXPIRED) {
                return Access.error(user, 409, "Conflict: export " + job.id().value()
                        + " is expired; its file was deleted, request a new export");
            }
            if (job.status() != ExportStatus.READY || job.filePath().isEmpty()) {
                return Access.error(user, 409, "Conflict: export " + job.id().value() + " is "
                        + job.status().wireName() + "; download it once it is ready");
            }
            java.nio.file.Path file = java.nio.file.Path.of(job.filePath().get());
            StreamingOutput body = out -> Files.copy(file, out);
            String type = job.format() == ExportFormat.CSV ? "text/csv; charset=utf-8" : MediaType.APPLICATION_JSON;
            return Response.ok(body, type)
                    .header("Content-Disposition", "attachment; filename=\"" + job.id().value() + "."
                            + job.format().wireName() + "\"")
                    .build();
        });
    }

    /** What the user typed in the request form, kept when it is shown again. */
    private record Form(String format, String walletId, String from, String to) {
        static final Form EMPTY = new Form(ExportFormat.CSV.wireName(), "", "", "");
    }

    /**
     * The start of the day {@code value} (a {@code yyyy-MM-dd} in UTC) plus {@code days}: "from" is
     * its day's start, "to" the next day's, so that both days are included.
     */
    private static Optional<Instant> day(String value, String param, int days) {
        try {
            return Listings.present(value).map(text -> LocalDate.parse(text).plusDays(days)
                    .atStartOfDay(ZoneOffset.UTC).toInstant());
        } catch (DateTimeParseException e) {
            throw new ValidationException(param, "'" + param + "' must be a date such as 2026-01-31");
        }
    }

    private Response refusedForm(SignedIn user, int status, String message, Form typed) {
        return Response.status(status)
                .entity(page(user, Html.EMPTY, ERROR.render(Map.of("message", message)), typed, null).markup()).build();
    }

    private Html page(SignedIn user, Html message, Html error, Form typed, String cursor) {
        Page<ExportJob> recent = exports.list(user.user().orgId(), Listings.request(cursor));
        Html results = recent.data().isEmpty() ? EMPTY.render(Map.of("message", "No exports yet."))
                : TABLE.render(Map.of("rows", Html.join(recent.data().stream().map(ExportPages::row).toList()),
                "pager", Listings.pager(recent, Listings.present(cursor).isEmpty(), PATH, Map.of(), "exports")));
        Map<String, Object> values = new HashMap<>();
        values.put("message", message);
        values.put("error", error);
        values.put("csrf", user.csrfToken());
        values.put("formats", Html.join(Arrays.stream(ExportFormat.values()).map(format -> OPTION.render(Map.of(
                "value", format.wireName(), "label", format.wireName(),
                "selected", new Html(format.wireName().equals(typed.format()) ? " selected" : "")))).toList()));
        values.put("wallet", typed.walletId());
        values.put("from", typed.from());
        values.put("to", typed.to());
        values.put("results", results);
        return Pages.page("Exports", Optional.of(user), PATH, LIST.render(values));
    }

    private static Html row(ExportJob job) {
        Html range = Html.join(List.of(job.from().map(Shown::time).orElse(Html.text("the start")), Html.text(" until "),
                job.to().map(Shown::time).orElse(Html.text("now"))));
        return ROW.render(Map.of(
                "id", job.id().value(),
                "format", job.format().wireName(),
                "wallet", job.walletId().map(WalletId::value).orElse("all wallets"),
                "range", range,
                "status", job.status().wireName(),
                "rows", job.rowCount().map(String::valueOf).orElse("—"),
                "created", Shown.time(job.createdAt()),
                "download", switch (job.status()) {
                    case READY -> DOWNLOAD.render(Map.of("id", job.id().value(), "format", job.format().wireName()));
                    case PENDING -> Html.text("being written");
                    case EXPIRED -> Html.text("deleted");
                    case FAILED -> Html.text("—");
                },
                "kept", job.expiresAt().map(Shown::time).orElse(Html.text("—"))));
    }
}
