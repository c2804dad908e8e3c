// Test harness: a LiteSVM with the built program, real SPL Token and a 6-decimal mint, and
// instructions of the agent-wallet program built by hand (byte layouts of docs/PROGRAM.md).
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { getAddressDecoder, getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
export const PROGRAM_SO = join(root, 'target', 'agent_wallet.so');
export const PROGRAM_ID = 'AgentWa11etProgram1111111111111111111111111';
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const GENESIS = 1767225600n; // 2026-01-01T00:00:00Z
export const USDC = 1_000_000n;

/** com.agentwallet.core.ledger.ProgramError, by name. */
export const E = {
  SESSION_TOKEN: 1, MAX_PER_TX: 2, ALLOWED_RECIPIENTS: 3, BLOCKED_CATEGORY: 4, MAX_PER_DAY: 5, MAX_PER_MONTH: 6,
  VELOCITY_CAP: 7, POLICY_EXPIRED: 8, REQUIRE_CO_SIGN: 9, CO_SIGNATURE_INVALID: 10, WALLET_NOT_ACTIVE: 11,
  INSUFFICIENT_FUNDS: 12, ACCOUNT_NOT_FOUND: 13, ACCOUNT_MISMATCH: 14, ESCROW_NOT_OPEN: 15, PROOF_MISMATCH: 16,
  ESCROW_NOT_DUE: 17, INVALID_ARGUMENT: 18, ESCROW_DISPUTED: 19,
};
const ERROR_NAMES = Object.fromEntries(Object.entries(E).map(([name, code]) => [code, name]));

export const IX = {
  INIT_TREASURY: 0, CREATE_WALLET: 1, SET_SESSION_KEY: 2, WRITE_POLICY: 3, WRITE_POLICY_ENTRIES: 4, UPDATE_WALLET: 5,
  FUND: 6, WITHDRAW: 7, PAY: 8, ESCROW_LOCK: 9, ESCROW_RELEASE: 10, ESCROW_DISPUTE: 11, ESCROW_RESOLVE: 12,
  ESCROW_REFUND: 13,
};

const addressEncoder = getAddressEncoder();
const addressDecoder = getAddressDecoder();
export const bytesOf = (address) => Uint8Array.from(addressEncoder.encode(address));
export const addressOf = (bytes) => addressDecoder.decode(bytes);
export const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest();

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

export async function pda(seeds) {
  const [address, bump] = await getProgramDerivedAddress({ programAddress: PROGRAM_ID, seeds });
  return { address, bump };
}

export async function ata(owner, mint) {
  const [address, bump] = await getProgramDerivedAddress({
    programAddress: ATA_PROGRAM, seeds: [bytesOf(owner), bytesOf(TOKEN_PROGRAM), bytesOf(mint)],
  });
  return { address, bump };
}

export const treasuryPda = (orgId) => pda(['treasury', sha256(orgId)]);
export const walletPda = (orgId, agentId) => pda(['agent-wallet', sha256(orgId), sha256(agentId)]);
export const policyPda = (orgId, policyId) => pda(['policy', sha256(orgId), sha256(policyId)]);
export const escrowPda = (wallet, escrowId) => pda(['escrow', bytesOf(wallet), sha256(escrowId)]);

// ------------------------------------------------------------------ bytes

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

/** A legacy transaction message, built and signed by hand. */
function compile(instructions, feePayer, blockhash) {
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

// ------------------------------------------------------------------ the world

export class World {
  constructor() {
    this.svm = new LiteSVM();
    this.svm.addProgram(PROGRAM_ID, readFileSync(PROGRAM_SO));
    this.payer = new Keypair();
    this.svm.airdrop(this.payer.address, 1_000_000_000_000n);
    this.units = new Map();
    this.setTime(GENESIS);
  }

  setTime(unixSeconds) {
    const clock = this.svm.getClock();
    clock.unixTimestamp = BigInt(unixSeconds);
    clock.slot = clock.slot + 1n;
    this.svm.setClock(clock);
  }

  now() {
    return this.svm.getClock().unixTimestamp;
  }

  advance(seconds) {
    this.setTime(this.now() + BigInt(seconds));
  }

  /** Sends a transaction; the fee payer signs, and so does every keypair given. */
  send(instructions, keypairs = []) {
    this.svm.expireBlockhash();
    const { message, signers } = compile(instructions, this.payer.address, this.svm.latestBlockhash());
    const byAddress = new Map([[this.payer.address, this.payer], ...keypairs.map((k) => [k.address, k])]);
    const signatures = {};
    for (const address of signers) {
      const keypair = byAddress.get(address);
      if (!keypair) throw new Error(`no keypair for signer ${address}`);
      signatures[address] = keypair.sign(message);
    }
    const result = this.svm.sendTransaction({ messageBytes: message, signatures });
    return new Outcome(result);
  }

  /** Sends one instruction of the program and records its compute units under `name`. */
  run(name, instruction, keypairs = []) {
    const outcome = this.send([instruction], keypairs);
    if (outcome.ok) {
      const list = this.units.get(name) ?? [];
      list.push(outcome.units);
      this.units.set(name, list);
    }
    return outcome;
  }

  account(address) {
    const account = this.svm.getAccount(address);
    return account.exists ? account : null;
  }

  tokenBalance(address) {
    const account = this.account(address);
    return account ? Buffer.from(account.data).readBigUInt64LE(64) : null;
  }

  // ---------------------------------------------------------------- SPL setup

  createMint(authority, decimals = 6) {
    const mint = new Keypair();
    const space = 82n;
    const lamports = this.svm.minimumBalanceForRentExemption(space);
    const create = {
      programId: SYSTEM_PROGRAM, accounts: [sw(this.payer.address), sw(mint.address)],
      data: new Bytes().u32(0).u64(lamports).u64(space).key(TOKEN_PROGRAM).done(),
    };
    const init = {
      programId: TOKEN_PROGRAM, accounts: [w(mint.address)],
      data: new Bytes().u8(20).u8(decimals).key(authority.address).u8(0).done(),
    };
    this.send([create, init], [mint]).expectOk();
    return mint.address;
  }

  async createAta(owner, mint) {
    const { address } = await ata(owner, mint);
    this.send([{
      programId: ATA_PROGRAM,
      accounts: [sw(this.payer.address), w(address), r(owner), r(mint), r(SYSTEM_PROGRAM), r(TOKEN_PROGRAM)],
      data: Buffer.from([1]),
    }]).expectOk();
    return address;
  }

  mintTo(mint, authority, destination, amount) {
    this.send([{
      programId: TOKEN_PROGRAM, accounts: [w(mint), w(destination), s(authority.address)],
      data: new Bytes().u8(7).u64(amount).done(),
    }], [authority]).expectOk();
  }
}

export class Outcome {
  constructor(result) {
    this.failed = result instanceof FailedTransactionMetadata;
    this.ok = !this.failed;
    const metadata = this.failed ? result.meta() : result;
    this.units = Number(metadata.computeUnitsConsumed());
    this.logs = metadata.logs();
    this.error = this.failed ? result.err() : null;
  }

  get customCode() {
    const inner = this.error?.err?.();
    return inner && typeof inner === 'object' && 'code' in inner ? inner.code : null;
  }

  describe() {
    return this.ok ? 'success' : `${this.error?.toString()} (${ERROR_NAMES[this.customCode] ?? 'not custom'})\n${this.logs.join('\n')}`;
  }

  expectOk() {
    if (!this.ok) throw new Error(`expected success, got ${this.describe()}`);
    return this;
  }

  expectError(code) {
    if (this.ok || this.customCode !== code) {
      throw new Error(`expected ${ERROR_NAMES[code]} (${code}), got ${this.describe()}`);
    }
    return this;
  }
}
