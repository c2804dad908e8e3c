package com.agentwallet.core.export;

import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventType;
import com.agentwallet.core.event.OutboxEvent;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.FakeExportFiles;
import com.agentwallet.core.testing.FakeExportWriter;
import com.agentwallet.core.testing.Outbox;
import com.agentwallet.core.testing.Scenario.FundedWallet;
import com.agentwallet.core.testing.Scenario;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The generator of export files: claimed jobs become ready with their file and announce it, or fail. */
class ExportGenerationTest {
    private static final String PAYEE = Addresses.external("payee");

    private final CoreFixture core = new CoreFixture();
    private final Scenario given = new Scenario(core);
    private final Outbox outbox = new Outbox(core);
    private OrgId org;
    private FundedWallet wallet;
    private FundedWallet other;

    @BeforeEach
    void anOrganisationWithTwoFundedWallets() {
        org = given.organisation("1000.00");
        wallet = given.wallet(org, given.policy(org, rules().build()), "agent-1", "100.00");
        core.clock.advance(Duration.ofSeconds(1));
        other = given.wallet(org, given.policy(org, rules().build()), "agent-2", "100.00");
    }

    @Test
    void aPendingJobBecomesReadyWithItsFileAndRowCountAndAnnouncesIt() {
        List<TxId> paid = payments(wallet, 3);
        ExportJob job = request(ExportFormat.CSV, Optional.of(wallet.wallet().id()), Optional.empty(), Optional.empty());
        core.clock.advance(Duration.ofMinutes(1));
        int mark = outbox.mark();

        assertThat(core.exports.generatePending(10)).isEqualTo(1);

        ExportJob ready = core.exports.get(org, job.id()).value();
        assertThat(ready.status()).isEqualTo(ExportStatus.READY);
        assertThat(ready.rowCount()).contains(4L);
        assertThat(ready.filePath()).contains(FakeExportFiles.path(job.id(), ExportFormat.CSV));
        assertThat(ready.completedAt()).contains(core.clock.instant());
        assertThat(ready.expiresAt()).contains(core.clock.instant().plus(ExportSettings.DEFAULTS.retention()));
        assertThat(lines(job)).containsExactly("begin csv", paid.get(2).value(), paid.get(1).value(),
                paid.get(0).value(), fundingOf(wallet).value(), "end");
        List<OutboxEvent> events = outbox.since(mark);
        assertThat(events).hasSize(1);
        assertThat(events.get(0).event().type()).isEqualTo(EventType.EXPORT_READY);
        assertThat(events.get(0).event().orgId()).isEqualTo(org);
        assertThat(events.get(0).event()).isEqualTo(new DomainEvent.ExportReady(ready));
        assertThat(core.exports.generatePending(10)).isZero();
    }

    @Test
    void theWalletAndTimeFiltersChooseTheRowsFromInclusiveToExclusive() {
        Instant from = core.clock.instant().plusSeconds(1);
        List<TxId> inside = payments(wallet, 3);
        assertThat(transaction(inside.get(0)).createdAt()).isEqualTo(from);
        payments(other, 2);
        core.clock.advance(Duration.ofSeconds(1));
        Instant to = core.clock.instant();
        TxId atTo = given.pay(wallet, PAYEE, "0.01").value().transaction().id();
        ExportJob filtered = request(ExportFormat.JSON, Optional.of(wallet.wallet().id()), Optional.of(from),
                Optional.of(to));
        ExportJob all = request(ExportFormat.CSV, Optional.empty(), Optional.empty(), Optional.empty());

        assertThat(core.exports.generatePending(10)).isEqualTo(2);

        assertThat(lines(filtered)).containsExactly("begin json", inside.get(2).value(), inside.get(1).value(),
                inside.get(0).value(), "end");
        assertThat(core.exports.get(org, filtered.id()).value().rowCount()).contains(3L);
        assertThat(lines(all)).contains(atTo.value(), fundingOf(other).value()).hasSize(1 + 8 + 1);
        assertThat(core.exports.get(org, all.id()).value().rowCount()).contains(2L + 3 + 2 + 1);
    }

    @Test
    void aHistoryLongerThanAPageIsWrittenWholeNewestFirst() {
        List<TxId> paid = payments(wallet, ExportService.PAGE * 2 + 10);
        ExportJob job = request(ExportFormat.CSV, Optional.of(wallet.wallet().id()), Optional.empty(), Optional.empty());

        core.exports.generatePending(1);

        List<String> expected = new ArrayList<>(paid.stream().map(TxId::value).toList());
        Collections.reverse(expected);
        expected.add(fundingOf(wallet).value());
        List<String> lines = lines(job);
        assertThat(lines.subList(1, lines.size() - 1)).containsExactlyElementsOf(expected);
        assertThat(core.exports.get(org, job.id()).value().rowCount()).contains((long) expected.size());
    }

    @Test
    void anEmptyHistoryIsAReadyFileWithNoRows() {
        Instant at = core.clock.instant().plusSeconds(3600);
        ExportJob job = request(ExportFormat.JSON, Optional.empty(), Optional.of(at), Optional.of(at));

        core.exports.generatePending(1);

        assertThat(core.exports.get(org, job.id()).value().rowCount()).contains(0L);
        assertThat(lines(job)).containsExactly("begin json", "end");
    }

