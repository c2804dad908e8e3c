// deploy.mjs as a user runs it: against the project's localnet, with a payer keypair file, a
// program keypair file, a registrar and the mint; the program it deploys and configures is then
// invoked there by the registrar.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import {
  Connection, Keypair as Web3Keypair, PublicKey, Transaction, TransactionInstruction,
} from '@solana/web3.js';
import { getProgramDerivedAddress } from '@solana/kit';
import { UPGRADEABLE_LOADER, programDataAddress, readKeypair } from '../deploy.mjs';
import { createAtaIdempotent } from '../localnet/solana.mjs';
import { PROGRAM_SO, ata, sha256 } from './harness.mjs';
import { decodeAccount } from './layout.mjs';
import { startLocalnet } from './localnet-process.mjs';
import { initTreasury } from './program.mjs';

const DEPLOY = join(dirname(dirname(fileURLToPath(import.meta.url))), 'deploy.mjs');
const MINT = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU';

const scratch = mkdtempSync(join(tmpdir(), 'agent-wallet-deploy-localnet-'));
const payerFile = join(scratch, 'payer.json');
let localnet;

before(async () => {
  // --fee-payer writes a keypair to the file and funds it: the deployment's payer.
  localnet = await startLocalnet(['--slot-ms', '0', '--fee-payer', payerFile]);
});

after(() => {
  localnet?.child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

async function run(args) {
  const child = spawn(process.execPath, [DEPLOY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const [code] = await once(child, 'exit');
  return { code, stdout, stderr };
}

/** A kit-style instruction of test/program.mjs as web3.js's. */
const web3Instruction = ({ programId, accounts, data }) => new TransactionInstruction({
  programId: new PublicKey(programId), data: Buffer.from(data),
  keys: accounts.map((m) => ({ pubkey: new PublicKey(m.address), isSigner: m.signer, isWritable: m.writable })),
});

test('deploy.mjs deploys the built program to localnet, where it then runs', async () => {
  const program = Web3Keypair.generate();
  const programFile = join(scratch, 'program.json');
  writeFileSync(programFile, JSON.stringify([...program.secretKey]));
  const registrar = Web3Keypair.generate();
  const deployed = await run(['--url', localnet.rpc_url, '--keypair', payerFile, '--program-keypair', programFile,
    '--registrar', registrar.publicKey.toBase58(), '--mint', MINT]);
  assert.equal(deployed.code, 0, deployed.stderr);
  const programId = deployed.stdout.trim();
  assert.equal(programId, program.publicKey.toBase58());

  const connection = new Connection(localnet.rpc_url, 'confirmed');
  const account = await connection.getAccountInfo(program.publicKey);
  assert.equal(account.executable, true);
  assert.ok(account.owner.equals(UPGRADEABLE_LOADER));
  const elf = readFileSync(PROGRAM_SO);
  const programData = await connection.getAccountInfo(programDataAddress(program.publicKey));
  assert.ok(programData.data.subarray(45, 45 + elf.length).equals(elf));

  const [config] = await getProgramDerivedAddress({ programAddress: programId, seeds: ['config'] });
  const configured = decodeAccount('config', (await connection.getAccountInfo(new PublicKey(config))).data);
  assert.ok(configured.registrar.equals(registrar.publicKey.toBuffer()));
  assert.ok(configured.mint.equals(new PublicKey(MINT).toBuffer()));

  const payer = readKeypair(payerFile);
  const authority = Web3Keypair.generate().publicKey;
  const orgId = 'org_deployed';
  const [treasury, bump] = await getProgramDerivedAddress({ programAddress: programId, seeds: ['treasury', sha256(orgId)] });
  const { address: token, bump: tokenBump } = await ata(treasury, MINT);
  const transaction = new Transaction().add(
    web3Instruction(createAtaIdempotent(payer.publicKey.toBase58(), token, treasury, MINT)),
    web3Instruction({
      ...initTreasury({
        payer: payer.publicKey.toBase58(), registrar: registrar.publicKey.toBase58(), config,
        authority: authority.toBase58(), treasury, token, mint: MINT, bump, tokenBump, orgId,
      }),
      programId,
    }),
  );
  transaction.recentBlockhash = (await connection.getLatestBlockhash()).blockhash;
  transaction.sign(payer, registrar);
  // The localnet lands a transaction before sendTransaction answers, so no confirmation is awaited:
  // web3.js would open a WebSocket that, once the localnet is gone, keeps this process alive.
  const signature = await connection.sendRawTransaction(transaction.serialize());
  const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
  assert.ok(landed.meta.logMessages.includes(`Program ${programId} success`), landed.meta.logMessages.join('\n'));
  const created = await connection.getAccountInfo(new PublicKey(treasury));
  assert.equal(created.owner.toBase58(), programId);
  assert.ok(decodeAccount('treasury', created.data).authority.equals(authority.toBuffer()));
});

test('deploy.mjs without the RPC URL or the payer keypair prints its usage and exits with 2', async () => {
  const refused = await run(['--keypair', payerFile]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /usage: node deploy\.mjs --url/);
  assert.equal(refused.stdout, '');
});
