package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Actor;
import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.TypedId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.CreatePolicy;
import com.agentwallet.core.policy.FieldChange;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyAuditEntry;
import com.agentwallet.core.policy.PolicyPatch;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.user.DashboardUser;
import com.agentwallet.core.user.UserService;
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
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * The admin's policies: the list, creating one from a form with every rule, editing one (the form
 * prefilled; only the changed fields are patched), cloning, deleting, and each policy's audit log
 * with the diff of every change. The same use cases, with the same checks, as /v1/policies; a form
 * carries no idempotency key, as a /v1 request without the header does not.
 */
@Singleton
@Path("policies")
@Produces(MediaType.TEXT_HTML + ";charset=utf-8")
public final class PolicyPages {
    private static final String FORBIDDEN = "Forbidden: only an admin or an owner manages policies";
    static final String PATH = Dashboard.PATH + "/policies";

    private static final Template LIST = Template.load("policies.html");
    private static final Template ROW = Template.load("policy-row.html");
    private static final Template EMPTY = Template.load("policies-empty.html");
    private static final Template NEXT = Template.load("policy-next-page.html");
    private static final Template FORM = Template.load("policy-form.html");
    private static final Template VERSION = Template.load("policy-version.html");
    private static final Template NEW = Template.load("policy-new.html");
    private static final Template EDIT = Template.load("policy-edit.html");
    private static final Template AUDIT = Template.load("policy-audit.html");
    private static final Template ENTRY = Template.load("policy-audit-entry.html");
    private static final Template CHANGE = Template.load("policy-audit-change.html");
    private static final Template NEXT_ROW = Template.load("policy-audit-next-row.html");
    private static final Template NO_CHANGE = Template.load("policy-audit-none.html");
    private static final Template BEFORE = Template.load("policy-before.html");
    private static final Template AFTER = Template.load("policy-after.html");
    private static final Template UNSET = Template.load("policy-unset.html");
    private static final Template ACTOR = Template.load("policy-actor.html");
    private static final Template ERROR = Template.load("sign-in-error.html");

    private final DashboardSessions sessions;
    private final PolicyService policies;
    private final UserService users;

