/** Every error this client throws for an answer of the API, or for no answer at all. */
export class AgentWalletError extends Error {
  constructor({ message, code, status = null, requestId = null, docs = null, body = null, headers = null }) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.requestId = requestId;
    this.docs = docs;
    this.body = body;
    this.headers = headers;
  }
}

/** 400: the request was malformed; `param` names the field. */
export class InvalidRequestError extends AgentWalletError {
  constructor(fields, error) {
    super(fields);
    this.param = error.param ?? null;
  }
}

/** 401: the API key or session token is missing, unknown, revoked, expired or forged. */
export class AuthenticationError extends AgentWalletError {}

/** 403: the credential's role is too low (`requiredRole` names the lowest that would do), or it may not act here. */
export class PermissionError extends AgentWalletError {
  constructor(fields, error) {
    super(fields);
    this.requiredRole = error.required_role ?? null;
  }
}

/** 404: no such resource in the caller's organisation (or, for an agent, of its wallet). */
export class NotFoundError extends AgentWalletError {}

/**
 * A check of the wallet's policy refused the payment: 422 `policy_violation`, or 401
 * `session_token_invalid` (rule `session_token`). The attempt is recorded as `blocked`.
 */
export class PolicyViolationError extends AgentWalletError {
  constructor(fields, error) {
    super(fields);
    const violation = error.violation ?? {};
    this.violation = { rule: violation.rule ?? null, limit: violation.limit ?? null, attempted: violation.attempted ?? null };
  }
}

/** 429: the organisation's request bucket is empty; `retryAfter` is in seconds. */
export class RateLimitError extends AgentWalletError {
  constructor(fields, error, retryAfterSeconds) {
    super(fields);
    this.retryAfter = retryAfterSeconds;
  }
}

/** No answer: the connection failed, was cut, or the timeout passed. `status` is null. */
export class ConnectionError extends AgentWalletError {}

/** A webhook delivery whose `Service-Signature` does not match its body. */
export class WebhookSignatureError extends Error {
  constructor(message) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** The typed error for an error answer of the API. */
export function errorFromResponse(status, body, headers, retryAfterSeconds) {
  const error = body?.error ?? {};
  const fields = {
    message: error.message ?? `HTTP ${status}`,
    code: error.code ?? 'http_error',
    status,
    requestId: error.request_id ?? headers.get('request-id'),
    docs: error.docs ?? null,
    body,
    headers,
  };
  if (fields.code === 'policy_violation' || fields.code === 'session_token_invalid') {
    return new PolicyViolationError(fields, error);
  }
  if (status === 400) return new InvalidRequestError(fields, error);
  if (status === 401) return new AuthenticationError(fields, error);
  if (status === 403) return new PermissionError(fields, error);
  if (status === 404) return new NotFoundError(fields, error);
  if (status === 429) return new RateLimitError(fields, error, retryAfterSeconds);
  return new AgentWalletError(fields);
}
