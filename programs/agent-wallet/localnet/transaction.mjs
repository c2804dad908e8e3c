// Wire transactions and messages (legacy and v0): decoding as the RPC does, Solana's sanitize rules,
// ed25519 signature verification.
import { createPublicKey, verify } from 'node:crypto';
import { getCompiledTransactionMessageDecoder } from '@solana/kit';
import { invalidParams } from './errors.mjs';
import { base58, bytesOf } from './solana.mjs';

const PACKET_DATA_SIZE = 1232;
const MAX_ENCODED_SIZE = { base58: 1683, base64: 1644 };
const TYPE = 'solana_transaction::versioned::VersionedTransaction';
const messageDecoder = getCompiledTransactionMessageDecoder();

const invalidTransaction = (reason) => invalidParams(`invalid transaction: ${reason}`);
const sanitizeFailure = () => invalidTransaction('Transaction failed to sanitize accounts offsets correctly');

/** Bytes of `text` in `encoding` (base58 or base64), refused like Solana's RPC when malformed or too large. */
export function decodeBytes(text, encoding) {
  if (text.length > MAX_ENCODED_SIZE[encoding]) {
    throw invalidParams(`${encoding} encoded ${TYPE} too large: ${text.length} bytes `
      + `(max: encoded/raw ${MAX_ENCODED_SIZE[encoding]}/${PACKET_DATA_SIZE})`);
  }
  let bytes;
  if (encoding === 'base64') {
    if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw invalidParams('invalid base64 encoding');
    bytes = Buffer.from(text, 'base64');
  } else {
    try {
      bytes = base58.decode(text);
    } catch {
      throw invalidParams('invalid base58 encoding');
    }
  }
  if (bytes.length > PACKET_DATA_SIZE) {
    throw invalidParams(`decoded ${TYPE} too large: ${bytes.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`);
  }
  return bytes;
}

/** A compiled message: header, static account keys, recent blockhash (or nonce), instructions. */
export class Message {
  constructor(bytes) {
    let message;
    let end;
    try {
      [message, end] = messageDecoder.read(bytes, 0);
    } catch (e) {
      throw invalidParams(`failed to deserialize ${TYPE}: ${e.message}`);
    }
    this.bytes = Uint8Array.from(bytes.subarray(0, end)); // what is signed: trailing bytes are not
    this.version = message.version;
    this.header = message.header;
    this.accounts = message.staticAccounts;
    this.blockhash = message.lifetimeToken;
    this.instructions = message.instructions.map((ix) => ({
      programIdIndex: ix.programAddressIndex, accounts: ix.accountIndices ?? [], data: ix.data ?? new Uint8Array(),
    }));
    if (message.addressTableLookups?.length) {
      throw invalidTransaction('address lookup tables are not supported by localnet');
    }
    this.#sanitize();
  }

  get numSigners() {
    return this.header.numSignerAccounts;
  }

  isSigner(index) {
    return index < this.numSigners;
  }

  isWritable(index) {
    const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = this.header;
    return index < numSignerAccounts
      ? index < numSignerAccounts - numReadonlySignerAccounts
      : index < this.accounts.length - numReadonlyNonSignerAccounts;
  }

  /** The message with another recent blockhash (simulateTransaction's replaceRecentBlockhash). */
  withBlockhash(blockhash) {
    const bytes = Uint8Array.from(this.bytes);
    const keysAt = (this.version === 'legacy' ? 3 : 4) + shortVecLength(this.accounts.length);
    bytes.set(bytesOf(blockhash), keysAt + 32 * this.accounts.length);
    return new Message(bytes);
  }

  #sanitize() {
    const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = this.header;
    const n = this.accounts.length;
    if (numSignerAccounts + numReadonlyNonSignerAccounts > n || numReadonlySignerAccounts >= numSignerAccounts) {
      throw sanitizeFailure();
    }
    for (const ix of this.instructions) {
      if (ix.programIdIndex === 0 || ix.programIdIndex >= n || ix.accounts.some((i) => i >= n)) throw sanitizeFailure();
    }
    if (new Set(this.accounts).size !== n) throw invalidTransaction('Account loaded twice');
  }
}

/** A signed transaction as sent over the wire: signatures, then the message. */
export class Transaction {
  static decode(text, encoding) {
    return new Transaction(decodeBytes(text, encoding));
  }

  constructor(bytes) {
    const [count, at] = readShortVec(bytes);
    const messageAt = at + 64 * count;
    if (messageAt > bytes.length) throw invalidParams(`failed to deserialize ${TYPE}: io error: unexpected end of file`);
    this.message = new Message(bytes.subarray(messageAt));
    if (count !== this.message.numSigners) throw sanitizeFailure();
    this.bytes = Buffer.concat([bytes.subarray(0, messageAt), this.message.bytes]);
    this.signatureBytes = Array.from({ length: count }, (_, i) => this.bytes.subarray(at + 64 * i, at + 64 * (i + 1)));
  }

  get signature() {
    return base58.encode(this.signatureBytes[0]);
  }

  get signatures() {
    return this.signatureBytes.map((signature) => base58.encode(signature));
  }

  /** Whether every signature is its signer's ed25519 signature of the message. */
  verifySignatures() {
    return this.signatureBytes.every((signature, i) => {
      try {
        const x = Buffer.from(bytesOf(this.message.accounts[i])).toString('base64url');
        return verify(null, this.message.bytes, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' }), signature);
      } catch {
        return false;
      }
    });
  }

  /** The same signatures over a message with another blockhash (then no longer valid signatures). */
  withBlockhash(blockhash) {
    const signatures = this.bytes.subarray(0, this.bytes.length - this.message.bytes.length);
    return new Transaction(Buffer.concat([signatures, this.message.withBlockhash(blockhash).bytes]));
  }

  /** As @solana/kit's `Transaction`, which LiteSVM takes. */
  forLiteSvm() {
    const signatures = {};
    this.signatureBytes.forEach((signature, i) => { signatures[this.message.accounts[i]] = signature; });
    return { messageBytes: this.message.bytes, signatures };
  }
}

function readShortVec(bytes) {
  let value = 0;
  for (let i = 0; i < 3 && i < bytes.length; i++) {
    value |= (bytes[i] & 0x7f) << (7 * i);
    if ((bytes[i] & 0x80) === 0) return [value, i + 1];
  }
  throw invalidParams(`failed to deserialize ${TYPE}: invalid short vec`);
}

const shortVecLength = (n) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : 3);
