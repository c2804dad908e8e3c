// Attacks found by review: each test fails on the program as first committed.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { isOffCurveAddress } from '@solana/kit';
import {
  E, GENESIS, Keypair, PROGRAM_ID, USDC, World, addressOf, ata, bytesOf, configPda, configure, policyPda,
  programDataAddress, sha256, treasuryPda, walletPda,
} from './harness.mjs';
import { Org } from './program.mjs';

/** The highest bump below the canonical one whose address is off the curve: a valid but non-canonical PDA. */
function nonCanonicalPda(seeds, canonicalBump) {
  for (let bump = canonicalBump - 1; bump >= 0; bump--) {
    const hash = createHash('sha256');
    for (const seed of seeds) hash.update(typeof seed === 'string' ? Buffer.from(seed) : seed);
    hash.update(Buffer.from([bump])).update(bytesOf(PROGRAM_ID)).update('ProgramDerivedAddress');
    const address = addressOf(hash.digest());
    if (isOffCurveAddress(address)) return { address, bump };
  }
  throw new Error('no non-canonical bump');
}

async function setup() {
  const world = new World();
  const org = await Org.create(world);
  org.deposit(10_000n * USDC);
  const bob = new Keypair();
  const bobToken = await world.createAta(bob.address, org.mint);
  return { world, org, bob, bobToken };
}

describe('review: a second treasury of the same organisation', () => {
  test('a treasury at a non-canonical bump of the same org_hash is refused, so a stranger gets no authority over the org', async () => {
    const { world, org, bob, bobToken } = await setup();
    const policy = await org.policy('pol_strict', { maxPerTx: USDC });
    policy.outcome.expectOk();
    const wallet = await org.wallet('agent-1', policy);
    world.run('fund', org.fund(wallet, 100n * USDC), [org.authority]).expectOk();
    const proof = sha256('the output');
    const escrow = await org.escrow(wallet, 'escrow_1');
    org.lock(escrow, bob.address, USDC, GENESIS + 600n, proof).expectOk();

    // Mallory opens "org_test" again at another bump, as its authority.
    const mallory = new Org(world, 'org_test');
    mallory.mint = org.mint;
    mallory.config = org.config;
    mallory.treasury = nonCanonicalPda(['treasury', sha256('org_test')], org.treasury.bump);
    mallory.treasuryToken = await world.createAta(mallory.treasury.address, org.mint);
    mallory.treasuryTokenBump = (await ata(mallory.treasury.address, org.mint)).bump;
    world.send([mallory.initTreasury()], [world.registrar]).expectError(E.ACCOUNT_MISMATCH);

    // What it would have allowed: a laxer version of the org's policy, and an escrow released without its proof.
    world.send([mallory.writePolicy(policy, 'pol_strict', { sequence: 9 })], [mallory.authority])
      .expectError(E.ACCOUNT_NOT_FOUND);
    org.payAs(wallet, bobToken, 50n * USDC).expectError(E.MAX_PER_TX);
    mallory.dispute(escrow).expectError(E.ACCOUNT_NOT_FOUND);
    mallory.resolve(escrow, 0, bobToken).expectError(E.ACCOUNT_NOT_FOUND);
    assert.equal(world.tokenBalance(bobToken), 0n);
    assert.equal(world.tokenBalance(escrow.vault), USDC);

    // And squatting the address of an agent the org has not opened yet.
    const squatted = await org.policy('pol_other', {});
    const target = await walletPda('org_test', 'agent-2');
    const handle = { agentId: 'agent-2', address: target.address, bump: target.bump, policy: squatted.address,
      token: await world.createAta(target.address, org.mint), tokenBump: (await ata(target.address, org.mint)).bump };
    world.send([mallory.createWallet(handle)], [mallory.authority]).expectError(E.ACCOUNT_NOT_FOUND);
    await org.wallet('agent-2', squatted);
  });
});

