// Declarations for @agent-wallet/client, written by hand: the package is plain ESM with no build step.

/** USDC as the API writes it: a decimal string with 2 to 6 decimals ("12.50"). Never a number. */
export type Amount = string;
/** ISO 8601 UTC with milliseconds: "2026-11-22T09:24:34.630Z". */
export type Timestamp = string;

export interface ClientOptions {
  /** An API key (`sk_...`) of people and backends. */
  apiKey?: string;
  /**
   * A wallet's session token. Alone, it is the agent's credential; with `apiKey`, it is sent as
   * `Session-Token` on payments and escrow locks made for that agent.
   */
  sessionToken?: string;
  /** Default `https://localhost:8443/v1`. */
  baseUrl?: string;
  /** Per attempt; default 30000. */
  timeoutMs?: number;
  /** Retries after the first attempt, after a network failure, a 5xx or a 429; default 3. */
  maxRetries?: number;
  /** First backoff bound; default 500. Waits are uniform in [0, min(cap, base * 2^attempt)). */
  backoffBaseMs?: number;
  /** Default 8000. */
  backoffCapMs?: number;
  /** A fetch to use instead of the global one (tests, instrumentation). */
  fetch?: typeof globalThis.fetch;
}

export interface Violation { rule: string | null; limit: string | null; attempted: string | null }

export interface ListParams { limit?: number; cursor?: string }

export interface Page<T> { object: 'list'; data: T[]; hasMore?: boolean; nextCursor?: string | null }

export interface AutoTopup { enabled: boolean; triggerBelow: Amount | null; topupAmount: Amount | null }

