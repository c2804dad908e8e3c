// Solana primitives shared by the localnet and the tests: keys, byte layouts, legacy transaction
// messages built and signed by hand, and the SPL instructions both need.
import { generateKeyPairSync, sign } from 'node:crypto';
import {
  getAddressDecoder, getAddressEncoder, getBase58Decoder, getBase58Encoder, getProgramDerivedAddress,
} from '@solana/kit';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

const addressEncoder = getAddressEncoder();
const addressDecoder = getAddressDecoder();
export const bytesOf = (address) => Uint8Array.from(addressEncoder.encode(address));
export const addressOf = (bytes) => addressDecoder.decode(bytes);

const base58Decoder = getBase58Decoder();
const base58Encoder = getBase58Encoder();
/** Base58 text of bytes, and back (throws on a character outside the alphabet). */
export const base58 = {
  encode: (bytes) => base58Decoder.decode(bytes),
  decode: (text) => Uint8Array.from(base58Encoder.encode(text)),
};

export class Keypair {
  constructor() {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    this.privateKey = privateKey;
    this.publicKey = Buffer.from(publicKey.export({ format: 'jwk' }).x, 'base64url');
    this.address = addressOf(this.publicKey);
  }

  sign(message) {
    return sign(null, message, this.privateKey);
  }
}

export async function ata(owner, mint) {
  const [address, bump] = await getProgramDerivedAddress({
    programAddress: ATA_PROGRAM, seeds: [bytesOf(owner), bytesOf(TOKEN_PROGRAM), bytesOf(mint)],
  });
  return { address, bump };
}

export class Bytes {
  constructor() {
    this.parts = [];
  }
  u8(v) { this.parts.push(Buffer.from([Number(v)])); return this; }
  u32(v) { const b = Buffer.alloc(4); b.writeUInt32LE(Number(v)); this.parts.push(b); return this; }
  u64(v) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt.asUintN(64, BigInt(v))); this.parts.push(b); return this; }
  key(address) { this.parts.push(Buffer.from(bytesOf(address))); return this; }
  raw(bytes) { this.parts.push(Buffer.from(bytes)); return this; }
  done() { return Buffer.concat(this.parts); }
}

const shortVec = (n) => {
  const out = [];
  let v = n;
  for (;;) {
    let byte = v & 0x7f;
    v >>= 7;
    if (v === 0) { out.push(byte); return Buffer.from(out); }
    out.push(byte | 0x80);
  }
};

/** meta(address, {signer, writable}) */
export const meta = (address, signer = false, writable = false) => ({ address, signer, writable });
export const w = (address) => meta(address, false, true);
export const r = (address) => meta(address, false, false);
export const s = (address) => meta(address, true, false);
export const sw = (address) => meta(address, true, true);

/** A legacy transaction message, built by hand: its bytes and its signers' addresses, in order. */
function compileMessage(instructions, feePayer, blockhash) {
  const keys = new Map();
  const touch = (address, signer, writable) => {
    const k = keys.get(address) ?? { address, signer: false, writable: false };
    k.signer ||= signer;
    k.writable ||= writable;
    keys.set(address, k);
  };
  touch(feePayer, true, true);
  for (const ix of instructions) {
    for (const m of ix.accounts) touch(m.address, m.signer, m.writable);
    touch(ix.programId, false, false);
  }
  const all = [...keys.values()];
  const rank = (k) => (k.signer ? (k.writable ? 0 : 1) : k.writable ? 2 : 3);
  const ordered = [all[0], ...all.slice(1).sort((a, b) => rank(a) - rank(b))];
  const index = new Map(ordered.map((k, i) => [k.address, i]));
  const signers = ordered.filter((k) => k.signer);
  const header = Buffer.from([
    signers.length, signers.filter((k) => !k.writable).length, ordered.filter((k) => !k.signer && !k.writable).length,
  ]);
  const parts = [header, shortVec(ordered.length), ...ordered.map((k) => Buffer.from(bytesOf(k.address))),
    Buffer.from(bytesOf(blockhash)), shortVec(instructions.length)];
  for (const ix of instructions) {
    parts.push(Buffer.from([index.get(ix.programId)]), shortVec(ix.accounts.length),
      Buffer.from(ix.accounts.map((m) => index.get(m.address))), shortVec(ix.data.length), Buffer.from(ix.data));
  }
  return { message: Buffer.concat(parts), signers: signers.map((k) => k.address) };
}

/**
 * A signed legacy transaction as @solana/kit's `Transaction` ({messageBytes, signatures by signer}):
 * `payer` pays the fee; it and every keypair given sign.
 */
export function signedTransaction(instructions, payer, blockhash, keypairs = []) {
  const { message, signers } = compileMessage(instructions, payer.address, blockhash);
  const byAddress = new Map([[payer.address, payer], ...keypairs.map((k) => [k.address, k])]);
  const signatures = {};
  for (const address of signers) {
    const keypair = byAddress.get(address);
    if (!keypair) throw new Error(`no keypair for signer ${address}`);
    signatures[address] = keypair.sign(message);
  }
  return { messageBytes: message, signatures };
}

/** System `Transfer`. */
export const transfer = (from, to, lamports) => ({
  programId: SYSTEM_PROGRAM, accounts: [sw(from), w(to)], data: new Bytes().u32(2).u64(lamports).done(),
});

/** Associated Token Account `CreateIdempotent`: `address` is ata(owner, mint). */
export const createAtaIdempotent = (payer, address, owner, mint) => ({
  programId: ATA_PROGRAM,
  accounts: [sw(payer), w(address), r(owner), r(mint), r(SYSTEM_PROGRAM), r(TOKEN_PROGRAM)],
  data: Buffer.from([1]),
});

/** SPL Token `MintTo`, signed by the mint authority. */
export const mintTo = (mint, destination, authority, amount) => ({
  programId: TOKEN_PROGRAM, accounts: [w(mint), w(destination), s(authority)],
  data: new Bytes().u8(7).u64(amount).done(),
});