    @Inject
    public PolicyPages(DashboardSessions sessions, PolicyService policies, UserService users) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.policies = requireNonNull(policies, "policies is null");
        this.users = requireNonNull(users, "users is null");
    }

    /** A page of the organisation's policies, newest first; {@code cursor} is the list's, as /v1 gives it. */
    @GET
    public Response list(@CookieParam(DashboardSessions.COOKIE) String cookie, @QueryParam("cursor") String cursor) {
        return Access.as(sessions, cookie, Role.ADMIN, FORBIDDEN, admin -> {
            Page<Policy> page = policies.list(admin.user().orgId(), page(cursor));
            List<Html> rows = page.data().stream().map(PolicyPages::row).toList();
            Html main = LIST.render(Map.of("rows", rows.isEmpty() ? EMPTY.render(Map.of()) : Html.join(rows),
                    "more", next(PATH, page)));
            return Response.ok(Pages.page("Policies", Optional.of(admin), PATH, main).markup()).build();
        });
    }

    @GET
    @Path("new")
    public Response newForm(@CookieParam(DashboardSessions.COOKIE) String cookie) {
        return Access.as(sessions, cookie, Role.ADMIN, FORBIDDEN,
                admin -> Response.ok(newPage(admin, PolicyForm.EMPTY, Html.EMPTY).markup()).build());
    }

    /** Creates the policy and shows it; refused, the form again with the reason and what was typed. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response create(@CookieParam(DashboardSessions.COOKIE) String cookie, MultivaluedMap<String, String> form) {
        return Access.asForm(sessions, cookie, form.getFirst("csrf_token"), Role.ADMIN, FORBIDDEN, admin -> {
            PolicyForm typed = PolicyForm.of(form);
            try {
                Result<Policy> created = policies.create(new CreatePolicy(admin.user().orgId(), typed.newName(),
                        typed.forCreation(), actor(admin)), RequestKey.none());
                return created.isOk() ? toPolicy(created.value())
                        : Response.status(Access.status(created.rejection()))
                        .entity(newPage(admin, typed, error(created.rejection().message())).markup()).build();
            } catch (ValidationException invalid) {
                return Response.status(400).entity(newPage(admin, typed, error(invalid.getMessage())).markup()).build();
            }
        });
    }

    /** The policy's page: its rules in the edit form, cloning and deleting. */
    @GET
    @Path("{id}")
    public Response show(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("id") String id) {
        return Access.as(sessions, cookie, Role.ADMIN, FORBIDDEN, admin -> withPolicy(admin, id,
                policy -> Response.ok(editPage(admin, policy, PolicyForm.of(policy), Html.EMPTY).markup()).build()));
    }

    /**
     * Patches the fields whose value the form changed. The form carries the version it showed: if the
     * policy changed since, nothing is written and the form shows the policy as it is now, so that
     * nobody undoes a change they never saw.
     */
    @POST
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response update(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("id") String id,
                           MultivaluedMap<String, String> form) {
        return Access.asForm(sessions, cookie, form.getFirst("csrf_token"), Role.ADMIN, FORBIDDEN,
                admin -> withPolicy(admin, id, current -> {
            PolicyForm typed = PolicyForm.of(form);
            if (!String.valueOf(current.version()).equals(form.getFirst("version"))) {
                return Response.status(409).entity(editPage(admin, current, PolicyForm.of(current),
                        error("The policy was changed since the form was opened (it is now version "
                                + current.version() + "); here it is as it is now: make your change again"))
                        .markup()).build();
            }
            try {
                PolicyPatch patch = typed.changesTo(current);
                Result<Policy> updated = policies.update(admin.user().orgId(), current.id(), patch, actor(admin));
                return updated.isOk() ? toPolicy(updated.value())
                        : Response.status(Access.status(updated.rejection())).entity(editPage(admin, current, typed,
                        error(updated.rejection().message())).markup()).build();
            } catch (ValidationException invalid) {
                return Response.status(400).entity(editPage(admin, current, typed, error(invalid.getMessage()))
                        .markup()).build();
            }
        }));
    }

    /** A new policy with this one's rules, named as typed, or "… (copy)" when left blank. */
    @POST
    @Path("{id}/clone")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response cloneOf(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("id") String id,
                            @FormParam("csrf_token") String csrfToken, @FormParam("name") String name) {
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, FORBIDDEN, admin -> withPolicy(admin, id,
                source -> {
            PolicyPatch overrides = name == null || name.isBlank() ? PolicyPatch.NONE
                    : PolicyPatch.NONE.withName(Policy.requireName(name.trim()));
            Result<Policy> copy = policies.clone(admin.user().orgId(), source.id(), overrides, actor(admin),
                    RequestKey.none());
            return copy.isOk() ? toPolicy(copy.value()) : Access.refused(admin, copy.rejection());
        }));
    }

    /** Deletes a policy no wallet uses; one in use is a 409 page. */
    @POST
    @Path("{id}/delete")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response delete(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("id") String id,
                           @FormParam("csrf_token") String csrfToken) {
        return Access.asForm(sessions, cookie, csrfToken, Role.ADMIN, FORBIDDEN, admin -> withPolicy(admin, id,
                policy -> {
            Result<Policy> deleted = policies.delete(admin.user().orgId(), policy.id(), actor(admin));
            return deleted.isOk() ? Response.seeOther(URI.create(PATH)).build()
                    : Access.refused(admin, deleted.rejection());
        }));
    }

    /** A page of the policy's changes, newest first, each with who made it and each field before and after. */
    @GET
    @Path("{id}/audit")
    public Response audit(@CookieParam(DashboardSessions.COOKIE) String cookie, @PathParam("id") String id,
                          @QueryParam("cursor") String cursor) {
        return Access.as(sessions, cookie, Role.ADMIN, FORBIDDEN, admin -> withPolicy(admin, id, policy -> {
            Result<Page<PolicyAuditEntry>> log = policies.auditLog(admin.user().orgId(), policy.id(), page(cursor));
            if (!log.isOk()) {
                return Access.refused(admin, log.rejection());
            }
            Map<String, String> emails = users.list(admin.user().orgId()).stream()
                    .collect(Collectors.toMap(user -> user.id().value(), DashboardUser::email));
            List<Html> entries = log.value().data().stream().map(entry -> entry(entry, emails)).toList();
            Html main = AUDIT.render(Map.of("name", policy.name(), "id", policy.id().value(),
                    "entries", Html.join(entries), "more", next(PATH + "/" + policy.id().value() + "/audit", log.value())));
            return Response.ok(Pages.page("Audit log of " + policy.name(), Optional.of(admin), PATH, main).markup())
                    .build();
        }));
    }

    /** {@code action} on the organisation's policy of that id; a malformed or unknown id is a 404 page. */
    private Response withPolicy(SignedIn admin, String id, Function<Policy, Response> action) {
        if (!TypedId.isWellFormed(id, PolicyId.PREFIX)) {
            return Access.error(admin, 404, "Not Found: no policy of that id in your organisation");
        }
        Result<Policy> policy = policies.get(admin.user().orgId(), new PolicyId(id));
        return policy.isOk() ? action.apply(policy.value()) : Access.refused(admin, policy.rejection());
    }

    private static Actor actor(SignedIn user) {
        return new Actor(user.user().userId().value());
    }

    private static PageRequest page(String cursor) {
        return new PageRequest(PageRequest.DEFAULT_LIMIT, Optional.ofNullable(cursor).filter(text -> !text.isEmpty()));
    }

    private static Response toPolicy(Policy policy) {
        return Response.seeOther(URI.create(PATH + "/" + policy.id().value())).build();
    }

    private static Html next(String path, Page<?> page) {
        return page.nextCursor().map(cursor -> NEXT.render(Map.of("href",
                path + "?cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8)))).orElse(Html.EMPTY);
    }

    private static Html error(String message) {
        return ERROR.render(Map.of("message", message));
    }

    private static Html row(Policy policy) {
        PolicyRules rules = policy.rules();
        return ROW.render(Map.of(
                "id", policy.id().value(),
                "name", policy.name(),
                "maxPerTx", cap(rules.maxPerTx()),
                "maxPerDay", cap(rules.maxPerDay()),
                "maxPerMonth", cap(rules.maxPerMonth()),
                "velocityCap", rules.velocityCap().map(String::valueOf).orElse("no cap"),
                "requireCoSign", rules.requireCoSign().map(Usdc::toString).orElse("never"),
                "expiry", rules.expiry().map(Shown::time).orElse(Html.text("never")),
                "created", Shown.time(policy.createdAt()),
                "updated", Shown.time(policy.updatedAt())));
    }

    private static String cap(Optional<Usdc> amount) {
        return amount.map(Usdc::toString).orElse("no cap");
    }

    private Html newPage(SignedIn admin, PolicyForm typed, Html error) {
        Html form = form(admin, PATH, typed, Html.EMPTY, "Create policy", error);
        return Pages.page("New policy", Optional.of(admin), PATH, NEW.render(Map.of("form", form)));
    }

    private Html editPage(SignedIn admin, Policy policy, PolicyForm typed, Html error) {
        String id = policy.id().value();
        Html form = form(admin, PATH + "/" + id, typed,
                VERSION.render(Map.of("version", String.valueOf(policy.version()))), "Save changes", error);
        return Pages.page("Policy " + policy.name(), Optional.of(admin), PATH, EDIT.render(Map.of(
                "name", policy.name(), "id", id, "version", String.valueOf(policy.version()),
                "created", Shown.time(policy.createdAt()), "updated", Shown.time(policy.updatedAt()),
                "csrf", admin.csrfToken(), "form", form)));
    }

    private static Html form(SignedIn admin, String action, PolicyForm typed, Html hidden, String button, Html error) {
        return FORM.render(Map.ofEntries(
                Map.entry("error", error), Map.entry("action", action), Map.entry("csrf", admin.csrfToken()),
                Map.entry("hidden", hidden), Map.entry("button", button), Map.entry("name", typed.name()),
                Map.entry("maxPerTx", typed.maxPerTx()), Map.entry("maxPerDay", typed.maxPerDay()),
                Map.entry("maxPerMonth", typed.maxPerMonth()), Map.entry("velocityCap", typed.velocityCap()),
                Map.entry("allowedRecipients", typed.allowedRecipients()),
                Map.entry("blockedCategories", typed.blockedCategories()), Map.entry("expiry", typed.expiry()),
                Map.entry("requireCoSign", typed.requireCoSign()), Map.entry("coSigner", typed.coSigner())));
    }

    /** One change as a group of rows: one per changed field, the version, time, actor and kind spanning them. */
    private static Html entry(PolicyAuditEntry entry, Map<String, String> emails) {
        List<Html> changes = new ArrayList<>();
        for (FieldChange change : entry.changes()) {
            changes.add(CHANGE.render(Map.of("field", change.field(),
                    "before", value(BEFORE, change.oldValue()), "after", value(AFTER, change.newValue()))));
        }
        if (changes.isEmpty()) {
            changes.add(NO_CHANGE.render(Map.of()));
        }
        String who = emails.get(entry.actor().id());
        return ENTRY.render(Map.of(
                "span", String.valueOf(changes.size()),
                "version", String.valueOf(entry.version()),
                "when", Shown.time(entry.at()),
                "who", who != null ? Html.text(who) : ACTOR.render(Map.of("id", entry.actor().id())),
                "action", entry.action().wireName(),
                "first", changes.get(0),
                "rest", Html.join(changes.subList(1, changes.size()).stream()
                        .map(change -> NEXT_ROW.render(Map.of("change", change))).toList())));
    }

    /** A field's wire value as read: unset, an empty list as "none", a list comma-separated. */
    private static Html value(Template mark, Object value) {
        if (value == null) {
            return UNSET.render(Map.of());
        }
        String text = value instanceof List<?> list
                ? list.isEmpty() ? "none" : list.stream().map(String::valueOf).collect(Collectors.joining(", "))
                : String.valueOf(value);
        return mark.render(Map.of("value", text));
    }
}
