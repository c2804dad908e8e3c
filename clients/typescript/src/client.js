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

// A creating request's key is made once per call, so every retry of the call sends the same one and
// the server answers it with what the first attempt made instead of making it again.
const keyHeader = (idempotencyKey) => ({ 'idempotency-key': idempotencyKey ?? randomUUID() });

class Wallets {
  constructor(http) { this.http = http; }
  /** The answer holds `sessionToken`; a retry under the same key answers the same one. */
  create(params, { idempotencyKey } = {}) {
    return this.http.request('POST', '/wallets', { body: params, headers: keyHeader(idempotencyKey) });
  }
  retrieve(walletId) { return this.http.request('GET', `/wallets/${id(walletId)}`); }
  update(walletId, params) { return this.http.request('PATCH', `/wallets/${id(walletId)}`, { body: params }); }
  list(params = {}) { return this.http.paginate('/wallets', params); }
  fund(walletId, params, { idempotencyKey } = {}) {
    return this.http.request('POST', `/wallets/${id(walletId)}/fund`, { body: params, headers: keyHeader(idempotencyKey) });
  }
  fundBatch(lines, { idempotencyKey } = {}) {
    return this.http.request('POST', '/wallets/fund-batch', { body: lines, headers: keyHeader(idempotencyKey) });
  }
  withdraw(walletId, params, { idempotencyKey } = {}) {
    const headers = keyHeader(idempotencyKey);
    return this.http.request('POST', `/wallets/${id(walletId)}/withdraw`, { body: params, headers });
  }
  setAutoTopup(walletId, params) {
    return this.http.request('PUT', `/wallets/${id(walletId)}/auto-topup`, { body: params });
  }
  rotateToken(walletId, params = {}) {
    return this.http.request('POST', `/wallets/${id(walletId)}/rotate-token`, { body: params });
  }
  archive(walletId) { return this.http.request('DELETE', `/wallets/${id(walletId)}`); }
  transactions(walletId, params = {}) { return this.http.paginate(`/wallets/${id(walletId)}/transactions`, params); }
}

class Payments {
  constructor(http) { this.http = http; }

  /**
   * Pays. Its key is `params.idempotencyKey`, as the API has it in the body, and goes in the header
   * too; without one, one is made here once and every retry sends the same one.
   */
  create(params, { sessionToken } = {}) {
    const idempotencyKey = params.idempotencyKey ?? randomUUID();
    return this.http.request('POST', '/payments', {
      body: { ...params, idempotencyKey },
      headers: { ...sessionHeader(this.http, sessionToken), ...keyHeader(idempotencyKey) },
    });
  }

  /** What `create` would decide (`allowed`, `needs_co_sign`, `blocked`); nothing is recorded or moved. */
  dryRun(params, { sessionToken } = {}) {
    return this.http.request('POST', '/payments', {
      body: params, headers: { ...sessionHeader(this.http, sessionToken), 'dry-run': 'true' },
    });
  }

  retrieve(txId) { return this.http.request('GET', `/payments/${id(txId)}`); }

  /** Sends an operator's base58 signature of the payment's `coSignPayload`. */
  coSign(txId, signature) {
    return this.http.request('POST', `/payments/${id(txId)}/co-sign`, { body: { signature } });
  }

  /** Signs a `pending_co_sign` payment's payload with the co-signer's secret key and sends the signature. */
  approve(transaction, coSignerSecretKey) {
    return this.coSign(transaction.txId, signCoSignPayload(transaction.coSignPayload, coSignerSecretKey));
  }

  reject(txId, params = {}) {
    return this.http.request('POST', `/payments/${id(txId)}/reject`, { body: params });
  }
}

/** Agent-to-agent escrow, `/payments/a2a`. */
class Escrows {
  constructor(http) { this.http = http; }
  create(params, { sessionToken, idempotencyKey } = {}) {
    return this.http.request('POST', '/payments/a2a', {
      body: params, headers: { ...sessionHeader(this.http, sessionToken), ...keyHeader(idempotencyKey) },
    });
  }
  list(params = {}) { return this.http.paginate('/payments/a2a', params); }
  retrieve(escrowId) { return this.http.request('GET', `/payments/a2a/${id(escrowId)}`); }
  complete(escrowId, params) {
    const body = { proofType: 'output_hash', ...params };
    return this.http.request('POST', `/payments/a2a/${id(escrowId)}/complete`, { body });
  }
  dispute(escrowId, params) {
    return this.http.request('POST', `/payments/a2a/${id(escrowId)}/dispute`, { body: params });
  }
  resolve(escrowId, params) {
    return this.http.request('POST', `/payments/a2a/${id(escrowId)}/resolve`, { body: params });
  }
}

class Policies {
  constructor(http) { this.http = http; }
  create(params, { idempotencyKey } = {}) {
    return this.http.request('POST', '/policies', { body: params, headers: keyHeader(idempotencyKey) });
  }
  list(params = {}) { return this.http.paginate('/policies', params); }
  retrieve(policyId) { return this.http.request('GET', `/policies/${id(policyId)}`); }
  /** A field given as `null` is cleared; a field left out is kept. */
  update(policyId, params) { return this.http.request('PATCH', `/policies/${id(policyId)}`, { body: params }); }
  clone(policyId, overrides = {}, { idempotencyKey } = {}) {
    const headers = keyHeader(idempotencyKey);
    return this.http.request('POST', `/policies/${id(policyId)}/clone`, { body: overrides, headers });
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
  createExport(params, { idempotencyKey } = {}) {
    return this.http.request('POST', '/transactions/export', { body: params, headers: keyHeader(idempotencyKey) });
  }
  retrieveExport(exportId) { return this.http.request('GET', `/transactions/exports/${id(exportId)}`); }
  /** The export file's text (CSV or JSON) once the job is `ready`. */
  downloadExport(exportId) {
    return this.http.request('GET', `/transactions/exports/${id(exportId)}/download`, { raw: true });
  }
}

class Webhooks {
  constructor(http) { this.http = http; }
  /** The answer holds `signingSecret`, shown only here and to a retry under the same key. */
  create(params, { idempotencyKey } = {}) {
    return this.http.request('POST', '/webhooks', { body: params, headers: keyHeader(idempotencyKey) });
  }
  list(params = {}) { return this.http.paginate('/webhooks', params); }
  retrieve(webhookId) { return this.http.request('GET', `/webhooks/${id(webhookId)}`); }
  update(webhookId, params) { return this.http.request('PATCH', `/webhooks/${id(webhookId)}`, { body: params }); }
  delete(webhookId) { return this.http.request('DELETE', `/webhooks/${id(webhookId)}`); }
  /** Sends a `ping` event to the receiver. */
  test(webhookId) { return this.http.request('POST', `/webhooks/${id(webhookId)}/test`); }
  deliveries(webhookId, params = {}) { return this.http.paginate(`/webhooks/${id(webhookId)}/deliveries`, params); }
}
