// The built SBPF v3 program deployed the way a cluster takes a program: through the upgradeable
// loader (buffer writes, then DeployWithMaxDataLen, as deploy.mjs sends them), in a LiteSVM with
// every feature on, SIMD-0500 included: there a v0 build of the same object is refused.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { PublicKey, Keypair as Web3Keypair, Transaction } from '@solana/web3.js';
import { getProgramDerivedAddress } from '@solana/kit';
import { FeatureSet, LiteSVM } from 'litesvm';
import { UPGRADEABLE_LOADER, configureInstruction, deploymentPlan, programDataAddress } from '../deploy.mjs';
import { Keypair, Outcome, PROGRAM_SO, World, ata, bytesOf, sha256 } from './harness.mjs';
import { initTreasury } from './program.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
/** "Disable deployment of SBPF v0, v1 and v2 programs". */
const SIMD_0500 = 'B8JJXCy5amZyWG9r7EnUYLwzXSXTxG7GZ1qZ1qggo83g';
const SBPF_VERSION_REFUSED = 'Detected sbpf_version required by the executable which are not enabled';

const scratch = mkdtempSync(join(tmpdir(), 'agent-wallet-deploy-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The same clang object as target/agent_wallet.so, linked as SBPF v0. */
function v0Build() {
  const output = join(scratch, 'agent_wallet.v0.so');
  const link = spawnSync(process.execPath, [join(root, 'tools', 'link.mjs'), '--sbpf-v0',
    join(root, 'target', 'agent_wallet.o'), output], { encoding: 'utf8' });
  assert.equal(link.status, 0, link.stderr);
  return readFileSync(output);
}

function allFeaturesWorld() {
  // The feature set first: the builtins and SPL programs are then loaded for it.
  const svm = LiteSVM.default().withFeatureSet(FeatureSet.allEnabled()).withBuiltins().withSysvars().withPrecompiles()
    .withDefaultPrograms().withLamports(10n ** 18n);
  return new World(svm);
}

/** Sends one step of deploy.mjs's plan (web3.js instructions and signers) to the LiteSVM. */
function sendStep(world, { instructions, signers }) {
  world.svm.expireBlockhash();
  const transaction = new Transaction({ feePayer: signers[0].publicKey, recentBlockhash: world.svm.latestBlockhash() })
    .add(...instructions);
  transaction.sign(...signers);
  const signatures = Object.fromEntries(transaction.signatures.map(({ publicKey, signature }) => [publicKey.toBase58(), signature]));
  return new Outcome(world.svm.sendTransaction({ messageBytes: transaction.serializeMessage(), signatures }));
}

/** Runs the whole deployment of `elf`; returns the program keypair and the last step's outcome. */
function deployInto(world, elf) {
  const payer = Web3Keypair.generate();
  world.svm.airdrop(payer.publicKey.toBase58(), 100_000_000_000n);
  const program = Web3Keypair.generate();
  const plan = deploymentPlan({
    payer, program, buffer: Web3Keypair.generate(), elf, rent: (size) => Number(world.svm.minimumBalanceForRentExemption(BigInt(size))),
  });
  for (const step of plan.slice(0, -1)) sendStep(world, step).expectOk();
  return { payer, program, outcome: sendStep(world, plan.at(-1)) };
}

describe('deployment through the upgradeable loader with every feature on', () => {
  test('the feature set has SIMD-0500 on', () => {
    assert.ok(FeatureSet.allEnabled().isActive(bytesOf(SIMD_0500)));
  });

  test('the v3 build deploys, is configured by its upgrade authority, and runs: the registrar opens a treasury', async () => {
    const world = allFeaturesWorld();
    const elf = readFileSync(PROGRAM_SO);
    assert.equal(elf.readUInt32LE(48), 3, 'target/agent_wallet.so is SBPF v3');
    const { payer, program, outcome } = deployInto(world, elf);
    outcome.expectOk();
    const programId = program.publicKey.toBase58();
    const account = world.account(programId);
    assert.equal(account.executable, true);
    assert.equal(account.programAddress, UPGRADEABLE_LOADER.toBase58());
    const programData = Buffer.from(world.account(programDataAddress(program.publicKey).toBase58()).data);
    assert.ok(programData.subarray(13, 45).equals(payer.publicKey.toBytes()), 'the payer is the upgrade authority');
    assert.ok(programData.subarray(45, 45 + elf.length).equals(elf));

    world.svm.warpToSlot(world.svm.getClock().slot + 1n); // a deployed program runs from the next slot
    const mint = world.createMint(new Keypair());
    const registrar = new Keypair();
    sendStep(world, {
      instructions: [configureInstruction({
        authority: payer.publicKey, programId: program.publicKey, registrar: new PublicKey(registrar.address),
        mint: new PublicKey(mint),
      })],
      signers: [payer],
    }).expectOk();
    const authority = new Keypair();
    const orgId = 'org_deployed';
    const [config] = await getProgramDerivedAddress({ programAddress: programId, seeds: ['config'] });
    const [treasury, bump] = await getProgramDerivedAddress({ programAddress: programId, seeds: ['treasury', sha256(orgId)] });
    const token = await world.createAta(treasury, mint);
    const { bump: tokenBump } = await ata(treasury, mint);
    const instruction = {
      ...initTreasury({
        payer: world.payer.address, registrar: registrar.address, config, authority: authority.address, treasury,
        token, mint, bump, tokenBump, orgId,
      }),
      programId,
    };
    const run = world.send([instruction], [registrar]).expectOk();
    assert.ok(run.logs.includes(`Program ${programId} success`), run.logs.join('\n'));
    const created = world.account(treasury);
    assert.equal(created.programAddress, programId);
    assert.equal(created.data[0], 1, 'kind treasury');
    assert.ok(Buffer.from(created.data.subarray(40, 72)).equals(Buffer.from(bytesOf(authority.address))));
  });

  test('a v0 build of the same object is refused', () => {
    const world = allFeaturesWorld();
    const elf = v0Build();
    assert.equal(elf.readUInt32LE(48), 0, 'the --sbpf-v0 build is SBPF v0');
    const { program, outcome } = deployInto(world, elf);
    assert.equal(outcome.ok, false);
    assert.ok(outcome.logs.some((line) => line.includes(SBPF_VERSION_REFUSED)), outcome.logs.join('\n'));
    assert.equal(world.account(program.publicKey.toBase58()), null);
  });
});
