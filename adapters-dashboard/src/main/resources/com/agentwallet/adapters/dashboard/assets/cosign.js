// Co-signing in the browser: the operator's co-signer secret key is used only here, in the page's
// memory, through WebCrypto, and never sent anywhere.
import { base58Decode, base58Encode } from './base58.js';

const base64url = (bytes) => btoa(String.fromCharCode(...bytes))
  .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

const base64Decode = (text) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

// A fixed message signed and verified on loading: a key whose public half does not belong to its seed fails.
const PROBE = new TextEncoder().encode('agent-wallet co-signer key check');

const mismatch = (cause) => new TypeError('The secret key\'s public half does not belong to its seed', { cause });

/**
 * The co-signer from its secret key: base58 of 64 bytes, the 32-byte seed then the 32-byte public
 * key, as Solana tools write it. Resolves to `{ publicKey, sign }`: `publicKey` in base58, and
 * `sign(coSignPayload)` giving the base58 Ed25519 signature of the payment's `co_sign_payload`
 * (base64 of the bytes to sign), as `POST /v1/payments/{id}/co-sign` takes it. The private key is
 * imported as not extractable.
 */
export async function loadCoSigner(secretKey) {
  const bytes = base58Decode(secretKey.trim());
  if (bytes.length !== 64) {
    throw new TypeError(`A co-signer secret key has 64 bytes (seed and public key), not ${bytes.length}`);
  }
  const seed = bytes.subarray(0, 32);
  const publicHalf = bytes.subarray(32);
  const jwk = { kty: 'OKP', crv: 'Ed25519', d: base64url(seed), x: base64url(publicHalf) };
  const privateKey = await crypto.subtle.importKey('jwk', jwk, 'Ed25519', false, ['sign'])
    .catch((error) => { throw mismatch(error); });
  // Chromium refuses a mismatched public half on import; the probe catches it in browsers that do not.
  const verifyKey = await crypto.subtle.importKey('raw', publicHalf, 'Ed25519', false, ['verify']);
  const probe = await crypto.subtle.sign('Ed25519', privateKey, PROBE);
  if (!await crypto.subtle.verify('Ed25519', verifyKey, probe, PROBE)) throw mismatch();
  return {
    publicKey: base58Encode(publicHalf),
    async sign(coSignPayload) {
      const signature = await crypto.subtle.sign('Ed25519', privateKey, base64Decode(coSignPayload));
      return base58Encode(new Uint8Array(signature));
    },
  };
}

/** The base58 Ed25519 signature of `coSignPayload` (base64) by the co-signer `secretKey` (base58, 64 bytes). */
export async function signCoSignPayload(coSignPayload, secretKey) {
  return (await loadCoSigner(secretKey)).sign(coSignPayload);
}

/** Whether `secretKey` is the co-signer whose base58 public key is `publicKey`, as a policy's `co_signer` names it. */
export async function matchesPublicKey(secretKey, publicKey) {
  return (await loadCoSigner(secretKey)).publicKey === publicKey.trim();
}
