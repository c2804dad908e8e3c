// Deploys the built program through the upgradeable BPF loader, the way `solana program deploy`
// does: a buffer account written in chunks, then DeployWithMaxDataLen, which creates the program's
// data account from the buffer and makes the program executable. The payer is the upgrade
// authority, and then writes the program's configuration account (the registrar that may open
// treasuries, and the USDC mint). Prints the program id on stdout; progress goes to stderr.
// See docs/PROGRAM.md.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  Connection, Keypair, PublicKey, SYSVAR_CLOCK_PUBKEY, SYSVAR_RENT_PUBKEY, SystemProgram, Transaction,
  TransactionInstruction, sendAndConfirmTransaction,
} from '@solana/web3.js';

export const UPGRADEABLE_LOADER = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');
/** UpgradeableLoaderState sizes: the Buffer header before the ELF, and Program. */
const BUFFER_HEADER = 37;
const PROGRAM_SIZE = 36;
/** ELF bytes per Write: with one signer, the transaction stays under the 1232-byte packet limit. */
export const WRITE_CHUNK = 1000;
const LOADER = { INITIALIZE_BUFFER: 0, WRITE: 1, DEPLOY_WITH_MAX_DATA_LEN: 2 };

const root = dirname(fileURLToPath(import.meta.url));
const USAGE = `usage: node deploy.mjs --url <rpc url> --keypair <payer keypair.json>
  --registrar <base58 public key> --mint <base58 USDC mint>
  [--program-keypair <program keypair.json>] [--program target/agent_wallet.so] [--max-len <bytes>]`;
/** The program's Configure instruction. */
const CONFIGURE = 14;

const u32 = (value) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
};
const u64 = (value) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(BigInt(value));
  return bytes;
};
const meta = (pubkey, isSigner, isWritable) => ({ pubkey, isSigner, isWritable });

export const programDataAddress = (programId) => PublicKey.findProgramAddressSync([programId.toBytes()], UPGRADEABLE_LOADER)[0];

const initializeBuffer = (buffer, authority) => new TransactionInstruction({
  programId: UPGRADEABLE_LOADER, keys: [meta(buffer, false, true), meta(authority, false, false)],
  data: u32(LOADER.INITIALIZE_BUFFER),
});

const write = (buffer, authority, offset, bytes) => new TransactionInstruction({
  programId: UPGRADEABLE_LOADER, keys: [meta(buffer, false, true), meta(authority, true, false)],
  data: Buffer.concat([u32(LOADER.WRITE), u32(offset), u64(bytes.length), bytes]),
});

const deployWithMaxDataLen = ({ payer, program, buffer, authority, maxDataLen }) => new TransactionInstruction({
  programId: UPGRADEABLE_LOADER,
  keys: [
    meta(payer, true, true), meta(programDataAddress(program), false, true), meta(program, false, true),
    meta(buffer, false, true), meta(SYSVAR_RENT_PUBKEY, false, false), meta(SYSVAR_CLOCK_PUBKEY, false, false),
    meta(SystemProgram.programId, false, false), meta(authority, true, false),
  ],
  data: Buffer.concat([u32(LOADER.DEPLOY_WITH_MAX_DATA_LEN), u64(maxDataLen)]),
});

/**
 * The transactions of a deployment, in order, each as {instructions, signers} (the payer first):
 * create and initialize the buffer, write the ELF into it, create the program account and deploy.
 * `rent(size)` is the rent-exempt minimum of an account of `size` bytes.
 */
export function deploymentPlan({ payer, program, buffer, elf, maxDataLen = elf.length, rent }) {
  if (maxDataLen < elf.length) throw new Error(`--max-len ${maxDataLen} is smaller than the program (${elf.length} bytes)`);
  const plan = [{
    instructions: [
      SystemProgram.createAccount({
        fromPubkey: payer.publicKey, newAccountPubkey: buffer.publicKey, lamports: rent(BUFFER_HEADER + elf.length),
        space: BUFFER_HEADER + elf.length, programId: UPGRADEABLE_LOADER,
      }),
      initializeBuffer(buffer.publicKey, payer.publicKey),
    ],
    signers: [payer, buffer],
  }];
  for (let offset = 0; offset < elf.length; offset += WRITE_CHUNK) {
    plan.push({
      instructions: [write(buffer.publicKey, payer.publicKey, offset, elf.subarray(offset, offset + WRITE_CHUNK))],
      signers: [payer],
    });
  }
  plan.push({
    instructions: [
      // DeployWithMaxDataLen moves the program-data rent from the payer itself; the program account is made here.
      SystemProgram.createAccount({
        fromPubkey: payer.publicKey, newAccountPubkey: program.publicKey, lamports: rent(PROGRAM_SIZE),
        space: PROGRAM_SIZE, programId: UPGRADEABLE_LOADER,
      }),
      deployWithMaxDataLen({
        payer: payer.publicKey, program: program.publicKey, buffer: buffer.publicKey, authority: payer.publicKey, maxDataLen,
      }),
    ],
    signers: [payer, program],
  });
  return plan;
}

