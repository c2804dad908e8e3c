import { ConnectionError, errorFromResponse } from './errors.js';
import { fromWire, toWire } from './case.js';

export const DEFAULTS = Object.freeze({
  baseUrl: 'https://localhost:8443/v1',
  timeoutMs: 30_000,
  maxRetries: 3,
  backoffBaseMs: 500,
  backoffCapMs: 8_000,
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `Retry-After` in seconds, from delta-seconds or an HTTP date; null when absent or unreadable. */
function retryAfterSeconds(headers) {
  const value = headers.get('retry-after');
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

// A connection refused or a name that does not resolve never reached the server, so even a request
// that must not run twice may be sent again.
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

function neverSent(error) {
  const code = error?.cause?.code ?? error?.code;
  return NEVER_SENT.has(code);
}

/**
 * Sends requests with the credential, the timeout and the retries. A request is `replayable` when
 * sending it twice cannot do twice what it does (reads, PUT/PATCH/DELETE, state transitions, and a
 * payment, whose idempotency key makes the server answer a repeat with the first result); others
 * (funding, withdrawing, escrow locks, creations without a key) are repeated only when the server
 * surely did not run them: a 429, or a connection that was never made.
 */
export class Transport {
  constructor(options) {
    const { apiKey, sessionToken } = options;
    if (!apiKey && !sessionToken) throw new TypeError('Give an apiKey or a sessionToken');
    this.apiKey = apiKey ?? null;
    this.sessionToken = sessionToken ?? null;
    this.baseUrl = (options.baseUrl ?? DEFAULTS.baseUrl).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
    this.backoffBaseMs = options.backoffBaseMs ?? DEFAULTS.backoffBaseMs;
    this.backoffCapMs = options.backoffCapMs ?? DEFAULTS.backoffCapMs;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** Full jitter: a uniform wait between 0 and the exponential bound, so clients do not retry in step. */
  backoffMs(attempt) {
    return Math.random() * Math.min(this.backoffCapMs, this.backoffBaseMs * 2 ** attempt);
  }

  /**
   * One API call. `body` and `query` are camelCase and sent as snake_case; the answer comes back
   * camelCase. `raw: true` answers the Response's text instead (export downloads).
   */
  async request(method, path, { body, query, headers = {}, replayable, raw = false } = {}) {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(toWire(query ?? {}))) {
      if (value !== null) url.searchParams.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
    const sent = {
      method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${this.apiKey ?? this.sessionToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(toWire(body)),
    };
    const mayRepeat = replayable ?? method !== 'POST';
    for (let attempt = 0; ; attempt++) {
      let response;
      try {
        response = await this.fetch(url, { ...sent, signal: AbortSignal.timeout(this.timeoutMs) });
      } catch (cause) {
        if (attempt < this.maxRetries && (mayRepeat || neverSent(cause))) {
          await sleep(this.backoffMs(attempt));
          continue;
        }
        throw new ConnectionError({
          message: `${method} ${path}: no answer (${cause?.cause?.code ?? cause?.name ?? 'network error'})`,
          code: 'connection_error',
        });
      }
      if (response.ok) {
        if (raw) return response.text();
        return fromWire(await response.json());
      }
      const text = await response.text();
      let parsed = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        // A proxy's HTML error page: the status alone still types the error.
      }
      const retryAfter = retryAfterSeconds(response.headers);
      const retry = response.status === 429 || (response.status >= 500 && mayRepeat);
      if (retry && attempt < this.maxRetries) {
        await sleep(retryAfter !== null ? retryAfter * 1000 : this.backoffMs(attempt));
        continue;
      }
      throw errorFromResponse(response.status, parsed, response.headers, retryAfter);
    }
  }

  /** Every item of a list, page after page, following `next_cursor` until `has_more` is false. */
  async *paginate(path, query = {}, pageOptions = {}) {
    let cursor = query.cursor ?? null;
    do {
      const page = await this.request('GET', path, { ...pageOptions, query: { ...query, cursor } });
      yield* page.data;
      cursor = page.hasMore ? page.nextCursor : null;
    } while (cursor);
  }
}
