import { randomUUID } from 'node:crypto';
import { Transport } from './transport.js';
import { signCoSignPayload } from './cosign.js';

const id = (value) => encodeURIComponent(value);

/**
 * The /v1 API. Authenticate with `apiKey` (people and backends) or `sessionToken` (an agent: its
 * wallet's token is its only credential). A backend paying for an agent gives both, or passes
 * `sessionToken` per payment.
 */
export class AgentWallet {
  constructor(options = {}) {
    const http = new Transport(options);
    this.wallets = new Wallets(http);
    this.payments = new Payments(http);
    this.escrows = new Escrows(http);
    this.policies = new Policies(http);
    this.recipients = new Recipients(http);
    this.transactions = new Transactions(http);
    this.webhooks = new Webhooks(http);
  }
}

// With an API key as the credential, a payment's session token travels in `Session-Token`;
// an agent's own token is already the credential.
function sessionHeader(http, sessionToken) {
  const token = sessionToken ?? (http.apiKey ? http.sessionToken : null);
  return token && http.apiKey ? { 'session-token': token } : {};
}

class Wallets {
  constructor(http) { this.http = http; }
  create(params) { return this.http.request('POST', '/wallets', { body: params }); }
  retrieve(walletId) { return this.http.request('GET', `/wallets/${id(walletId)}`); }
  update(walletId, params) { return this.http.request('PATCH', `/wallets/${id(walletId)}`, { body: params }); }
  list(params = {}) { return this.http.paginate('/wallets', params); }
  fund(walletId, params) { return this.http.request('POST', `/wallets/${id(walletId)}/fund`, { body: params }); }
  fundBatch(lines) { return this.http.request('POST', '/wallets/fund-batch', { body: lines }); }
  withdraw(walletId, params) { return this.http.request('POST', `/wallets/${id(walletId)}/withdraw`, { body: params }); }
  setAutoTopup(walletId, params) {
    return this.http.request('PUT', `/wallets/${id(walletId)}/auto-topup`, { body: params });
  }
  rotateToken(walletId, params = {}) {
    return this.http.request('POST', `/wallets/${id(walletId)}/rotate-token`, { body: params, replayable: true });
  }
  archive(walletId) { return this.http.request('DELETE', `/wallets/${id(walletId)}`); }
  transactions(walletId, params = {}) { return this.http.paginate(`/wallets/${id(walletId)}/transactions`, params); }
}

class Payments {
  constructor(http) { this.http = http; }

  /**
   * Pays. Without `idempotencyKey` one is made here, once, and every retry sends the same one, so a
   * payment whose answer was lost is answered again by the server instead of paid twice.
   */
  create(params, { sessionToken } = {}) {
    const body = { ...params, idempotencyKey: params.idempotencyKey ?? randomUUID() };
    return this.http.request('POST', '/payments', {
      body, headers: sessionHeader(this.http, sessionToken), replayable: true,
    });
  }

  /** What `create` would decide (`allowed`, `needs_co_sign`, `blocked`); nothing is recorded or moved. */
  dryRun(params, { sessionToken } = {}) {
    return this.http.request('POST', '/payments', {
      body: params, headers: { ...sessionHeader(this.http, sessionToken), 'dry-run': 'true' }, replayable: true,
    });
  }

  retrieve(txId) { return this.http.request('GET', `/payments/${id(txId)}`); }

  /** Sends an operator's base58 signature of the payment's `coSignPayload`. */
  coSign(txId, signature) {
    return this.http.request('POST', `/payments/${id(txId)}/co-sign`, { body: { signature }, replayable: true });
  }

  /** Signs a `pending_co_sign` payment's payload with the co-signer's secret key and sends the signature. */
  approve(transaction, coSignerSecretKey) {
    return this.coSign(transaction.txId, signCoSignPayload(transaction.coSignPayload, coSignerSecretKey));
  }

