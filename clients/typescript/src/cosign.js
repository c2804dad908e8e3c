import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { base58Decode, base58Encode } from './base58.js';

// PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410): node:crypto imports private keys only in a container.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The co-signer's private key from a Solana secret key: base58 text or bytes of either the
 * 64-byte form (seed then public key, as Solana tools write it) or the 32-byte seed.
 */
function privateKey(secretKey) {
  const bytes = typeof secretKey === 'string' ? base58Decode(secretKey) : Uint8Array.from(secretKey);
  if (bytes.length !== 64 && bytes.length !== 32) {
    throw new TypeError(`An Ed25519 secret key has 32 or 64 bytes, not ${bytes.length}`);
  }
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, bytes.subarray(0, 32)]);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}

/** The base58 public key of a co-signer's secret key: what a policy's `coSigner` must name. */
export function coSignerPublicKey(secretKey) {
  const jwk = createPublicKey(privateKey(secretKey)).export({ format: 'jwk' });
  return base58Encode(Buffer.from(jwk.x, 'base64url'));
}

/**
 * The base58 Ed25519 signature of a payment's `coSignPayload` (base64 of the Solana transaction
 * message), as `POST /payments/{id}/co-sign` takes it.
 */
export function signCoSignPayload(coSignPayload, secretKey) {
  const message = Buffer.from(coSignPayload, 'base64');
  return base58Encode(sign(null, message, privateKey(secretKey)));
}
