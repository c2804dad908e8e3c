package com.agentwallet.adapters.persistence;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.port.AdminSequence;
import com.agentwallet.core.port.ApiKeyStore;
import com.agentwallet.core.port.Claim;
import com.agentwallet.core.port.DashboardSessionStore;
import com.agentwallet.core.port.DeliveryStore;
import com.agentwallet.core.port.EscrowStore;
import com.agentwallet.core.port.EventOutbox;
import com.agentwallet.core.port.ExportStore;
import com.agentwallet.core.port.IdempotencyStore;
import com.agentwallet.core.port.OrganisationStore;
import com.agentwallet.core.port.PolicyAuditLog;
import com.agentwallet.core.port.PolicyStore;
import com.agentwallet.core.port.RecipientCategoryStore;
import com.agentwallet.core.port.RequestKeyStore;
import com.agentwallet.core.port.SpendLog;
import com.agentwallet.core.port.Storage;
import com.agentwallet.core.port.StorageUnavailableException;
import com.agentwallet.core.port.Stores;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.port.UserStore;
import com.agentwallet.core.port.WalletStore;
import com.agentwallet.core.port.WebhookStore;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The books in PostgreSQL. Each unit of work is one READ COMMITTED transaction (the pool's level, set
 * once on every connection: asking Jdbi for a level per transaction costs six extra round trips to
 * read and restore it); correctness under
 * concurrency comes from the row locks the use cases take and from {@code CHECK (balance >= 0)},
 * not from the isolation level. Rows are locked {@code FOR NO KEY UPDATE}: it serialises changes of
 * a row as {@code FOR UPDATE} does, but does not wait for the key-share locks that inserting a row
 * referencing it takes (an event referencing its organisation), which would break the core's lock
 * order and deadlock. A unit of work whose connection could not be had or broke, or that PostgreSQL
 * ended for a reason of the moment (see {@link #unavailability}), fails as
 * {@link StorageUnavailableException}, rolled back whole by PostgreSQL, so that callers can tell it
 * from a fault of the service and retry.
 */
public final class JdbiStorage implements Storage {
    /**
     * SQLStates of a connection that is gone, besides class 08 (connection exception): the server is
     * shutting down or terminated this backend ({@code pg_terminate_backend}, a failover), crashed,
     * or is not accepting connections yet.
     */
    private static final Set<String> SERVER_GONE = Set.of("57P01", "57P02", "57P03");
    /**
     * SQLStates of a transaction PostgreSQL ended and rolled back whole for a reason of the moment,
     * on a connection that stays usable: chosen as a deadlock's victim, a serialization failure, a
     * lock not had within {@code lock_timeout}, or a statement cancelled ({@code statement_timeout},
     * {@code pg_cancel_backend}). The service's own transactions take their locks in one order and
     * set no timeouts, so these come from outside it: an operator's session or migration holding
     * locks, or timeouts set on the database or its role.
     */
    private static final Set<String> ROLLED_BACK_NOW = Set.of("40001", "40P01", "55P03", "57014");
    /**
     * SQLStates of a batch that PostgreSQL chose to roll back so that another transaction could go
     * on (a deadlock's victim, a serialization failure): the batch is run again, up to
     * {@link #BATCH_ATTEMPTS} times in all. Servers sharing the database apply confirmations of one
     * organisation in batches of their own, and each credits its payees' wallets in its own order.
     */
    private static final Set<String> RUN_AGAIN = Set.of("40001", "40P01");
    private static final int BATCH_ATTEMPTS = 3;
    /** Causes looked through; a cycle in a broken chain must not loop forever. */
    private static final int MAX_CAUSES = 20;

    /**
     * Units of work run together at most: enough to share one commit and one statement per kind of
     * write among all the clients of a busy organisation, few enough that its wallets' locks are not
     * held long.
     */
    static final int MAX_BATCH = 32;

    private final Jdbi jdbi;
    /** The service's clock: the read-ahead of a payment's spends looks ahead of its time, not the system's. */
    private final Clock clock;
    /** Claimed units of work of one organisation and one kind of claim arriving together, run in one transaction. */
    private final GroupCommit<Lane, Claimed<?>, Object> batches = new GroupCommit<>(MAX_BATCH, this::runTogether);

    public JdbiStorage(Jdbi jdbi, Clock clock) {
        this.jdbi = requireNonNull(jdbi, "jdbi is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public <T> T inTransaction(Function<Stores, T> work) {
        return failingAsUnavailable(() -> jdbi.inTransaction(handle -> new HandleStores(handle, clock).inTransaction(work)));
    }

    /** On a connection in auto-commit mode, the pool's default: the statement is its own transaction. */
    @Override
    public <T> T readOne(Function<Stores, T> work) {
        return failingAsUnavailable(() -> jdbi.withHandle(handle -> new HandleStores(handle, clock).autoCommitted(work)));
    }

    /**
     * Runs {@code work} in a batch of the units of work claimed for its organisation and kind of claim
     * that arrive while one is running ({@link GroupCommit}): all their rows are locked first, then
     * each runs in turn, and one commit (and one wait for the disk) is shared by all.
     */
    @Override
    public <T> T inBatch(Claim claim, Function<Stores, T> work) {
        @SuppressWarnings("unchecked") // each unit of work's result is of its own type
        T result = (T) batches.submit(new Lane(claim.orgId(), claim.getClass()), new Claimed<>(claim, work));
        return result;
    }

    /**
     * One transaction for the batch; run again when PostgreSQL rolled it back to let another go on.
     * A batch's units of work may run more than once: {@link GroupCommit} already runs them again
     * one by one when their batch fails whole.
     */
    private List<Object> runTogether(List<Claimed<?>> batch) {
        for (int attempt = 1; ; attempt++) {
            try {
                return inTransaction(stores -> {
                    Claim.lockAll(stores, batch.stream().map(Claimed::claim).toList());
                    return batch.stream().<Object>map(claimed -> claimed.work().apply(stores)).toList();
                });
            } catch (StorageUnavailableException e) {
                boolean chosenToRollBack = unavailability(e).map(SQLException::getSQLState).filter(RUN_AGAIN::contains)
                        .isPresent();
                if (!chosenToRollBack || attempt == BATCH_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** Units of work that may share a transaction: one organisation's, of one kind of claim. */
    private record Lane(OrgId orgId, Class<? extends Claim> kind) {
    }

    private record Claimed<T>(Claim claim, Function<Stores, T> work) {
    }

    static <T> T failingAsUnavailable(Supplier<T> unitOfWork) {
        try {
            return unitOfWork.get();
        } catch (RuntimeException e) {
            Optional<SQLException> unavailable = unavailability(e);
            if (unavailable.isPresent()) {
                SQLException cause = unavailable.get();
                throw new StorageUnavailableException((ROLLED_BACK_NOW.contains(cause.getSQLState())
                        ? "The database rolled the work back" : "The database connection failed")
                        + " (SQLState " + cause.getSQLState() + "): " + cause.getMessage(), e);
            }
            throw e;
        }
    }

    /**
     * The cause that shows the unit of work failed for a reason of the moment, not of the work: the
     * connection was lost or could not be had (the pool timed out, the driver found the connection
     * closed or broken, SQLState class 08, or the server ended the backend), or PostgreSQL rolled the
     * transaction back as {@link #ROLLED_BACK_NOW} lists. Only the cause chain counts: a failure of
     * the work itself whose rollback then met a dead connection (a suppressed exception) stays what it
     * was.
     */
    static Optional<SQLException> unavailability(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
            if (cause instanceof SQLException sql && (sql instanceof SQLTransientConnectionException
                    || sql instanceof SQLNonTransientConnectionException
                    || sql.getSQLState() != null && (sql.getSQLState().startsWith("08")
                    || SERVER_GONE.contains(sql.getSQLState()) || ROLLED_BACK_NOW.contains(sql.getSQLState())))) {
                return Optional.of(sql);
            }
        }
        return Optional.empty();
    }

    /** The stores on one open handle, their statements sent through one {@link Pipeline}. */
    private static final class HandleStores implements Stores {
        private final Handle handle;
        private final Pipeline pipeline;
        private final OrganisationStore organisations;
        private final ApiKeyStore apiKeys;
        private final WalletStore wallets;
        private final PolicyStore policies;
        private final PolicyAuditLog policyAudit;
        private final TransactionStore transactions;
        private final SpendLog spendLog;
        private final EscrowStore escrows;
        private final RecipientCategoryStore recipientCategories;
        private final IdempotencyStore idempotency;
        private final RequestKeyStore requestKeys;
        private final WebhookStore webhooks;
        private final ExportStore exports;
        private final EventOutbox outbox;
        private final DeliveryStore deliveries;
        private final UserStore users;
        private final DashboardSessionStore dashboardSessions;

        HandleStores(Handle handle, Clock clock) {
            this.handle = handle;
            pipeline = new Pipeline(handle);
            organisations = new JdbiOrganisations(handle);
            apiKeys = new JdbiApiKeys(handle);
            JdbiPolicies policyStore = new JdbiPolicies(handle, pipeline);
            policies = policyStore;
            JdbiSpendLog spends = new JdbiSpendLog(pipeline);
            spendLog = spends;
            wallets = new JdbiWallets(handle, pipeline, policyStore, spends, clock);
            policyAudit = new JdbiPolicyAudit(handle);
            transactions = new JdbiTransactions(handle, pipeline);
            escrows = new JdbiEscrows(handle);
            recipientCategories = new JdbiSmallStores.Categories(handle);
            idempotency = new JdbiSmallStores.Idempotency(handle, pipeline);
            requestKeys = new JdbiSmallStores.RequestKeys(pipeline);
            webhooks = new JdbiWebhooks(handle);
            exports = new JdbiExports(handle);
            outbox = new JdbiSmallStores.Outbox(pipeline);
            deliveries = new JdbiDeliveries(handle, pipeline);
            users = new JdbiDashboardUsers.Users(pipeline);
            dashboardSessions = new JdbiDashboardUsers.Sessions(pipeline);
        }

        /** Runs the unit of work, then commits it with what its stores held back, in one round trip. */
        <T> T inTransaction(Function<Stores, T> work) {
            T result = work.apply(this);
            pipeline.commit();
            return result;
        }

        /** Runs the unit of work in auto-commit mode, then sends what its stores held back. */
        <T> T autoCommitted(Function<Stores, T> work) {
            T result = work.apply(this);
            pipeline.flush();
            return result;
        }

        public OrganisationStore organisations() {
            return organisations;
        }

        public ApiKeyStore apiKeys() {
            return apiKeys;
        }

        public WalletStore wallets() {
            return wallets;
        }

        public PolicyStore policies() {
            return policies;
        }

        public PolicyAuditLog policyAudit() {
            return policyAudit;
        }

        public TransactionStore transactions() {
            return transactions;
        }

        public SpendLog spendLog() {
            return spendLog;
        }

        public EscrowStore escrows() {
            return escrows;
        }

        public RecipientCategoryStore recipientCategories() {
            return recipientCategories;
        }

        public IdempotencyStore idempotency() {
            return idempotency;
        }

        public RequestKeyStore requestKeys() {
            return requestKeys;
        }

        public WebhookStore webhooks() {
            return webhooks;
        }

        public ExportStore exports() {
            return exports;
        }

        public EventOutbox outbox() {
            return outbox;
        }

        @Override
        public DeliveryStore deliveries() {
            return deliveries;
        }

        @Override
        public AdminSequence adminSequence() {
            return () -> handle.createQuery("SELECT nextval('ledger_admin_sequence')").mapTo(Long.class).one();
        }

        public UserStore users() {
            return users;
        }

        public DashboardSessionStore dashboardSessions() {
            return dashboardSessions;
        }
    }
}