/**
 * The program's Configure, signed by its upgrade authority: names the registrar, the only key that may open an
 * organisation's treasury, and pins the mint every treasury holds.
 */
export function configureInstruction({ authority, programId, registrar, mint }) {
  const [config, bump] = PublicKey.findProgramAddressSync([Buffer.from('config')], programId);
  return new TransactionInstruction({
    programId,
    keys: [
      meta(authority, true, true), meta(config, false, true), meta(programDataAddress(programId), false, false),
      meta(mint, false, false), meta(SystemProgram.programId, false, false),
    ],
    data: Buffer.concat([Buffer.from([CONFIGURE, bump]), registrar.toBuffer()]),
  });
}

/**
 * Deploys `elf` over `connection`, then configures it with `registrar` and `mint`; resolves with the program id
 * once both are confirmed.
 */
export async function deploy(connection, {
  payer, elf, program = Keypair.generate(), maxDataLen, registrar, mint, log = () => {},
}) {
  const rents = new Map();
  for (const size of [BUFFER_HEADER + elf.length, PROGRAM_SIZE]) {
    rents.set(size, await connection.getMinimumBalanceForRentExemption(size));
  }
  const buffer = Keypair.generate();
  const plan = deploymentPlan({ payer, program, buffer, elf, maxDataLen, rent: (size) => rents.get(size) });
  log(`buffer ${buffer.publicKey.toBase58()}: ${elf.length} bytes in ${plan.length - 2} writes`);
  for (const [i, { instructions, signers }] of plan.entries()) {
    await sendAndConfirmTransaction(connection, new Transaction().add(...instructions), signers, { commitment: 'confirmed' });
    if (i === 0 || i === plan.length - 1 || i % 10 === 0) log(`transaction ${i + 1}/${plan.length} confirmed`);
  }
  const configure = configureInstruction({ authority: payer.publicKey, programId: program.publicKey, registrar, mint });
  await sendAndConfirmTransaction(connection, new Transaction().add(configure), [payer], { commitment: 'confirmed' });
  log(`configured: registrar ${registrar.toBase58()}, mint ${mint.toBase58()}`);
  return program.publicKey;
}

/** A solana-keygen JSON keypair file: 64 numbers, the secret key then the public key. */
export function readKeypair(file) {
  const secret = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(secret) || secret.length !== 64) throw new Error(`${file} is not a 64-byte keypair file`);
  return Keypair.fromSecretKey(Uint8Array.from(secret));
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        url: { type: 'string' },
        keypair: { type: 'string' },
        'program-keypair': { type: 'string' },
        program: { type: 'string', default: join(root, 'target', 'agent_wallet.so') },
        'max-len': { type: 'string' },
        registrar: { type: 'string' },
        mint: { type: 'string' },
      },
    }));
  } catch (e) {
    console.error(`${e.message}\n${USAGE}`);
    process.exit(2);
  }
  let registrar;
  let mint;
  try {
    registrar = new PublicKey(values.registrar ?? '');
    mint = new PublicKey(values.mint ?? '');
  } catch {
    registrar = null;
  }
  if (!values.url || !values.keypair || !registrar || (values['max-len'] !== undefined && !/^\d+$/.test(values['max-len']))) {
    console.error(USAGE);
    process.exit(2);
  }
  const elf = readFileSync(resolve(values.program));
  const payer = readKeypair(resolve(values.keypair));
  const program = values['program-keypair'] ? readKeypair(resolve(values['program-keypair'])) : Keypair.generate();
  const connection = new Connection(values.url, 'confirmed');
  const log = (message) => console.error(`deploy: ${message}`);
  log(`${values.program} (${elf.length} bytes) to ${values.url} as ${program.publicKey.toBase58()}, paid by ${payer.publicKey.toBase58()}`);
  const maxDataLen = values['max-len'] === undefined ? elf.length : Number(values['max-len']);
  const programId = await deploy(connection, { payer, elf, program, maxDataLen, registrar, mint, log });
  // Exits once the id is written: web3.js's idle WebSocket would keep the process alive a while.
  process.stdout.write(`${programId.toBase58()}\n`, () => process.exit(0));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    console.error(`deploy failed: ${e.message}`);
    if (e.logs) console.error(e.logs.join('\n'));
    process.exit(1);
  });
}
