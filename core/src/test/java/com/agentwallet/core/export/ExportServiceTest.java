package com.agentwallet.core.export;

import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.ExportId;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.Scenario;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExportServiceTest {
    private final CoreFixture core = new CoreFixture();
    private final Scenario given = new Scenario(core);
    private OrgId org;
    private WalletId wallet;

    @BeforeEach
    void anOrganisationWithAWallet() {
        org = given.organisation("100.00");
        wallet = given.wallet(org, given.policy(org, rules().build()), "agent-1", "0").wallet().id();
    }

    @Test
    void aRequestIsAPendingJobWithItsFilters() {
        Instant from = core.clock.instant().minusSeconds(3600);
        Instant to = core.clock.instant();

        ExportJob job = core.exports.request(org, ExportFormat.CSV, Optional.of(wallet), Optional.of(from),
                Optional.of(to), RequestKey.none()).value();

        assertThat(job.id().value()).startsWith(ExportId.PREFIX);
        assertThat(job.orgId()).isEqualTo(org);
        assertThat(job.status()).isEqualTo(ExportStatus.PENDING);
        assertThat(job.format()).isEqualTo(ExportFormat.CSV);
        assertThat(job.walletId()).contains(wallet);
        assertThat(job.from()).contains(from);
        assertThat(job.to()).contains(to);
        assertThat(job.filePath()).isEmpty();
        assertThat(job.rowCount()).isEmpty();
        assertThat(job.createdAt()).isEqualTo(core.clock.instant());
        assertThat(job.completedAt()).isEmpty();
        assertThat(core.exports.get(org, job.id()).value()).isEqualTo(job);
        assertThat(requested()).containsExactly(job);
    }

    @Test
    void everyFilterIsOptionalAndAnEmptyRangeIsAllowed() {
        Instant at = core.clock.instant();

        ExportJob all = core.exports.request(org, ExportFormat.JSON, Optional.empty(), Optional.empty(),
                Optional.empty(), RequestKey.none()).value();
        ExportJob empty = core.exports.request(org, ExportFormat.JSON, Optional.empty(), Optional.of(at),
                Optional.of(at), RequestKey.none()).value();

        assertThat(all.walletId()).isEmpty();
        assertThat(all.from()).isEmpty();
        assertThat(empty.from()).contains(at);
        assertThat(requested()).containsExactlyInAnyOrder(all, empty);
    }

    @Test
    void aWalletOutsideTheOrganisationIsNotFoundAndNothingIsRequested() {
        OrgId otherOrg = given.organisation("1.00");
        WalletId foreign = given.wallet(otherOrg, given.policy(otherOrg, rules().build()), "agent-1", "0").wallet().id();
        WalletId unknown = core.ids.wallet();

        assertThat(core.exports.request(org, ExportFormat.CSV, Optional.of(foreign), Optional.empty(), Optional.empty(), RequestKey.none())
                .rejection()).isEqualTo(new Rejection.NotFound("wallet", foreign.value()));
        assertThat(core.exports.request(org, ExportFormat.CSV, Optional.of(unknown), Optional.empty(), Optional.empty(), RequestKey.none())
                .rejection()).isEqualTo(new Rejection.NotFound("wallet", unknown.value()));
        assertThat(requested()).isEmpty();
    }

    @Test
    void fromAfterToIsAValidationErrorOnFrom() {
        Instant to = core.clock.instant();

        assertThatThrownBy(() -> core.exports.request(org, ExportFormat.CSV, Optional.empty(),
                Optional.of(to.plusMillis(1)), Optional.of(to), RequestKey.none()))
                .isInstanceOf(ValidationException.class).extracting("param").isEqualTo("from");
        assertThat(requested()).isEmpty();
    }

    @Test
    void anotherOrganisationsJobIsNotFound() {
        ExportJob job = core.exports.request(org, ExportFormat.CSV, Optional.empty(), Optional.empty(),
                Optional.empty(), RequestKey.none()).value();
        OrgId otherOrg = given.organisation("1.00");

        assertThat(core.exports.get(otherOrg, job.id()).rejection())
                .isEqualTo(new Rejection.NotFound("export", job.id().value()));
    }

    @Test
    void formatsHaveTheirWireNames() {
        assertThat(ExportFormat.fromWire("csv", "format")).isEqualTo(ExportFormat.CSV);
        assertThat(ExportStatus.READY.wireName()).isEqualTo("ready");
        assertThatThrownBy(() -> ExportFormat.fromWire("xlsx", "format"))
                .isInstanceOf(ValidationException.class).hasMessageContaining("csv, json");
    }

    /** The organisation's jobs, newest first. */
    private List<ExportJob> requested() {
        return core.exports.list(org, PageRequest.first(10)).data();
    }
}
