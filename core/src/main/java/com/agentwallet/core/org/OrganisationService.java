package com.agentwallet.core.org;

import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.event.DomainEvent;
import com.agentwallet.core.event.EventPublisher;
import com.agentwallet.core.id.IdGenerator;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.ledger.LedgerAdmin;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.port.Storage;

import java.time.Clock;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/** Organisations and their treasury deposits (operator tooling; deposits are not part of /v1). */
public final class OrganisationService {
    public static final int MAX_NAME_LENGTH = 200;

    private final Storage storage;
    private final LedgerPort ledger;
    private final EventPublisher events;
    private final IdGenerator ids;
    private final Clock clock;

    public OrganisationService(Storage storage, LedgerPort ledger, EventPublisher events, IdGenerator ids, Clock clock) {
        this.storage = requireNonNull(storage, "storage is null");
        this.ledger = requireNonNull(ledger, "ledger is null");
        this.events = requireNonNull(events, "events is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public Organisation create(String name) {
        ValidationException.check(name != null && !name.isBlank() && name.length() <= MAX_NAME_LENGTH, "name",
                "'name' must be 1 to " + MAX_NAME_LENGTH + " characters");
        Organisation org = new Organisation(ids.org(), name, Usdc.ZERO, clock.instant());
        storage.inTransaction(stores -> {
            stores.organisations().insert(org);
            return org;
        });
        return org;
    }

    /** Credits a confirmed deposit to the treasury and fires {@code org.deposit_confirmed}. */
    public Result<Organisation> deposit(OrgId orgId, Usdc amount) {
        ValidationException.check(!amount.isZero(), "amount", "'amount' must be greater than zero");
        return storage.inTransaction(stores -> Result.found(stores.organisations().lock(orgId), "organisation", orgId)
                .map(org -> {
                    Instant now = clock.instant();
                    LedgerAdmin.require(ledger, new LedgerInstruction.Deposit("deposit:" + ids.tx(), orgId, amount));
                    Organisation credited = org.withBalance(org.balance().plus(amount));
                    stores.organisations().update(credited);
                    events.publish(stores, new DomainEvent.OrgDepositConfirmed(orgId, amount, credited.balance(), now));
                    return credited;
                }));
    }

    public Result<Organisation> get(OrgId orgId) {
        return storage.inTransaction(stores -> Result.found(stores.organisations().find(orgId), "organisation", orgId));
    }
}