    @Test
    void aFailedGenerationMakesTheJobFailedWithNoFileAndNoAnnouncement() {
        payments(wallet, 2);
        ExportJob job = request(ExportFormat.CSV, Optional.empty(), Optional.empty(), Optional.empty());
        core.exportFiles.breakDisk();
        core.clock.advance(Duration.ofSeconds(5));

        assertThat(core.exports.generatePending(10)).isEqualTo(1);

        ExportJob failed = core.exports.get(org, job.id()).value();
        assertThat(failed.status()).isEqualTo(ExportStatus.FAILED);
        assertThat(failed.filePath()).isEmpty();
        assertThat(failed.rowCount()).isEmpty();
        assertThat(failed.completedAt()).contains(core.clock.instant());
        assertThat(core.exportFiles.content(job.id())).isEmpty();
        assertThat(core.exportFiles.unfinished()).isEmpty();
        assertThat(outbox.ofType(EventType.EXPORT_READY)).isEmpty();
        assertThat(core.exports.generatePending(10)).isZero();
    }

    @Test
    void atMostLimitJobsAreGeneratedOldestFirstAndEachOnce() {
        ExportJob first = request(ExportFormat.CSV, Optional.empty(), Optional.empty(), Optional.empty());
        core.clock.advance(Duration.ofSeconds(1));
        ExportJob second = request(ExportFormat.JSON, Optional.empty(), Optional.empty(), Optional.empty());
        core.clock.advance(Duration.ofSeconds(1));
        ExportJob third = request(ExportFormat.CSV, Optional.empty(), Optional.empty(), Optional.empty());

        assertThat(core.exports.generatePending(2)).isEqualTo(2);

        assertThat(status(first)).isEqualTo(ExportStatus.READY);
        assertThat(status(second)).isEqualTo(ExportStatus.READY);
        assertThat(status(third)).isEqualTo(ExportStatus.PENDING);
        assertThat(core.exports.generatePending(2)).isEqualTo(1);
        assertThat(status(third)).isEqualTo(ExportStatus.READY);
        assertThat(Map.of(first, 1, second, 1, third, 1)).allSatisfy((job, times) ->
                assertThat(core.exportFiles.creations(job.id())).isEqualTo(times));
        assertThat(outbox.ofType(EventType.EXPORT_READY)).hasSize(3);
    }

    @Test
    void aReadyFileIsKeptForTheRetentionThenDeletedAndTheJobExpired() {
        payments(wallet, 2);
        ExportJob job = request(ExportFormat.CSV, Optional.empty(), Optional.empty(), Optional.empty());
        core.exports.generatePending(1);
        ExportJob ready = core.exports.get(org, job.id()).value();
        int mark = outbox.mark();

        core.clock.advance(ExportSettings.DEFAULTS.retention().minusMillis(1));
        assertThat(core.exports.expireReady(10)).isZero();
        assertThat(status(job)).isEqualTo(ExportStatus.READY);
        assertThat(core.exportFiles.content(job.id())).isPresent();

        core.clock.advance(Duration.ofMillis(1));
        assertThat(core.exports.expireReady(10)).isEqualTo(1);

        ExportJob expired = core.exports.get(org, job.id()).value();
        assertThat(expired.status()).isEqualTo(ExportStatus.EXPIRED);
        assertThat(expired.filePath()).isEmpty();
        assertThat(expired.rowCount()).isEqualTo(ready.rowCount());
        assertThat(expired.completedAt()).isEqualTo(ready.completedAt());
        assertThat(expired.expiresAt()).isEqualTo(ready.expiresAt());
        assertThat(core.exportFiles.content(job.id())).isEmpty();
        assertThat(outbox.since(mark)).isEmpty();
        assertThat(core.exports.expireReady(10)).isZero();
    }

    @Test
    void aFailedJobNeverExpires() {
        ExportJob job = request(ExportFormat.CSV, Optional.empty(), Optional.empty(), Optional.empty());
        core.exportFiles.breakDisk();
        core.exports.generatePending(1);
        core.clock.advance(ExportSettings.DEFAULTS.retention().multipliedBy(2));

        assertThat(core.exports.expireReady(10)).isZero();
        assertThat(status(job)).isEqualTo(ExportStatus.FAILED);
    }

    @Test
    void everyFormatNeedsAWriter() {
        assertThatThrownBy(() -> new ExportService(core.storage, core.events, core.exportFiles,
                List.of(new FakeExportWriter(ExportFormat.CSV)), core.ids, ExportSettings.DEFAULTS, core.clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("json");
    }

    private ExportJob request(ExportFormat format, Optional<WalletId> walletId, Optional<Instant> from,
                              Optional<Instant> to) {
        return core.exports.request(org, format, walletId, from, to, RequestKey.none()).value();
    }

    /** Payments one second apart, so that their order is their time; oldest first. */
    private List<TxId> payments(FundedWallet from, int count) {
        List<TxId> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            core.clock.advance(Duration.ofSeconds(1));
            ids.add(given.pay(from, PAYEE, "0.01").value().transaction().id());
        }
        return ids;
    }

    private TxId fundingOf(FundedWallet funded) {
        return core.storage.allTransactions().stream()
                .filter(tx -> tx.walletId().equals(funded.wallet().id()))
                .min(Comparator.comparing(Transaction::createdAt)).orElseThrow().id();
    }

    private Transaction transaction(TxId id) {
        return core.storage.allTransactions().stream().filter(tx -> tx.id().equals(id)).findFirst().orElseThrow();
    }

    private List<String> lines(ExportJob job) {
        return List.of(core.exportFiles.content(job.id()).orElseThrow().split("\n"));
    }

    private ExportStatus status(ExportJob job) {
        return core.exports.get(org, job.id()).value().status();
    }
}
