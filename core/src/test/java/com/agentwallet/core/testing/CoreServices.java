package com.agentwallet.core.testing;

import com.agentwallet.core.CoreSettings;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.export.ExportService;
import com.agentwallet.core.export.ExportSettings;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.payment.IdempotencyKeys;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.payment.Spending;
import com.agentwallet.core.policy.PolicyService;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.wallet.Allocation;
import com.agentwallet.core.wallet.WalletService;
import com.agentwallet.core.webhook.WebhookLimits;
import com.agentwallet.core.webhook.WebhookService;

import java.time.Clock;
import java.util.UUID;

/** Every use case of the core, wired to the given ports: for tests of adapters that need the whole core. */
public class CoreServices {
    public final EventPublisher events;
    public final Settlement settlement;
    public final OrganisationService organisations;
    public final PolicyService policies;
    public final WalletService wallets;
    public final IdempotencyKeys idempotency;
    public final PaymentService payments;
    public final EscrowService escrows;
    /** The receivers webhooks may use: all, until a test refuses a host. */
    public final FakeReceiverGuard receivers = new FakeReceiverGuard();
    public final WebhookService webhooks;
    /** Where export files go: memory, until a test breaks the disk. */
    public final FakeExportFiles exportFiles = new FakeExportFiles();
    public final ExportService exports;
    /** What the payments counted. */
    public final CountingMetrics metrics = new CountingMetrics();

    public CoreServices(Storage storage, LedgerPort ledger, Clock clock, IdGenerator ids, CoreSettings settings) {
        events = new EventPublisher(ids, clock);
        // A name of its own, as each server process has: no restart takes its claims up.
        settlement = new Settlement(storage, ledger, events, clock, UUID.randomUUID().toString());
        Allocation allocation = new Allocation(ids, events);
        Spending spending = new Spending(allocation, events);
        organisations = new OrganisationService(storage, ledger, events, ids, clock);
        policies = new PolicyService(storage, ledger, events, ids, clock);
        wallets = new WalletService(storage, ledger, settlement, allocation, events, ids, clock, settings);
        idempotency = new IdempotencyKeys(storage, clock);
        payments = new PaymentService(storage, ledger, spending, settlement, idempotency, events, ids, clock, settings,
                metrics);
        escrows = new EscrowService(storage, ledger, spending, settlement, events, ids, clock);
        webhooks = new WebhookService(storage, receivers, events, ids, WebhookLimits.DEFAULTS, clock);
        exports = new ExportService(storage, events, exportFiles, FakeExportWriter.all(), ids, ExportSettings.DEFAULTS,
                clock);
    }
}