  reject(txId, params = {}) {
    return this.http.request('POST', `/payments/${id(txId)}/reject`, { body: params, replayable: true });
  }
}

/** Agent-to-agent escrow, `/payments/a2a`. */
class Escrows {
  constructor(http) { this.http = http; }
  create(params, { sessionToken } = {}) {
    return this.http.request('POST', '/payments/a2a', { body: params, headers: sessionHeader(this.http, sessionToken) });
  }
  list(params = {}) { return this.http.paginate('/payments/a2a', params); }
  retrieve(escrowId) { return this.http.request('GET', `/payments/a2a/${id(escrowId)}`); }
  complete(escrowId, params) {
    return this.http.request('POST', `/payments/a2a/${id(escrowId)}/complete`, {
      body: { proofType: 'output_hash', ...params }, replayable: true,
    });
  }
  dispute(escrowId, params) {
    return this.http.request('POST', `/payments/a2a/${id(escrowId)}/dispute`, { body: params, replayable: true });
  }
  resolve(escrowId, params) {
    return this.http.request('POST', `/payments/a2a/${id(escrowId)}/resolve`, { body: params, replayable: true });
  }
}

class Policies {
  constructor(http) { this.http = http; }
  create(params) { return this.http.request('POST', '/policies', { body: params }); }
  list(params = {}) { return this.http.paginate('/policies', params); }
  retrieve(policyId) { return this.http.request('GET', `/policies/${id(policyId)}`); }
  /** A field given as `null` is cleared; a field left out is kept. */
  update(policyId, params) { return this.http.request('PATCH', `/policies/${id(policyId)}`, { body: params }); }
  clone(policyId, overrides = {}) {
    return this.http.request('POST', `/policies/${id(policyId)}/clone`, { body: overrides });
  }
  delete(policyId) { return this.http.request('DELETE', `/policies/${id(policyId)}`); }
  auditLog(policyId, params = {}) { return this.http.paginate(`/policies/${id(policyId)}/audit-log`, params); }
}

/** The organisation's map of recipient address to category, read by `blockedCategories`. */
class Recipients {
  constructor(http) { this.http = http; }
  setCategory(address, category) {
    return this.http.request('PUT', `/recipients/${id(address)}`, { body: { category } });
  }
  retrieve(address) { return this.http.request('GET', `/recipients/${id(address)}`); }
}

class Transactions {
  constructor(http) { this.http = http; }
  list(params = {}) { return this.http.paginate('/transactions', params); }
  retrieve(txId) { return this.http.request('GET', `/transactions/${id(txId)}`); }
  createExport(params) { return this.http.request('POST', '/transactions/export', { body: params }); }
  retrieveExport(exportId) { return this.http.request('GET', `/transactions/exports/${id(exportId)}`); }
  /** The export file's text (CSV or JSON) once the job is `ready`. */
  downloadExport(exportId) {
    return this.http.request('GET', `/transactions/exports/${id(exportId)}/download`, { raw: true });
  }
}

class Webhooks {
  constructor(http) { this.http = http; }
  /** The answer holds `signingSecret`, shown only here. */
  create(params) { return this.http.request('POST', '/webhooks', { body: params }); }
  list(params = {}) { return this.http.paginate('/webhooks', params); }
  retrieve(webhookId) { return this.http.request('GET', `/webhooks/${id(webhookId)}`); }
  update(webhookId, params) { return this.http.request('PATCH', `/webhooks/${id(webhookId)}`, { body: params }); }
  delete(webhookId) { return this.http.request('DELETE', `/webhooks/${id(webhookId)}`); }
  /** Sends a `ping` event to the receiver. */
  test(webhookId) { return this.http.request('POST', `/webhooks/${id(webhookId)}/test`, { replayable: true }); }
  deliveries(webhookId, params = {}) { return this.http.paginate(`/webhooks/${id(webhookId)}/deliveries`, params); }
}
