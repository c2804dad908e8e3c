import { createHmac, timingSafeEqual } from 'node:crypto';
import { fromWire } from './case.js';
import { WebhookSignatureError } from './errors.js';

/**
 * Whether `signature` (the `Service-Signature` header) is the lowercase hex HMAC-SHA256 of the raw
 * body, keyed with the UTF-8 bytes of the whole `signingSecret` (its `whsec_` prefix included).
 * Compared in constant time, so response timing does not leak how much of a forgery was right.
 * `rawBody` must be the bytes as received: re-serialised JSON would not match.
 */
export function verifyWebhookSignature(rawBody, signature, signingSecret) {
  if (typeof signature !== 'string' || !signingSecret) return false;
  const expected = Buffer.from(createHmac('sha256', Buffer.from(signingSecret, 'utf8')).update(rawBody).digest('hex'));
  const given = Buffer.from(signature.trim().toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The delivery's event, camelCase, once its signature is verified; a `WebhookSignatureError` otherwise. */
export function constructWebhookEvent(rawBody, signature, signingSecret) {
  if (!verifyWebhookSignature(rawBody, signature, signingSecret)) {
    throw new WebhookSignatureError('Service-Signature does not match the body');
  }
  return fromWire(JSON.parse(Buffer.from(rawBody).toString('utf8')));
}
