package com.agentwallet.adapters.http.resource;

import com.agentwallet.adapters.http.auth.AgentToken;
import com.agentwallet.adapters.http.auth.Caller;
import com.agentwallet.adapters.http.auth.RequiresRole;
import com.agentwallet.adapters.http.error.ErrorResponses;
import com.agentwallet.adapters.http.view.ExportJson;
import com.agentwallet.adapters.http.view.ListJson;
import com.agentwallet.adapters.http.view.TransactionJson;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Timestamps;
import com.agentwallet.core.export.ExportFormat;
import com.agentwallet.core.export.ExportJob;
import com.agentwallet.core.export.ExportService;
import com.agentwallet.core.export.ExportStatus;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.payment.PaymentService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.core.UriInfo;

import java.nio.file.Files;
import java.util.Optional;

import static com.agentwallet.adapters.http.error.ErrorResponses.orThrow;
import static java.util.Objects.requireNonNull;

/** {@code /transactions}: the organisation's history of every movement, newest first, and its exports. */
@Path("/transactions")
@Produces(MediaType.APPLICATION_JSON)
public final class TransactionResource {
    private final PaymentService payments;
    private final ExportService exports;

    public TransactionResource(PaymentService payments, ExportService exports) {
        this.payments = requireNonNull(payments, "payments is null");
        this.exports = requireNonNull(exports, "exports is null");
    }

    public record ExportRequestJson(String format, String walletId, String from, String to) {
    }

    @GET
    @RequiresRole(Role.VIEWER)
    public ListJson<TransactionJson> list(@Context SecurityContext security, @Context UriInfo uri) {
        QueryParams query = QueryParams.of(uri, "wallet_id", "status", "type", "from", "to");
        return ListJson.of(payments.list(Caller.of(security).orgId(),
                TransactionQuery.of(query, query.get("wallet_id").map(WalletResource::walletId)), query.page()),
                TransactionJson::of);
    }

    @GET
    @Path("/{id}")
    @RequiresRole(Role.VIEWER)
    @AgentToken
    public TransactionJson get(@Context SecurityContext security, @PathParam("id") String id) {
        return PaymentResource.read(payments, Caller.of(security), id);
    }

    /** Starts an export of the history; the job answers 202 and {@code export.ready} fires when the file is there. */
    @POST
    @Path("/export")
    @Consumes(MediaType.APPLICATION_JSON)
    @RequiresRole(Role.VIEWER)
    public Response export(@Context SecurityContext security, @Context ContainerRequestContext request,
                           ExportRequestJson body) {
        Bodies.required(body);
        Caller caller = Caller.of(security);
        RequestKey key = IdempotencyKeyHeader.of(caller, request, body);
        ExportJob job = orThrow(exports.request(caller.orgId(),
                ExportFormat.fromWire(Bodies.required(body.format(), "format"), "format"),
                Optional.ofNullable(body.walletId()).map(WalletResource::walletId),
                Optional.ofNullable(body.from()).map(text -> Timestamps.parse(text, "from")),
                Optional.ofNullable(body.to()).map(text -> Timestamps.parse(text, "to")), key));
        return IdempotencyKeyHeader.answer(key, Response.status(Response.Status.ACCEPTED).entity(ExportJson.of(job)));
    }

    @GET
    @Path("/exports/{id}")
    @RequiresRole(Role.VIEWER)
    public ExportJson exportJob(@Context SecurityContext security, @PathParam("id") String id) {
        return ExportJson.of(orThrow(exports.get(Caller.of(security).orgId(), exportId(id))));
    }

    /** The file of a ready export, streamed; before that or once it expired, 409 with the job's status. */
    @GET
    @Path("/exports/{id}/download")
    @Produces({"text/csv", MediaType.APPLICATION_JSON})
    @RequiresRole(Role.VIEWER)
    public Response download(@Context SecurityContext security, @PathParam("id") String id) {
        ExportJob job = orThrow(exports.get(Caller.of(security).orgId(), exportId(id)));
        if (job.status() == ExportStatus.EXPIRED) {
            throw ErrorResponses.of(new Rejection.InvalidState("Export " + job.id()
                    + " is expired: its file was deleted after the retention; request a new export"));
        }
        if (job.status() != ExportStatus.READY || job.filePath().isEmpty()) {
            throw ErrorResponses.of(new Rejection.InvalidState("Export " + job.id() + " is "
                    + job.status().wireName() + "; download it once it is ready (export.ready fires then)"));
        }
        java.nio.file.Path file = java.nio.file.Path.of(job.filePath().get());
        String type = job.format() == ExportFormat.CSV ? "text/csv; charset=utf-8" : MediaType.APPLICATION_JSON;
        StreamingOutput body = out -> Files.copy(file, out);
        return Response.ok(body, type)
                .header("Content-Disposition", "attachment; filename=\"" + job.id().value() + "."
                        + job.format().wireName() + "\"")
                .build();
    }

    private static ExportId exportId(String id) {
        return PathIds.parse(id, "export", ExportId::new);
    }
}
