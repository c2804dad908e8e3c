// Test harness: a LiteSVM with the built program, real SPL Token and a 6-decimal mint, and
// instructions of the agent-wallet program built by hand (byte layouts of docs/PROGRAM.md).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { getProgramDerivedAddress } from '@solana/kit';
import {
  Bytes, Keypair, SYSTEM_PROGRAM, TOKEN_PROGRAM, ata, bytesOf, createAtaIdempotent, mintTo, r, signedTransaction, sw, w,
} from '../localnet/solana.mjs';

export {
  ATA_PROGRAM, Bytes, Keypair, SYSTEM_PROGRAM, TOKEN_PROGRAM, addressOf, ata, bytesOf, meta, r, s, sw, w,
} from '../localnet/solana.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
export const PROGRAM_SO = join(root, 'target', 'agent_wallet.so');
export const PROGRAM_ID = 'AgentWa11etProgram1111111111111111111111111';
export const GENESIS = 1767225600n; // 2026-01-01T00:00:00Z
export const USDC = 1_000_000n;

/** com.agentwallet.core.ledger.ProgramError, by name. */
export const E = {
  SESSION_TOKEN: 1, MAX_PER_TX: 2, ALLOWED_RECIPIENTS: 3, BLOCKED_CATEGORY: 4, MAX_PER_DAY: 5, MAX_PER_MONTH: 6,
  VELOCITY_CAP: 7, POLICY_EXPIRED: 8, REQUIRE_CO_SIGN: 9, CO_SIGNATURE_INVALID: 10, WALLET_NOT_ACTIVE: 11,
  INSUFFICIENT_FUNDS: 12, ACCOUNT_NOT_FOUND: 13, ACCOUNT_MISMATCH: 14, ESCROW_NOT_OPEN: 15, PROOF_MISMATCH: 16,
  ESCROW_NOT_DUE: 17, INVALID_ARGUMENT: 18, ESCROW_DISPUTED: 19, ESCROW_EXPIRED: 20, STALE_WRITE: 21,
};
const ERROR_NAMES = Object.fromEntries(Object.entries(E).map(([name, code]) => [code, name]));

export const IX = {
  INIT_TREASURY: 0, CREATE_WALLET: 1, SET_SESSION_KEY: 2, WRITE_POLICY: 3, WRITE_POLICY_ENTRIES: 4, UPDATE_WALLET: 5,
  FUND: 6, WITHDRAW: 7, PAY: 8, ESCROW_LOCK: 9, ESCROW_RELEASE: 10, ESCROW_DISPUTE: 11, ESCROW_RESOLVE: 12,
  ESCROW_REFUND: 13, CONFIGURE: 14, SET_AUTHORITY: 15,
};

export const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest();

export async function pda(seeds) {
  const [address, bump] = await getProgramDerivedAddress({ programAddress: PROGRAM_ID, seeds });
  return { address, bump };
}

export const configPda = () => pda(['config']);
export const treasuryPda = (orgId) => pda(['treasury', sha256(orgId)]);
export const walletPda = (orgId, agentId) => pda(['agent-wallet', sha256(orgId), sha256(agentId)]);
export const policyPda = (orgId, policyId) => pda(['policy', sha256(orgId), sha256(policyId)]);
export const escrowPda = (wallet, escrowId) => pda(['escrow', bytesOf(wallet), sha256(escrowId)]);

export const UPGRADEABLE_LOADER = 'BPFLoaderUpgradeab1e11111111111111111111111';

/** The upgradeable loader's ProgramData address of `programId`. */
export async function programDataAddress(programId = PROGRAM_ID) {
  const [address] = await getProgramDerivedAddress({ programAddress: UPGRADEABLE_LOADER, seeds: [bytesOf(programId)] });
  return address;
}

/** ProgramData account bytes: tag 3, slot, Some(upgrade authority); the ELF is left out (the program is loaded apart). */
export function programDataBytes(upgradeAuthority) {
  return new Bytes().u32(3).u64(0).u8(1).key(upgradeAuthority).done();
}

/** Configure: the upgrade authority names the registrar and pins the mint; `config` and `bump` derived unless given. */
export async function configure({ upgradeAuthority, registrar, mint, programData, programId = PROGRAM_ID, ...given }) {
  const [config, bump] = given.config ? [given.config, given.bump]
    : await getProgramDerivedAddress({ programAddress: programId, seeds: ['config'] });
  return {
    programId, accounts: [sw(upgradeAuthority), w(config), r(programData), r(mint), r(SYSTEM_PROGRAM)],
    data: new Bytes().u8(IX.CONFIGURE).u8(bump).key(registrar).done(),
  };
}

// ------------------------------------------------------------------ the world

export class World {
  /** `svm`: a LiteSVM to run in instead of a new one holding the program at PROGRAM_ID. */
  constructor(svm) {
    this.svm = svm ?? new LiteSVM();
    if (!svm) this.svm.addProgram(PROGRAM_ID, readFileSync(PROGRAM_SO));
    this.payer = new Keypair();
    this.svm.airdrop(this.payer.address, 1_000_000_000_000n);
    this.upgradeAuthority = new Keypair();
    this.svm.airdrop(this.upgradeAuthority.address, 10_000_000_000n);
    this.registrar = new Keypair();
    this.loadedApart = !svm;
    this.units = new Map();
    this.setTime(GENESIS);
  }

  /**
   * Configures the program once (registrar and mint), as its upgrade authority. A program loaded apart
   * has no ProgramData account, so one naming the upgrade authority is written first.
   */
  async configure(mint) {
    if (this.configuredMint) return;
    const programData = await programDataAddress();
    if (this.loadedApart) {
      const data = programDataBytes(this.upgradeAuthority.address);
      this.svm.setAccount({
        address: programData, lamports: this.svm.minimumBalanceForRentExemption(BigInt(data.length)), data,
        programAddress: UPGRADEABLE_LOADER, executable: false,
      });
    }
    this.run('configure', await configure({
      upgradeAuthority: this.upgradeAuthority.address, registrar: this.registrar.address, mint, programData,
    }), [this.upgradeAuthority]).expectOk();
    this.configuredMint = mint;
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
    const transaction = signedTransaction(instructions, this.payer, this.svm.latestBlockhash(), keypairs);
    return new Outcome(this.svm.sendTransaction(transaction));
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
    this.send([createAtaIdempotent(this.payer.address, address, owner, mint)]).expectOk();
    return address;
  }

  mintTo(mint, authority, destination, amount) {
    this.send([mintTo(mint, destination, authority.address, amount)], [authority]).expectOk();
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