export interface Wallet {
  object: 'wallet';
  id: string;
  agentId: string;
  label: string | null;
  ownerOrg: string;
  policyId: string;
  tags: string[];
  status: 'active' | 'frozen' | 'archived';
  solanaAddress: string;
  usdcBalance: Amount;
  currency: 'USDC';
  autoTopup: AutoTopup | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface CreatedWallet extends Wallet { sessionToken: string; sessionTokenExpiresAt: Timestamp }

export interface SessionToken { object: 'session_token'; walletId: string; sessionToken: string; expiresAt: Timestamp }

export type TransactionType = 'payment' | 'funding' | 'withdrawal' | 'escrow_lock' | 'escrow_release' | 'escrow_refund';
export type TransactionStatus =
  'pending_co_sign' | 'pending' | 'confirmed' | 'failed' | 'rejected' | 'expired' | 'blocked';

export interface Transaction {
  object: 'transaction';
  txId: string;
  type: TransactionType;
  status: TransactionStatus;
  walletId: string;
  amount: Amount;
  currency: 'USDC';
  recipient: string | null;
  memo: string | null;
  policyTriggered: boolean;
  violation: Violation | null;
  txSignature: string | null;
  onChainSlot: number | null;
  /** Base64 of the Solana transaction message the co-signer signs, while `pending_co_sign`. */
  coSignPayload: string | null;
  coSignExpiresAt: Timestamp | null;
  escrowId: string | null;
  failureReason: string | null;
  timestamp: Timestamp;
  updatedAt: Timestamp;
}

export interface PaymentDecision {
  object: 'payment_decision';
  decision: 'allowed' | 'needs_co_sign' | 'blocked';
  violation: Violation | null;
}

export interface Escrow {
  object: 'escrow';
  id: string;
  fromWallet: string;
  toWallet: string;
  recipient: string;
  amount: Amount;
  currency: 'USDC';
  taskDescription: string | null;
  timeoutSeconds: number;
  timeoutAt: Timestamp;
  expectedProof: string | null;
  status: 'locked' | 'released' | 'refunded' | 'disputed';
  proofType: string | null;
  proof: string | null;
  dispute: { reason: string; evidence: string } | null;
  lockTxId: string | null;
  settleTxId: string | null;
  settleReason: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface PolicyFields {
  name?: string;
  maxPerTx?: Amount | null;
  maxPerDay?: Amount | null;
  maxPerMonth?: Amount | null;
  velocityCap?: number | null;
  allowedRecipients?: string[] | null;
  blockedCategories?: string[] | null;
  expiry?: Timestamp | null;
  /** The threshold at or above which a payment waits for the co-signer. */
  requireCoSign?: Amount | null;
  /** Base58 Ed25519 public key of the co-signing operator; see `coSignerPublicKey`. */
  coSigner?: string | null;
}

export interface Policy extends Required<Omit<PolicyFields, 'name'>> {
  object: 'policy';
  id: string;
  name: string;
  version: number;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface PolicyAuditEntry {
  object: 'policy_audit_entry';
  policyId: string;
  version: number;
  action: string;
  actor: string;
  createdAt: Timestamp;
  /** Keys are the policy's field names in camelCase. */
  changes: Record<string, { old: unknown; new: unknown }>;
}

export interface Recipient { object: 'recipient'; address: string; category: string }

export interface ExportJob {
  object: 'export';
  id: string;
  status: 'pending' | 'ready' | 'failed' | 'expired';
  format: 'csv' | 'json';
  walletId: string | null;
  from: Timestamp | null;
  to: Timestamp | null;
  rowCount: number | null;
  createdAt: Timestamp;
  completedAt: Timestamp | null;
}

export interface Webhook {
  object: 'webhook';
  webhookId: string;
  url: string;
  events: string[];
  status: 'active' | 'degraded';
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface CreatedWebhook extends Webhook { signingSecret: string }

export interface WebhookTest { object: 'webhook_test'; webhookId: string; eventId: string; event: 'ping' }

export interface WebhookDelivery {
  object: 'webhook_delivery';
  eventId: string;
  event: string;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  latencyMs: number | null;
  attemptedAt: Timestamp;
  nextAttemptAt: Timestamp | null;
}

/** A webhook delivery's body, camelCase: the envelope and the event's fields (see docs/API.md). */
export interface WebhookEvent { event: string; id: string; createdAt: Timestamp; [field: string]: unknown }

export interface PaymentParams {
  /** An agent may leave it out: its own wallet is meant. */
  walletId?: string;
  to: string;
  amount: Amount;
  currency?: 'USDC';
  memo?: string;
  /** Sent in the body and as `Idempotency-Key`; made by the client when left out, and reused by its retries. */
  idempotencyKey?: string;
  /** Ask for the co-signature below the policy's threshold too. */
  requireCoSign?: boolean;
}

export interface AgentOptions {
  /** The agent's session token, sent as `Session-Token` when the client holds an API key. */
  sessionToken?: string;
}

export interface KeyOptions {
  /**
   * Sent as `Idempotency-Key` (1 to 255 printable ASCII characters); made by the client when left out,
   * and reused by its retries. The same key with another request is a 409 `idempotency_conflict`.
   */
  idempotencyKey?: string;
}

export interface TransactionFilters extends ListParams {
  status?: TransactionStatus;
  type?: TransactionType;
  from?: Timestamp;
  to?: Timestamp;
}

declare class Wallets {
  create(params: {
    agentId: string; policyId: string; label?: string; tags?: string[]; ownerOrg?: string; sessionTtlSeconds?: number;
  }, options?: KeyOptions): Promise<CreatedWallet>;
  retrieve(walletId: string): Promise<Wallet>;
  update(walletId: string, params: { label?: string; policyId?: string; status?: 'active' | 'frozen' }): Promise<Wallet>;
  list(params?: ListParams & { status?: Wallet['status']; tags?: string[] | string }): AsyncIterable<Wallet>;
  fund(walletId: string, params: { amount: Amount; currency?: 'USDC' }, options?: KeyOptions): Promise<Wallet>;
  fundBatch(
    lines: { walletId: string; amount: Amount; currency?: 'USDC' }[], options?: KeyOptions): Promise<Page<Wallet>>;
  withdraw(walletId: string, params: { amount: Amount | 'all'; currency?: 'USDC' }, options?: KeyOptions): Promise<Wallet>;
  setAutoTopup(walletId: string, params: { enabled: boolean; triggerBelow?: Amount; topupAmount?: Amount }): Promise<Wallet>;
  rotateToken(walletId: string, params?: { ttlSeconds?: number }): Promise<SessionToken>;
  /** Archives: `DELETE /wallets/{id}`. */
  archive(walletId: string): Promise<Wallet>;
  transactions(walletId: string, params?: TransactionFilters): AsyncIterable<Transaction>;
}

declare class Payments {
  create(params: PaymentParams, options?: AgentOptions): Promise<Transaction>;
  dryRun(params: Omit<PaymentParams, 'idempotencyKey'>, options?: AgentOptions): Promise<PaymentDecision>;
  retrieve(txId: string): Promise<Transaction>;
  /** `signature`: base58 Ed25519 signature of the decoded `coSignPayload`; see `signCoSignPayload`. */
  coSign(txId: string, signature: string): Promise<Transaction>;
  /** Signs `transaction.coSignPayload` with the co-signer's secret key and sends it. */
  approve(transaction: Pick<Transaction, 'txId' | 'coSignPayload'>, coSignerSecretKey: string | Uint8Array): Promise<Transaction>;
  reject(txId: string, params?: { reason?: string }): Promise<Transaction>;
}

declare class Escrows {
  create(params: {
    fromWallet?: string; toWallet: string; amount: Amount; currency?: 'USDC'; taskDescription?: string;
    timeoutSeconds: number; expectedProof?: string;
  }, options?: AgentOptions & KeyOptions): Promise<Escrow>;
  list(params?: ListParams & { walletId?: string; status?: Escrow['status'] }): AsyncIterable<Escrow>;
  retrieve(escrowId: string): Promise<Escrow>;
  /** `proof`: 64 lowercase hex characters of SHA-256; `proofType` defaults to `output_hash`. */
  complete(escrowId: string, params: { proof: string; proofType?: 'output_hash' }): Promise<Escrow>;
  dispute(escrowId: string, params: { reason: string; evidence: string }): Promise<Escrow>;
  resolve(escrowId: string, params: { outcome: 'release' | 'refund' }): Promise<Escrow>;
}

declare class Policies {
  create(params: PolicyFields & { name: string }, options?: KeyOptions): Promise<Policy>;
  list(params?: ListParams): AsyncIterable<Policy>;
  retrieve(policyId: string): Promise<Policy>;
  update(policyId: string, params: PolicyFields): Promise<Policy>;
  clone(policyId: string, overrides?: PolicyFields, options?: KeyOptions): Promise<Policy>;
  delete(policyId: string): Promise<Policy>;
  auditLog(policyId: string, params?: ListParams): AsyncIterable<PolicyAuditEntry>;
}

declare class Recipients {
  setCategory(address: string, category: string): Promise<Recipient>;
  retrieve(address: string): Promise<Recipient>;
}

declare class Transactions {
  list(params?: TransactionFilters & { walletId?: string }): AsyncIterable<Transaction>;
  retrieve(txId: string): Promise<Transaction>;
  createExport(params: {
    format: 'csv' | 'json'; walletId?: string; from?: Timestamp; to?: Timestamp;
  }, options?: KeyOptions): Promise<ExportJob>;
  retrieveExport(exportId: string): Promise<ExportJob>;
  downloadExport(exportId: string): Promise<string>;
}

declare class Webhooks {
  create(params: { url: string; events: string[] | '*' }, options?: KeyOptions): Promise<CreatedWebhook>;
  list(params?: ListParams): AsyncIterable<Webhook>;
  retrieve(webhookId: string): Promise<Webhook>;
  update(webhookId: string, params: { url?: string; events?: string[] | '*'; status?: 'active' }): Promise<Webhook>;
  delete(webhookId: string): Promise<Webhook>;
  test(webhookId: string): Promise<WebhookTest>;
  deliveries(webhookId: string, params?: ListParams): AsyncIterable<WebhookDelivery>;
}

export declare class AgentWallet {
  constructor(options: ClientOptions);
  readonly wallets: Wallets;
  readonly payments: Payments;
  /** Agent-to-agent escrow, `/payments/a2a`. */
  readonly escrows: Escrows;
  readonly policies: Policies;
  readonly recipients: Recipients;
  readonly transactions: Transactions;
  readonly webhooks: Webhooks;
}

export declare class AgentWalletError extends Error {
  readonly code: string;
  readonly status: number | null;
  readonly requestId: string | null;
  readonly docs: string | null;
  /** The parsed error body, when there was one. */
  readonly body: unknown;
  readonly headers: Headers | null;
}
export declare class InvalidRequestError extends AgentWalletError { readonly param: string | null }
export declare class AuthenticationError extends AgentWalletError {}
export declare class PermissionError extends AgentWalletError { readonly requiredRole: string | null }
export declare class NotFoundError extends AgentWalletError {}
export declare class PolicyViolationError extends AgentWalletError { readonly violation: Violation }
export declare class RateLimitError extends AgentWalletError { readonly retryAfter: number | null }
export declare class ConnectionError extends AgentWalletError {}
export declare class WebhookSignatureError extends Error {}

/** Constant-time check of `Service-Signature` against the raw body as received. */
export declare function verifyWebhookSignature(
  rawBody: string | Uint8Array, signature: string | undefined, signingSecret: string): boolean;
/** The verified delivery's event, camelCase; throws `WebhookSignatureError` when the signature does not match. */
export declare function constructWebhookEvent(
  rawBody: string | Uint8Array, signature: string | undefined, signingSecret: string): WebhookEvent;

/** Base58 of the public key of a Solana secret key (64 bytes, or the 32-byte seed; base58 or bytes). */
export declare function coSignerPublicKey(secretKey: string | Uint8Array): string;
/** Base58 Ed25519 signature of a base64 `coSignPayload`. */
export declare function signCoSignPayload(coSignPayload: string, secretKey: string | Uint8Array): string;

export declare function base58Encode(bytes: Uint8Array): string;
export declare function base58Decode(text: string): Uint8Array;
