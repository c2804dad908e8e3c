export { AgentWallet } from './client.js';
export {
  AgentWalletError, AuthenticationError, ConnectionError, InvalidRequestError, NotFoundError,
  PermissionError, PolicyViolationError, RateLimitError, WebhookSignatureError,
} from './errors.js';
export { constructWebhookEvent, verifyWebhookSignature } from './webhooks.js';
export { coSignerPublicKey, signCoSignPayload } from './cosign.js';
export { base58Decode, base58Encode } from './base58.js';
