package com.agentwallet.edge.error;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every error code the service answers, with its HTTP status and what it means: the one list that
 * the page {@link ErrorDocs#PATH} is made of, and that {@code ApiException} and {@link ErrorJson}
 * accept codes from, so an error body never links to an anchor the page lacks.
 */
public final class ErrorCatalogue {
    /** One code: {@code status} is the HTTP status it comes with, {@code meaning} says when and what to do. */
    public record Entry(String code, int status, String meaning) {
    }

    private static final List<Entry> ENTRIES = List.of(
            new Entry("validation_error", 400, "The request is not valid: malformed JSON, a wrong type, a bad amount, an "
                    + "unknown field or query parameter, a bad enum value, a missing required field, a wrong "
                    + "co-signature, or a payment or escrow to the paying wallet's own address. param names the field "
                    + "(body for a body that is not JSON, not UTF-8 or of the wrong shape; path, headers or request "
                    + "for a request the web server could not take). Nothing changed; fix the request."),
            new Entry("authentication_failed", 401, "No credential, an unknown, malformed or revoked API key, a session "
                    + "token that is not the service's, or, outside payments and escrow locks, a rotated or expired "
                    + "one."),
            new Entry("session_token_invalid", 401, "A payment or escrow lock without a valid session token for the "
                    + "wallet (missing, expired, rotated, or scoped to another wallet). violation has the rule "
                    + "session_token; the attempt is recorded as blocked and transaction.blocked fires."),
            new Entry("insufficient_permissions", 403, "The API key's role is below the endpoint's, a session token "
                    + "called an endpoint only API keys may call, or a party to an escrow asked for what only the "
                    + "other side may do. required_role names the lowest API-key role that would do."),
            new Entry("same_credential", 403, "The API key that made a payment tried to co-sign or reject it; another "
                    + "credential must."),
            new Entry("https_required", 403, "The request came over plain HTTP; send it to the https:// address."),
            new Entry("not_found", 404, "No such resource in the caller's organisation (another organisation's ids "
                    + "are never revealed), or no such endpoint."),
            new Entry("method_not_allowed", 405, "The path exists but not with this method, or the method is one the "
                    + "server takes nowhere."),
            new Entry("payload_too_large", 413, "The request body is longer than the server accepts (1 MiB unless "
                    + "configured otherwise). Nothing changed; the connection is closed after the answer."),
            new Entry("idempotency_conflict", 409, "The idempotency key was used before with a different request. "
                    + "Use a new key for a new request."),
            new Entry("invalid_state", 409, "The resource's state forbids the request: paying from a frozen or archived "
                    + "wallet, completing a refunded escrow, deleting a policy in use, downloading an export that is "
                    + "not ready or has expired, adding a webhook past the organisation's limit."),
            new Entry("already_exists", 409, "A second wallet for the same agent_id in one organisation (its address "
                    + "would be the same)."),
            new Entry("proof_mismatch", 422, "The escrow completion's proof differs from the escrow's expected_proof; "
                    + "nothing moved."),
            new Entry("policy_violation", 422, "A check of the wallet's spending policy failed; violation names the rule, "
                    + "its limit and what the payment would have made of it. The attempt is recorded as blocked and "
                    + "transaction.blocked fires."),
            new Entry("insufficient_funds", 422, "The wallet's or the organisation's balance is too low."),
            new Entry("rate_limit_exceeded", 429, "The token bucket is empty; retry after the Retry-After header's "
                    + "seconds, backing off with jitter."),
            new Entry("service_unavailable", 503, "The database or the ledger could not complete the request for now; "
                    + "nothing is half-done. Retry after the Retry-After header's seconds, with the same idempotency "
                    + "key."),
            new Entry("internal_error", 500, "Something failed on the service's side (500, or another 5xx the web "
                    + "server chose); the request_id finds it in the server's log."));

    private static final Map<String, Entry> BY_CODE = ENTRIES.stream()
            .collect(Collectors.toMap(Entry::code, Function.identity(), (a, b) -> {
                throw new IllegalStateException("code listed twice: " + a.code());
            }, LinkedHashMap::new));

    private ErrorCatalogue() {
    }

    /** Every entry, in the order of the page. */
    public static List<Entry> entries() {
        return ENTRIES;
    }

    public static Set<String> codes() {
        return BY_CODE.keySet();
    }

    public static Optional<Entry> entry(String code) {
        return Optional.ofNullable(BY_CODE.get(code));
    }

    /** {@code code}, or an {@link IllegalArgumentException} when the catalogue does not list it (a programmer error). */
    public static String require(String code) {
        if (!BY_CODE.containsKey(code)) {
            throw new IllegalArgumentException("the error code '" + code + "' is not in the ErrorCatalogue");
        }
        return code;
    }

    /**
     * The page {@link ErrorDocs#PATH}: one element {@code id="<code>"} per code, with its status and
     * meaning, so that an error body's {@code docs} link lands on its code.
     */
    public static String html() {
        StringBuilder page = new StringBuilder(8192);
        page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>Agent Wallet API: error codes</title>\n</head>\n<body>\n")
                .append("<h1>Agent Wallet API: error codes</h1>\n")
                .append("<p>Every refusal of the API (<code>/v1</code>) and of the agents' MCP endpoint "
                        + "(<code>/mcp</code>) has the body <code>{\"error\":{\"code\",\"message\",\"docs\","
                        + "\"request_id\"}}</code>, plus <code>param</code> on validation errors, "
                        + "<code>required_role</code> on <code>insufficient_permissions</code> and "
                        + "<code>violation</code> <code>{rule, limit, attempted}</code> on policy violations and "
                        + "<code>session_token_invalid</code>. <code>docs</code> links to the code's entry below.</p>\n")
                .append("<table>\n<thead><tr><th>code</th><th>status</th><th>meaning</th></tr></thead>\n<tbody>\n");
        for (Entry entry : ENTRIES) {
            page.append("<tr id=\"").append(escape(entry.code())).append("\"><td><code>").append(escape(entry.code()))
                    .append("</code></td><td>").append(entry.status()).append("</td><td>")
                    .append(escape(entry.meaning())).append("</td></tr>\n");
        }
        return page.append("</tbody>\n</table>\n</body>\n</html>\n").toString();
    }

    private static String escape(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
