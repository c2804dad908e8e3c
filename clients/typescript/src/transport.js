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

/**
 * Sends requests with the credential, the timeout and the retries. Every request is retried after a
 * network failure, a 5xx or a 429: a creating request carries an `Idempotency-Key`, so the server
 * answers its repeat with what the first made; a state change moves at most once (its repeat is a
 * 409 `invalid_state`); reads, PATCH and DELETE are safe to repeat.
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
  async request(method, path, { body, query, headers = {}, raw = false } = {}) {
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
    for (let attempt = 0; ; attempt++) {
      let response;
      let text;
      try {
        response = await this.fetch(url, { ...sent, signal: AbortSignal.timeout(this.timeoutMs) });
        // Read inside the try: a connection cut while the body arrives is a network failure too.
        text = await response.text();
      } catch (cause) {
        if (attempt < this.maxRetries) {
          await sleep(this.backoffMs(attempt));
          continue;
        }
        throw new ConnectionError({
          message: `${method} ${path}: no answer (${cause?.cause?.code ?? cause?.name ?? 'network error'})`,
          code: 'connection_error',
        });
      }
      if (response.ok) return raw ? text : fromWire(JSON.parse(text));
      let parsed = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        // A proxy's HTML error page: the status alone still types the error.
      }
      const retryAfter = retryAfterSeconds(response.headers);
      if ((response.status === 429 || response.status >= 500) && attempt < this.maxRetries) {
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
