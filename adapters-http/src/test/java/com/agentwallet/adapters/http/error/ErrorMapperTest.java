package com.agentwallet.adapters.http.error;

import com.agentwallet.adapters.http.json.ApiJson;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.core.policy.ViolationRule;
import com.agentwallet.core.port.LedgerUnavailableException;
import com.agentwallet.core.port.StorageUnavailableException;
import com.agentwallet.edge.error.ErrorCatalogue;
import com.agentwallet.edge.error.ErrorDocs;
import com.agentwallet.edge.error.ErrorJson;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ErrorMapperTest {
    private final ErrorMapper mapper = new ErrorMapper(ErrorDocs.SERVED);
    private final ObjectMapper json = ApiJson.configure(new ObjectMapper());

    public record Body(String amount) {
    }

    @Test
    void anUnexpectedFailureIsA500WithoutItsStackTrace() throws Exception {
        Response response = mapper.toResponse(new IllegalStateException("connection pool exhausted at com.example"));

        String body = json.writeValueAsString(response.getEntity());
        assertThat(response.getStatus()).isEqualTo(500);
        assertThat(body).contains("\"code\":\"internal_error\"").doesNotContain("pool").doesNotContain("at com.");
    }

    @Test
    void aBrokenDatabaseConnectionIsARetryable503WithoutTheDatabasesWords() throws Exception {
        Response response = mapper.toResponse(new StorageUnavailableException("The database connection failed (SQLState"
                + " 57P01): FATAL: terminating connection", new SQLException("FATAL: terminating connection", "57P01")));

        String body = json.writeValueAsString(response.getEntity());
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeaderString("Retry-After")).isEqualTo("1");
        assertThat(detail(response).code()).isEqualTo("service_unavailable");
        assertThat(detail(response).message()).contains("idempotency_key");
        assertThat(body).doesNotContain("57P01").doesNotContain("FATAL");
    }

    @Test
    void aLedgerThatDidNotConfirmIsARetryable503() {
        Response response = mapper.toResponse(new LedgerUnavailableException("The ledger did not confirm OpenWallet"));

        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeaderString("Retry-After")).isEqualTo("1");
        assertThat(detail(response).code()).isEqualTo("service_unavailable");
        assertThat(detail(response).message()).doesNotContain("OpenWallet");
    }

    @Test
    void onlyA503CarriesRetryAfter() {
        assertThat(mapper.toResponse(new IllegalStateException("boom")).getHeaderString("Retry-After")).isNull();
        assertThat(mapper.toResponse(ErrorResponses.of(new Rejection.IdempotencyConflict("k")))
                .getHeaderString("Retry-After")).isNull();
    }

    @Test
    void anUnknownFieldIsA400NamingIt() {
        assertThatThrownBy(() -> json.readValue("{\"amount\":\"1.00\",\"amuont\":\"2\"}", Body.class))
                .satisfies(failure -> {
                    ErrorJson.Detail error = detail(mapper.toResponse(failure));
                    assertThat(error.code()).isEqualTo("validation_error");
                    assertThat(error.param()).isEqualTo("amuont");
                });
    }

    @Test
    void aJsonNumberWhereAnAmountStringBelongsIsA400NamingTheField() {
        assertThatThrownBy(() -> json.readValue("{\"amount\":12.5}", Body.class))
                .satisfies(failure -> assertThat(detail(mapper.toResponse(failure)).param()).isEqualTo("amount"));
    }

    static Stream<Arguments> everyKindOfRefusal() {
        return Stream.of(
                Arguments.of(new Rejection.NotFound("wallet", "wal_x"), 404, "not_found"),
                Arguments.of(new Rejection.InvalidState("frozen"), 409, "invalid_state"),
                Arguments.of(new Rejection.AlreadyExists("agent-1 has a wallet"), 409, "already_exists"),
                Arguments.of(new Rejection.IdempotencyConflict("k"), 409, "idempotency_conflict"),
                Arguments.of(new Rejection.PolicyViolated(new Violation(ViolationRule.SESSION_TOKEN, "wal_x", "missing")),
                        401, "session_token_invalid"),
                Arguments.of(new Rejection.PolicyViolated(new Violation(ViolationRule.MAX_PER_TX, "10.00", "25.00")),
                        422, "policy_violation"),
                Arguments.of(new Rejection.InsufficientFunds("balance 1.00"), 422, "insufficient_funds"),
                Arguments.of(new Rejection.ProofMismatch(), 422, "proof_mismatch"),
                Arguments.of(new Rejection.SameCredential(), 403, "same_credential"),
                Arguments.of(new Rejection.Forbidden(Role.OPERATOR, "the receiver's side"), 403,
                        "insufficient_permissions"),
                Arguments.of(new Rejection.InvalidInput("signature", "not the co-signer's"), 400, "validation_error"),
                Arguments.of(new Rejection.SignInRefused(Duration.ofMillis(250)), 401, "authentication_failed"),
                Arguments.of(new Rejection.AccountLocked(Instant.parse("2026-04-01T12:15:00Z"), Duration.ofSeconds(2)),
                        429, "rate_limit_exceeded"));
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource("everyKindOfRefusal")
    void eachKindOfRefusalHasTheContractsStatusAndCode(Rejection rejection, int status, String code) {
        Response response = mapper.toResponse(ErrorResponses.of(rejection));

        assertThat(response.getStatus()).isEqualTo(status);
        assertThat(detail(response).code()).isEqualTo(code);
        assertThat(detail(response).message()).isEqualTo(rejection.message());
        assertThat(detail(response).docs()).isEqualTo("/docs/errors#" + code);
        assertThat(ErrorCatalogue.entry(code)).hasValueSatisfying(entry -> assertThat(entry.status()).isEqualTo(status));
    }

    @Test
    void aConfiguredBaseMakesTheDocsLink() {
        ErrorMapper configured = new ErrorMapper(new ErrorDocs("https://docs.example.com/api/errors#"));

        assertThat(detail(configured.toResponse(new NotFoundException())).docs())
                .isEqualTo("https://docs.example.com/api/errors#not_found");
    }

    @Test
    void aCodeTheCatalogueDoesNotListIsAProgrammersError() {
        assertThatThrownBy(() -> ApiException.of(418, "teapot", "short and stout"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("teapot");
    }

    @Test
    void everyKindOfRefusalIsInTheTable() {
        List<Class<?>> tabled = everyKindOfRefusal().<Class<?>>map(arguments -> arguments.get()[0].getClass()).toList();
        assertThat(tabled).containsAll(List.of(Rejection.class.getPermittedSubclasses()));
    }

    @Test
    void domainRefusalsCarryTheContractsDetails() {
        Response violated = mapper.toResponse(ErrorResponses.of(new Rejection.PolicyViolated(
                new Violation(ViolationRule.MAX_PER_DAY, "200.00", "210.00"))));
        assertThat(violated.getStatus()).isEqualTo(422);
        assertThat(detail(violated).violation()).isEqualTo(new ErrorJson.ViolationJson("max_per_day", "200.00", "210.00"));
        assertThat(detail(mapper.toResponse(ErrorResponses.of(new Rejection.Forbidden(Role.OPERATOR, "not yours"))))
                .requiredRole()).isEqualTo("operator");
        assertThat(detail(mapper.toResponse(ErrorResponses.of(new Rejection.InvalidInput("signature", "wrong key"))))
                .param()).isEqualTo("signature");
        assertThat(detail(mapper.toResponse(new ValidationException("limit", "too big"))).param()).isEqualTo("limit");
    }

    @Test
    void jerseysOwnRefusalsSpeakTheContractToo() {
        assertThat(detail(mapper.toResponse(new NotFoundException())).code()).isEqualTo("not_found");
        Response notAllowed = mapper.toResponse(new NotAllowedException("GET"));
        assertThat(notAllowed.getStatus()).isEqualTo(405);
        assertThat(detail(notAllowed).code()).isEqualTo("method_not_allowed");
    }

    private static ErrorJson.Detail detail(Response response) {
        return ((ErrorJson) response.getEntity()).error();
    }
}