describe('review: the spend windows when the clock moves backwards', () => {
  test('a spend made at a later time still counts when the clock goes back', async () => {
    const { world, org, bobToken } = await setup();
    const policy = await org.policy('pol_d', { maxPerDay: 100n * USDC, velocityCap: 2 });
    policy.outcome.expectOk();
    const wallet = await org.wallet('agent-1', policy, { session: false });
    world.run('fund', org.fund(wallet, 1_000n * USDC), [org.authority]).expectOk();
    wallet.session = new Keypair();
    world.send([org.setSessionKey(wallet, wallet.session, GENESIS + 86400n)], [org.authority]).expectOk();
    world.setTime(GENESIS + 7200n);
    org.payAs(wallet, bobToken, 100n * USDC).expectOk();
    world.setTime(GENESIS + 3600n);
    org.payAs(wallet, bobToken, USDC).expectError(E.MAX_PER_DAY);
    (await org.policy('pol_d', { sequence: 2, velocityCap: 2 })).outcome.expectOk();
    org.payAs(wallet, bobToken, USDC).expectOk();
    world.setTime(GENESIS + 7200n - 60n * 60n);
    org.payAs(wallet, bobToken, USDC).expectError(E.VELOCITY_CAP);
    world.setTime(GENESIS + 7200n);
    org.payAs(wallet, bobToken, USDC).expectError(E.VELOCITY_CAP);
    assert.equal(world.tokenBalance(bobToken), 101n * USDC);
  });
});

describe('review: escrow attacks (regression)', () => {
  test('another organisation\'s authority cannot dispute, resolve or release; a refund goes only to the sending wallet', async () => {
    const { world, org, bob, bobToken } = await setup();
    const policy = await org.policy('pol_a', {});
    policy.outcome.expectOk();
    const wallet = await org.wallet('agent-1', policy);
    const other = await org.wallet('agent-2', policy);
    world.run('fund', org.fund(wallet, 100n * USDC), [org.authority]).expectOk();
    const escrow = await org.escrow(wallet, 'escrow_1');
    org.lock(escrow, bob.address, 10n * USDC, GENESIS + 60n, sha256('the output')).expectOk();
    const stranger = await Org.create(world, 'org_stranger');
    stranger.release(escrow, bobToken, sha256('anything')).expectError(E.ACCOUNT_NOT_FOUND);
    stranger.dispute(escrow).expectError(E.ACCOUNT_NOT_FOUND);
    stranger.resolve(escrow, 0, bobToken).expectError(E.ACCOUNT_NOT_FOUND);
    world.setTime(GENESIS + 60n);
    org.refund(escrow, { wallet: other.address, walletToken: other.token }).expectError(E.ACCOUNT_MISMATCH);
    org.refund(escrow, { walletToken: other.token }).expectError(E.ACCOUNT_MISMATCH);
    org.refund(escrow, { walletToken: bobToken }).expectError(E.ACCOUNT_MISMATCH);
    org.refund(escrow).expectOk();
    assert.equal(world.tokenBalance(wallet.token), 100n * USDC);
    assert.equal(world.tokenBalance(bobToken), 0n);
  });
});

