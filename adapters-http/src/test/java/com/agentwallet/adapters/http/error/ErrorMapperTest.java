package com.agentwallet.adapters.http.error;

import com.agentwallet.adapters.http.json.ApiJson;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.policy.Violation;
import com.agentwallet.core.port.LedgerUnavailableException;
import com.agentwallet.core.port.StorageUnavailableException;
import com.agentwallet.core.policy.ViolationRule;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ErrorMapperTest {
    private final ErrorMapper mapper = new ErrorMapper();
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

    @Test
    void domainRefusalsGetTheContractsStatuses() {
        assertThat(mapper.toResponse(ErrorResponses.of(new Rejection.NotFound("wallet", "wal_x"))).getStatus())
                .isEqualTo(404);
        assertThat(mapper.toResponse(ErrorResponses.of(new Rejection.IdempotencyConflict("k"))).getStatus())
                .isEqualTo(409);
        assertThat(mapper.toResponse(ErrorResponses.of(new Rejection.SameCredential())).getStatus()).isEqualTo(403);
        assertThat(mapper.toResponse(ErrorResponses.of(new Rejection.PolicyViolated(
                new Violation(ViolationRule.SESSION_TOKEN, "wal_x", "missing")))).getStatus()).isEqualTo(401);
        Response violated = mapper.toResponse(ErrorResponses.of(new Rejection.PolicyViolated(
                new Violation(ViolationRule.MAX_PER_DAY, "200.00", "210.00"))));
        assertThat(violated.getStatus()).isEqualTo(422);
        assertThat(detail(violated).violation()).isEqualTo(new ErrorJson.ViolationJson("max_per_day", "200.00", "210.00"));
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
