package com.agentwallet.core.port;

/** The stores, bound to one open transaction of {@link Storage}. */
public interface Stores {
    OrganisationStore organisations();

    ApiKeyStore apiKeys();

    WalletStore wallets();

    PolicyStore policies();

    PolicyAuditLog policyAudit();

    TransactionStore transactions();

    SpendLog spendLog();

    EscrowStore escrows();

    RecipientCategoryStore recipientCategories();

    IdempotencyStore idempotency();

    RequestKeyStore requestKeys();

    WebhookStore webhooks();

    ExportStore exports();

    EventOutbox outbox();

    DeliveryStore deliveries();

    AdminSequence adminSequence();

    UserStore users();

    DashboardSessionStore dashboardSessions();
}