describe('review: a root of trust, and each organisation its own authority', () => {
  test('only the upgrade authority configures the program; the mint, once pinned, stays', async () => {
    const world = new World();
    const mintAuthority = new Keypair();
    const mint = world.createMint(mintAuthority);
    const stranger = new Keypair();
    world.svm.airdrop(stranger.address, 10_000_000_000n);
    const programData = await programDataAddress();
    const asStranger = await configure({ upgradeAuthority: stranger.address, registrar: stranger.address, mint,
      programData });
    await world.configure(mint);
    world.send([asStranger], [stranger]).expectError(E.ACCOUNT_MISMATCH);

    const otherMint = world.createMint(mintAuthority);
    const newRegistrar = new Keypair();
    world.send([await configure({ upgradeAuthority: world.upgradeAuthority.address, registrar: newRegistrar.address,
      mint: otherMint, programData })], [world.upgradeAuthority]).expectError(E.ACCOUNT_MISMATCH);
    world.send([await configure({ upgradeAuthority: world.upgradeAuthority.address, registrar: newRegistrar.address,
      mint, programData })], [world.upgradeAuthority]).expectOk();
    const config = Buffer.from(world.account((await configPda()).address).data);
    assert.equal(addressOf(config.subarray(8, 40)), newRegistrar.address);
    assert.equal(addressOf(config.subarray(40, 72)), mint);
  });

  test('a stranger cannot open an organisation\'s treasury first, nor with another mint; the registrar can', async () => {
    const world = new World();
    const org = new Org(world, 'org_first');
    org.mintAuthority = world.mintAuthority = new Keypair();
    org.mint = world.mint = world.createMint(world.mintAuthority);
    await world.configure(org.mint);
    org.config = (await configPda()).address;
    org.treasury = await treasuryPda('org_first');
    org.treasuryToken = await world.createAta(org.treasury.address, org.mint);
    org.treasuryTokenBump = (await ata(org.treasury.address, org.mint)).bump;

    const stranger = new Keypair();
    world.send([org.initTreasury({ registrar: stranger.address })], [stranger]).expectError(E.ACCOUNT_MISMATCH);
    const fakeMint = world.createMint(stranger);
    const fakeToken = await world.createAta(org.treasury.address, fakeMint);
    const fakeTokenBump = (await ata(org.treasury.address, fakeMint)).bump;
    world.send([org.initTreasury({ mint: fakeMint, token: fakeToken, tokenBump: fakeTokenBump })], [world.registrar])
      .expectError(E.ACCOUNT_MISMATCH);
    assert.equal(world.account(org.treasury.address), null);

    world.run('init_treasury', org.initTreasury(), [world.registrar]).expectOk();
    const treasury = Buffer.from(world.account(org.treasury.address).data);
    assert.equal(addressOf(treasury.subarray(40, 72)), org.authority.address, 'the organisation\'s key, not the registrar');
    assert.equal(addressOf(treasury.subarray(72, 104)), org.mint);
  });

  test('the fee payer and the registrar are not an organisation\'s authority', async () => {
    const { world, org, bobToken } = await setup();
    const policy = await org.policy('pol_a', {});
    const wallet = await org.wallet('agent-1', policy);
    world.send([org.fund(wallet, USDC, { authority: world.payer.address })]).expectError(E.ACCOUNT_MISMATCH);
    world.send([org.fund(wallet, USDC, { authority: world.registrar.address })], [world.registrar])
      .expectError(E.ACCOUNT_MISMATCH);
    world.send([org.fund(wallet, USDC)], [org.authority]).expectOk();
    org.payAs(wallet, bobToken, USDC).expectOk();
  });

  test('an organisation rotates its authority: the old key is refused from then on, the new one works', async () => {
    const { world, org } = await setup();
    const policy = await org.policy('pol_a', {});
    const wallet = await org.wallet('agent-1', policy);
    const old = org.authority;
    const next = new Keypair();
    const stranger = new Keypair();
    world.send([org.setAuthority(stranger.address, stranger.address)], [stranger]).expectError(E.ACCOUNT_MISMATCH);
    world.send([org.setAuthority('11111111111111111111111111111111')], [old]).expectError(E.INVALID_ARGUMENT);
    world.run('set_authority', org.setAuthority(next.address), [old]).expectOk();

    world.send([org.fund(wallet, USDC)], [old]).expectError(E.ACCOUNT_MISMATCH);
    world.send([org.setSessionKey(wallet, new Keypair(), GENESIS + 60n)], [old]).expectError(E.ACCOUNT_MISMATCH);
    world.send([org.setAuthority(old.address, old.address)], [old]).expectError(E.ACCOUNT_MISMATCH);
    org.authority = next;
    world.send([org.writePolicy(await policyPda('org_test', 'pol_a'), 'pol_a', { sequence: 2 })], [next]).expectOk();
    world.send([org.fund(wallet, USDC)], [next]).expectOk();
    assert.equal(world.tokenBalance(wallet.token), USDC);
  });
});
