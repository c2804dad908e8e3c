package com.agentwallet.adapters.mcp;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

import java.util.List;

/**
 * The tools as a model reads them: names, descriptions and input schemas. The descriptions say
 * what each tool does to the wallet's money, what comes back, and how to retry safely.
 */
final class ToolCatalog {
    private static final String AMOUNT = """
            {"type": "string", "pattern": "^[0-9]+(\\\\.[0-9]{1,6})?$",
             "description": "USDC as a decimal string with at most 6 decimals, e.g. \\"12.50\\"; greater than zero"}""";
    private static final String KEY = """
            {"type": "string", "minLength": 1, "maxLength": 255,
             "description": "A key you make once per intended payment (a UUID, or your own order or task id) and send again, unchanged, on every retry of that same payment"}""";

    private ToolCatalog() {
    }

    /** What a tool runs, given the agent its token names and the call's arguments. */
    interface Handler {
        CallToolResult call(WalletTools tools, Agent agent, Arguments arguments);
    }

    record Entry(String name, String title, String description, String inputSchema, Handler handler) {
    }

    static final List<Entry> TOOLS = List.of(
            new Entry("get_wallet", "Read my wallet",
                    """
                    Read your wallet: its USDC balance, its status, and what its spending policy still allows right now: \
                    the most one payment may be, how much more the rolling 24 hours and 30 days take, how many more \
                    payments the rolling hour takes, the co-signature threshold, allowed recipients and expiry, and the \
                    largest single payment no cap or the balance would refuse. Call it before planning payments.""",
                    """
                    {"type": "object", "properties": {}, "additionalProperties": false}""",
                    WalletTools::getWallet),
            new Entry("check_payment", "Check a payment without paying",
                    """
                    Dry-run a payment from your wallet without paying: answers decision "allowed", "needs_co_sign" \
                    (pay would hold it for an operator's co-signature) or "blocked" with the policy rule, its limit \
                    and what this payment would make of it. Nothing is recorded or moved; no idempotency key is used.""",
                    """
                    {"type": "object", "properties": {
                      "to": {"type": "string", "description": "The recipient's ledger address"},
                      "amount": %s,
                      "memo": {"type": "string", "description": "Optional note stored with the payment"}},
                     "required": ["to", "amount"], "additionalProperties": false}""".formatted(AMOUNT),
                    WalletTools::checkPayment),
            new Entry("pay", "Pay from my wallet",
                    """
                    Pay USDC from your wallet to a recipient address; the spending policy is checked in the same \
                    atomic step as the debit. idempotency_key is required: make one new key per intended payment and \
                    send the same key again on every retry of that payment (after a timeout, a lost answer or an \
                    error), so it is paid at most once and a retry answers the first result. Statuses: "confirmed" or \
                    "pending" (paid); "pending_co_sign" (at or above the co-sign threshold: held until an operator \
                    co-signs it in the dashboard's inbox; not an error, do not retry; follow it with get_payment); a \
                    blocked payment is an error result naming the rule, its limit and the attempt (do not retry it).""",
                    """
                    {"type": "object", "properties": {
                      "to": {"type": "string", "description": "The recipient's ledger address"},
                      "amount": %s,
                      "idempotency_key": %s,
                      "memo": {"type": "string", "description": "Optional note stored with the payment"}},
                     "required": ["to", "amount", "idempotency_key"], "additionalProperties": false}"""
                            .formatted(AMOUNT, KEY),
                    WalletTools::pay),
            new Entry("get_payment", "Read one of my payments",
                    """
                    Read one transaction of your wallet by its id (tx_...): status, amount, recipient, the rule that \
                    blocked it, the ledger signature. Use it to follow a pending_co_sign payment until it is \
                    confirmed, rejected or expired. Another wallet's transactions are not found.""",
                    """
                    {"type": "object", "properties": {
                      "payment_id": {"type": "string", "description": "The payment's id, tx_..."}},
                     "required": ["payment_id"], "additionalProperties": false}""",
                    WalletTools::getPayment),
            new Entry("list_transactions", "List my transactions",
                    """
                    List your wallet's transactions, newest first: payments (blocked ones included), fundings, \
                    withdrawals and escrow movements. Pages of up to 100; pass next_cursor back as cursor for more.""",
                    """
                    {"type": "object", "properties": {
                      "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "At most this many (default 20)"},
                      "cursor": {"type": "string", "description": "next_cursor of the previous page"},
                      "type": {"type": "string", "enum": ["payment", "funding", "withdrawal", "escrow_lock", "escrow_release", "escrow_refund"]},
                      "status": {"type": "string", "enum": ["pending_co_sign", "pending", "confirmed", "failed", "rejected", "expired", "blocked"]}},
                     "additionalProperties": false}""",
                    WalletTools::listTransactions),
            new Entry("create_escrow", "Lock USDC in escrow for another agent",
                    """
                    Lock USDC from your wallet in escrow for another agent's task, under the same policy checks as a \
                    payment. The receiver completes it with the proof of its output (the SHA-256 hex of it) and gets \
                    the funds; on timeout they come back to you, and you may dispute it before the deadline. \
                    idempotency_key as for pay: one per intended escrow, the same on every retry.""",
                    """
                    {"type": "object", "properties": {
                      "to_wallet": {"type": "string", "description": "The receiving agent's wallet id (wal_...) or ledger address"},
                      "amount": %s,
                      "timeout_seconds": {"type": "integer", "minimum": 1, "maximum": 7776000, "description": "Seconds until the funds go back to you if not completed"},
                      "task_description": {"type": "string", "maxLength": 2000, "description": "What the receiver is paid for"},
                      "expected_proof": {"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "Optional: the only proof (SHA-256 hex of the output) that releases the funds"},
                      "idempotency_key": %s},
                     "required": ["to_wallet", "amount", "timeout_seconds", "idempotency_key"], "additionalProperties": false}"""
                            .formatted(AMOUNT, KEY),
                    WalletTools::createEscrow),
            new Entry("complete_escrow", "Complete an escrow locked for me",
                    """
                    As the receiving agent, complete an escrow locked for your wallet with the proof of your output \
                    (its SHA-256 as 64 lowercase hex characters); the funds are released to your wallet. Only while \
                    it is locked and before its deadline; when it has an expected proof, only that one releases it.""",
                    """
                    {"type": "object", "properties": {
                      "escrow_id": {"type": "string", "description": "The escrow's id, escrow_..."},
                      "proof": {"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "SHA-256 of your output, 64 lowercase hex characters"}},
                     "required": ["escrow_id", "proof"], "additionalProperties": false}""",
                    WalletTools::completeEscrow),
            new Entry("dispute_escrow", "Dispute an escrow I locked",
                    """
                    As the sending agent, dispute an escrow your wallet locked, while it is locked and before its \
                    deadline; nothing moves until an operator of your organisation resolves it (release or refund).""",
                    """
                    {"type": "object", "properties": {
                      "escrow_id": {"type": "string", "description": "The escrow's id, escrow_..."},
                      "reason": {"type": "string", "minLength": 1, "description": "Why the task was not done as agreed"},
                      "evidence": {"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "SHA-256 (64 lowercase hex characters) of what shows it, e.g. of the output you received"}},
                     "required": ["escrow_id", "reason", "evidence"], "additionalProperties": false}""",
                    WalletTools::disputeEscrow));
}
