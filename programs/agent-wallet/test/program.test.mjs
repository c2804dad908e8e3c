// The agent-wallet program in a real Solana VM (LiteSVM): real SPL Token, a 6-decimal mint.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { E, GENESIS, Keypair, USDC, World, addressOf, ata, bytesOf, sha256, walletPda } from './harness.mjs';
import { decodeAccount } from './layout.mjs';
import { Org, ix } from './program.mjs';

const units = new Map();
function collect(world) {
  for (const [name, list] of world.units) units.set(name, [...(units.get(name) ?? []), ...list]);
}

after(() => {
  const rows = [...units.entries()].map(([name, list]) => ({
    instruction: name, runs: list.length, min: Math.min(...list), max: Math.max(...list),
  }));
  console.log('\ncompute units per successful instruction (whole transaction, CPIs included):');
  console.table(rows);
});

/** An organisation with 10,000 USDC, a recipient with a token account, and a world to run in. */
async function setup(t) {
  const world = new World();
  const org = await Org.create(world);
  org.deposit(10_000n * USDC);
  const bob = new Keypair();
  const bobToken = await world.createAta(bob.address, org.mint);
  t.after(() => collect(world));
  return { world, org, bob, bobToken };
}

async function fundedWallet(world, org, policyId, rules, agentId = 'agent-1', amount = 1_000n * USDC) {
  const policy = await org.policy(policyId, rules);
  policy.outcome.expectOk();
  const wallet = await org.wallet(agentId, policy);
  world.run('fund', org.fund(wallet, amount), [org.authority]).expectOk();
  return { policy, wallet };
}

describe('success paths', () => {
  test('the wallet lives at the contract address and owns its associated token account', async (t) => {
    const { world, org } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', {});
    const expected = await walletPda('org_test', 'agent-1');
    assert.equal(wallet.address, expected.address);
    const account = world.account(wallet.address);
    assert.equal(account.programAddress, 'AgentWa11etProgram1111111111111111111111111');
    decodeAccount('wallet', account.data); // size, kind and layout version of layout.json
    const token = Buffer.from(world.account(wallet.token).data);
    assert.equal(addressOf(token.subarray(32, 64)), wallet.address);
    assert.equal(world.tokenBalance(wallet.token), 1_000n * USDC);
  });

  test('init treasury and create wallet are idempotent; a second wallet of another agent is separate', async (t) => {
    const { world, org } = await setup(t);
    world.run('init_treasury', org.initTreasury(), [world.registrar]).expectOk();
    const { wallet, policy } = await fundedWallet(world, org, 'pol_a', {});
    world.send([org.createWallet(wallet)], [org.authority]).expectOk();
    assert.equal(world.tokenBalance(wallet.token), 1_000n * USDC);
    const other = await org.wallet('agent-2', policy);
    assert.notEqual(other.address, wallet.address);
    assert.equal(world.tokenBalance(other.token), 0n);
  });

  test('fund, pay, withdraw move real tokens', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', { maxPerTx: 100n * USDC });
    org.payAs(wallet, bobToken, 12_500_000n).expectOk();
    assert.equal(world.tokenBalance(bobToken), 12_500_000n);
    world.run('withdraw', org.withdraw(wallet, 87_500_000n), [org.authority]).expectOk();
    assert.equal(world.tokenBalance(wallet.token), 900n * USDC);
    assert.equal(world.tokenBalance(org.treasuryToken), 9_087_500_000n);
  });

  test('set/rotate session key: the old key stops working at once, the new one works', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', {});
    const old = wallet.session;
    const rotated = new Keypair();
    world.run('set_session_key', org.setSessionKey(wallet, rotated, GENESIS + 7200n), [org.authority]).expectOk();
    org.payAs(wallet, bobToken, USDC, { session: old }).expectError(E.SESSION_TOKEN);
    org.payAs(wallet, bobToken, USDC, { session: rotated }).expectOk();
  });

  test('freeze, unfreeze, archive (archived stays archived), and a new policy attached', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', {});
    world.run('update_wallet', org.updateWallet(wallet, 1), [org.authority]).expectOk();
    org.payAs(wallet, bobToken, USDC).expectError(E.WALLET_NOT_ACTIVE);
    world.run('update_wallet', org.updateWallet(wallet, 0), [org.authority]).expectOk();
    org.payAs(wallet, bobToken, USDC).expectOk();
    const strict = await org.policy('pol_strict', { maxPerTx: USDC / 2n });
    world.run('update_wallet', org.updateWallet(wallet, 0, strict.address), [org.authority]).expectOk();
    wallet.policy = strict.address;
    org.payAs(wallet, bobToken, USDC).expectError(E.MAX_PER_TX);
    world.run('update_wallet', org.updateWallet(wallet, 2), [org.authority]).expectOk();
    world.send([org.updateWallet(wallet, 0)], [org.authority]).expectError(E.WALLET_NOT_ACTIVE);
    world.send([org.fund(wallet, USDC)], [org.authority]).expectError(E.WALLET_NOT_ACTIVE);
    world.send([org.withdraw(wallet, USDC)], [org.authority]).expectOk();
    world.send([org.updateWallet(wallet, 3)], [org.authority]).expectError(E.INVALID_ARGUMENT);
  });

  test('a stale or equal admin write is refused and changes nothing: policy, entries, session key, wallet', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const { wallet, policy } = await fundedWallet(world, org, 'pol_a', { sequence: 5, maxPerTx: 10n * USDC });
    for (const late of [4n, 5n]) {
      world.send([org.writePolicy(policy, 'pol_a', { sequence: late, maxPerTx: USDC })], [org.authority])
        .expectError(E.STALE_WRITE);
      world.send([org.writePolicyEntries(policy, late - 1n, 0, [])], [org.authority]).expectError(E.STALE_WRITE);
    }
    org.payAs(wallet, bobToken, 5n * USDC).expectOk();
    (await org.policy('pol_a', { sequence: 6, maxPerTx: USDC })).outcome.expectOk();
    org.payAs(wallet, bobToken, 5n * USDC).expectError(E.MAX_PER_TX);

    const current = org.sequence;
    const stranger = new Keypair();
    world.send([org.setSessionKey(wallet, stranger, GENESIS + 3600n, current)], [org.authority]).expectError(E.STALE_WRITE);
    world.send([org.setSessionKey(wallet, stranger, GENESIS + 3600n, current - 1n)], [org.authority])
      .expectError(E.STALE_WRITE);
    world.send([org.updateWallet(wallet, 1, wallet.policy, current)], [org.authority]).expectError(E.STALE_WRITE);
    org.payAs(wallet, bobToken, USDC).expectOk();
    world.run('update_wallet', org.updateWallet(wallet, 1), [org.authority]).expectOk();
    world.send([org.updateWallet(wallet, 0, wallet.policy, org.sequence - 1n)], [org.authority]).expectError(E.STALE_WRITE);
    org.payAs(wallet, bobToken, USDC).expectError(E.WALLET_NOT_ACTIVE);
  });

  test('a full policy is written in chunks; it refuses spending until complete', async (t) => {
    const { world, org, bob, bobToken } = await setup(t);
    const allowed = Array.from({ length: 31 }, () => new Keypair().address).concat([bob.address]);
    const blocked = Array.from({ length: 64 }, () => new Keypair().address);
    const policy = await org.policy('pol_big', { maxPerTx: 100n * USDC });
    const wallet = await org.wallet('agent-1', policy);
    world.run('fund', org.fund(wallet, 100n * USDC), [org.authority]).expectOk();
    const rules = { sequence: 2, maxPerTx: 100n * USDC, allowed, blocked };
    world.run('write_policy', org.writePolicy(policy, 'pol_big', rules, 20), [org.authority]).expectOk();
    org.payAs(wallet, bobToken, USDC).expectError(E.ACCOUNT_NOT_FOUND);
    const entries = [...allowed, ...blocked];
    for (let start = 20; start < entries.length; start += 20) {
      const chunk = entries.slice(start, start + 20);
      world.run('write_policy_entries', org.writePolicyEntries(policy, 2, start, chunk), [org.authority]).expectOk();
    }
    org.payAs(wallet, bobToken, USDC).expectOk();
    world.send([org.writePolicyEntries(policy, 2, 96, [bob.address])], [org.authority]).expectError(E.INVALID_ARGUMENT);
    const blockedLast = blocked[63];
    const lastToken = await world.createAta(blockedLast, org.mint);
    org.payAs(wallet, lastToken, USDC).expectError(E.ALLOWED_RECIPIENTS);
    const tooMany = { ...rules, sequence: 3, blocked: [...blocked, bob.address] };
    world.send([org.writePolicy(policy, 'pol_big', tooMany, 0)], [org.authority]).expectError(E.INVALID_ARGUMENT);
  });
});

describe('every rule rejects, in the enforcement order', () => {
  test('session_token: none set, expired, another wallet\'s key, not signing', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const policy = await org.policy('pol_a', {});
    const bare = await org.wallet('agent-bare', policy, { session: false });
    world.run('fund', org.fund(bare, 10n * USDC), [org.authority]).expectOk();
    org.payAs(bare, bobToken, USDC, { session: new Keypair() }).expectError(E.SESSION_TOKEN);
    const { wallet } = await fundedWallet(world, org, 'pol_a', {}, 'agent-1');
    const other = await org.wallet('agent-2', policy);
    org.payAs(wallet, bobToken, USDC, { session: other.session }).expectError(E.SESSION_TOKEN);
    org.payAs(wallet, bobToken, USDC, { sessionNotSigning: true }).expectError(E.SESSION_TOKEN);
    world.setTime(GENESIS + 3600n);
    org.payAs(wallet, bobToken, USDC).expectError(E.SESSION_TOKEN);
    world.setTime(GENESIS + 3599n);
    org.payAs(wallet, bobToken, USDC).expectOk();
  });

  test('each check fails on its own, and the first failing check names the violation', async (t) => {
    const { world, org, bob, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_o', { sequence: 1 });
    for (let i = 0; i < 3; i++) org.payAs(wallet, bobToken, 10n * USDC).expectOk();
    // Now day = month = 30 USDC, hour count = 3. A 20 USDC payment breaks every rule of this policy:
    const carol = new Keypair().address;
    const rules = {
      maxPerTx: 5n * USDC, allowed: [carol], blocked: [bob.address], maxPerDay: 40n * USDC, maxPerMonth: 45n * USDC,
      velocityCap: 3, expiry: GENESIS,
    };
    let version = 2;
    const rewrite = async (change) => {
      Object.assign(rules, change);
      (await org.policy('pol_o', { ...rules, sequence: version++ })).outcome.expectOk();
    };
    await rewrite({});
    org.payAs(wallet, bobToken, 20n * USDC, { session: new Keypair() }).expectError(E.SESSION_TOKEN);
    org.payAs(wallet, bobToken, 20n * USDC).expectError(E.MAX_PER_TX);
    await rewrite({ maxPerTx: 20n * USDC });
    org.payAs(wallet, bobToken, 20n * USDC).expectError(E.ALLOWED_RECIPIENTS);
    await rewrite({ allowed: [carol, bob.address] });
    org.payAs(wallet, bobToken, 20n * USDC).expectError(E.BLOCKED_CATEGORY);
    await rewrite({ blocked: [] });
    org.payAs(wallet, bobToken, 20n * USDC).expectError(E.MAX_PER_DAY);
    await rewrite({ maxPerDay: 50n * USDC });
    org.payAs(wallet, bobToken, 20n * USDC).expectError(E.MAX_PER_MONTH);
    await rewrite({ maxPerMonth: 50n * USDC });
    org.payAs(wallet, bobToken, 20n * USDC).expectError(E.VELOCITY_CAP);
    await rewrite({ velocityCap: 4 });
    org.payAs(wallet, bobToken, 20n * USDC).expectError(E.POLICY_EXPIRED);
    await rewrite({ expiry: GENESIS + 1n });
    org.payAs(wallet, bobToken, 20n * USDC).expectOk();
    assert.equal(world.tokenBalance(bobToken), 50n * USDC);
    // At the caps exactly: day 50 of 50 reached, so one more micro-USDC is over.
    org.payAs(wallet, bobToken, 1n).expectError(E.MAX_PER_DAY);
  });

  test('a frozen wallet is refused before any policy check; zero is not an amount', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', { maxPerTx: USDC });
    world.run('update_wallet', org.updateWallet(wallet, 1), [org.authority]).expectOk();
    org.payAs(wallet, bobToken, 50n * USDC, { session: new Keypair() }).expectError(E.WALLET_NOT_ACTIVE);
    world.run('update_wallet', org.updateWallet(wallet, 0), [org.authority]).expectOk();
    org.payAs(wallet, bobToken, 0n).expectError(E.INVALID_ARGUMENT);
  });

  test('insufficient funds: wallet, treasury, zero funding', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', {}, 'agent-1', 5n * USDC);
    org.payAs(wallet, bobToken, 6n * USDC).expectError(E.INSUFFICIENT_FUNDS);
    world.send([org.fund(wallet, 10_000n * USDC)], [org.authority]).expectError(E.INSUFFICIENT_FUNDS);
    world.send([org.fund(wallet, 0n)], [org.authority]).expectError(E.INSUFFICIENT_FUNDS);
    world.send([org.withdraw(wallet, 6n * USDC)], [org.authority]).expectError(E.INSUFFICIENT_FUNDS);
    assert.equal(world.tokenBalance(wallet.token), 5n * USDC);
  });
});

describe('rolling windows follow the VM clock', () => {
  test('day: a spend counts for exactly 24 h (never stricter than the service)', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_d', { maxPerDay: 100n * USDC });
    org.payAs(wallet, bobToken, 60n * USDC).expectOk();
    const session = new Keypair();
    world.run('set_session_key', org.setSessionKey(wallet, session, GENESIS + 40n * 86400n), [org.authority]).expectOk();
    wallet.session = session;
    world.setTime(GENESIS + 3600n);
    org.payAs(wallet, bobToken, 50n * USDC).expectError(E.MAX_PER_DAY);
    org.payAs(wallet, bobToken, 40n * USDC).expectOk();
    world.setTime(GENESIS + 86400n - 1n);
    org.payAs(wallet, bobToken, 1n).expectError(E.MAX_PER_DAY);
    world.setTime(GENESIS + 86400n);
    org.payAs(wallet, bobToken, 60n * USDC).expectOk();
    org.payAs(wallet, bobToken, 1n).expectError(E.MAX_PER_DAY);
  });

  test('month: 30 days of daily buckets', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_m', { maxPerMonth: 100n * USDC });
    wallet.session = new Keypair();
    world.run('set_session_key', org.setSessionKey(wallet, wallet.session, GENESIS + 90n * 86400n), [org.authority]).expectOk();
    org.payAs(wallet, bobToken, 60n * USDC).expectOk();
    world.setTime(GENESIS + 10n * 86400n);
    org.payAs(wallet, bobToken, 50n * USDC).expectError(E.MAX_PER_MONTH);
    org.payAs(wallet, bobToken, 30n * USDC).expectOk();
    world.setTime(GENESIS + 30n * 86400n - 1n);
    org.payAs(wallet, bobToken, 20n * USDC).expectError(E.MAX_PER_MONTH);
    world.setTime(GENESIS + 30n * 86400n);
    org.payAs(wallet, bobToken, 70n * USDC).expectOk();
  });

  test('velocity: payments per rolling hour', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_v', { velocityCap: 2 });
    wallet.session = new Keypair();
    world.run('set_session_key', org.setSessionKey(wallet, wallet.session, GENESIS + 86400n), [org.authority]).expectOk();
    org.payAs(wallet, bobToken, USDC).expectOk();
    world.advance(120);
    org.payAs(wallet, bobToken, USDC).expectOk();
    org.payAs(wallet, bobToken, USDC).expectError(E.VELOCITY_CAP);
    world.setTime(GENESIS + 3600n);
    org.payAs(wallet, bobToken, USDC).expectOk();
    org.payAs(wallet, bobToken, USDC).expectError(E.VELOCITY_CAP);
    const zero = await org.policy('pol_v', { sequence: 2, velocityCap: 0 });
    zero.outcome.expectOk();
    world.setTime(GENESIS + 7n * 3600n);
    org.payAs(wallet, bobToken, USDC).expectError(E.VELOCITY_CAP);
  });
});

describe('co-signature at or above the threshold', () => {
  test('needs the co-signer\'s signature; below the threshold it does not', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const coSigner = new Keypair();
    const { wallet } = await fundedWallet(world, org, 'pol_c', { coSign: 50n * USDC, coSigner });
    org.payAs(wallet, bobToken, 50n * USDC).expectError(E.CO_SIGNATURE_INVALID);
    org.payAs(wallet, bobToken, 50n * USDC, { coSigner: new Keypair() }).expectError(E.CO_SIGNATURE_INVALID);
    org.payAs(wallet, bobToken, 50n * USDC, { coSigner, coSignerNotSigning: true }).expectError(E.CO_SIGNATURE_INVALID);
    org.payAs(wallet, bobToken, 50n * USDC, { coSigner, session: new Keypair() }).expectError(E.SESSION_TOKEN);
    org.payAs(wallet, bobToken, 50n * USDC, { coSigner }).expectOk();
    org.payAs(wallet, bobToken, 50n * USDC - 1n).expectOk();
    assert.equal(world.tokenBalance(bobToken), 100n * USDC - 1n);
  });

  test('a policy that asks for co-signing without a co-signer key is refused', async (t) => {
    const { org } = await setup(t);
    (await org.policy('pol_c', { coSign: USDC })).outcome.expectError(E.INVALID_ARGUMENT);
  });
});

describe('a co-signed payment counts when the books held it (counted_at)', () => {
  const HOUR = 3600n;
  const DAY = 86400n;

  /** A wallet under `rules` with a session valid for 40 days, and the policy's co-signer. */
  async function coSignedWallet(t, rules) {
    const setupDone = await setup(t);
    const coSigner = new Keypair();
    const { wallet } = await fundedWallet(setupDone.world, setupDone.org, 'pol_h', { ...rules, coSign: 50n * USDC, coSigner });
    wallet.session = new Keypair();
    setupDone.world.run('set_session_key', setupDone.org.setSessionKey(wallet, wallet.session, GENESIS + 40n * DAY),
      [setupDone.org.authority]).expectOk();
    return { ...setupDone, wallet, coSigner };
  }

  test('held at t0 and approved at t0+26h, after 40 paid at t0+25h: it fits the day the books counted it in', async (t) => {
    const { world, org, bobToken, wallet, coSigner } = await coSignedWallet(t, { maxPerDay: 100n * USDC });
    const t0 = GENESIS;
    world.setTime(t0 + 25n * HOUR);
    org.payAs(wallet, bobToken, 40n * USDC).expectOk();
    world.setTime(t0 + 26n * HOUR);
    org.payAs(wallet, bobToken, 80n * USDC, { coSigner }).expectError(E.MAX_PER_DAY);
    org.payAs(wallet, bobToken, 80n * USDC, { coSigner, countedAt: t0 }).expectOk();
    assert.equal(world.tokenBalance(bobToken), 120n * USDC);
    org.payAs(wallet, bobToken, 49n * USDC).expectOk();
    org.payAs(wallet, bobToken, 12n * USDC).expectError(E.MAX_PER_DAY);
  });

  test('only with the co-signer\'s signature and within the month before now; a later instant counts as now', async (t) => {
    const { world, org, bobToken, wallet, coSigner } = await coSignedWallet(t, {});
    world.setTime(GENESIS + 31n * DAY);
    const now = world.now();
    const earlier = now - HOUR;
    org.payAs(wallet, bobToken, 80n * USDC, { countedAt: earlier }).expectError(E.INVALID_ARGUMENT);
    org.payAs(wallet, bobToken, 80n * USDC, { coSigner, coSignerNotSigning: true, countedAt: earlier })
      .expectError(E.INVALID_ARGUMENT);
    org.payAs(wallet, bobToken, 80n * USDC, { coSigner: new Keypair(), countedAt: earlier }).expectError(E.INVALID_ARGUMENT);
    org.payAs(wallet, bobToken, 80n * USDC, { coSigner, countedAt: now - 30n * DAY }).expectError(E.INVALID_ARGUMENT);
    org.payAs(wallet, bobToken, 80n * USDC, { coSigner, countedAt: -1n }).expectError(E.INVALID_ARGUMENT);
    assert.equal(world.tokenBalance(bobToken), 0n);
    org.payAs(wallet, bobToken, 80n * USDC, { coSigner, countedAt: now - 30n * DAY + 1n }).expectOk();
    // A cluster's clock a few seconds behind the service's: the hold counts now.
    org.payAs(wallet, bobToken, 80n * USDC, { coSigner, countedAt: now + 5n }).expectOk();
    // Below the threshold (raised while it waited), the co-signer's signature still lets it count when held.
    org.payAs(wallet, bobToken, 40n * USDC, { coSigner, countedAt: earlier }).expectOk();
    assert.equal(world.tokenBalance(bobToken), 200n * USDC);
  });

  test('counted inside the day it counts against the cap, in its own bucket: it leaves the day 24 h after it was held', async (t) => {
    const { world, org, bobToken, wallet, coSigner } = await coSignedWallet(t, { maxPerDay: 100n * USDC });
    const t0 = GENESIS;
    world.setTime(t0 + 10n * HOUR);
    org.payAs(wallet, bobToken, 60n * USDC, { coSigner, countedAt: t0 }).expectOk();
    org.payAs(wallet, bobToken, 41n * USDC).expectError(E.MAX_PER_DAY);
    org.payAs(wallet, bobToken, 40n * USDC).expectOk();
    world.setTime(t0 + DAY - 1n);
    org.payAs(wallet, bobToken, 1n).expectError(E.MAX_PER_DAY);
    world.setTime(t0 + DAY);
    org.payAs(wallet, bobToken, 49n * USDC).expectOk();
    org.payAs(wallet, bobToken, 12n * USDC).expectError(E.MAX_PER_DAY);
  });

  test('velocity counts it only while its hour holds it', async (t) => {
    const { world, org, bobToken, wallet, coSigner } = await coSignedWallet(t, { velocityCap: 2 });
    world.setTime(GENESIS + 2n * HOUR);
    org.payAs(wallet, bobToken, 60n * USDC, { coSigner, countedAt: GENESIS }).expectOk();
    org.payAs(wallet, bobToken, USDC).expectOk();
    org.payAs(wallet, bobToken, 60n * USDC, { coSigner, countedAt: world.now() - 1800n }).expectOk();
    org.payAs(wallet, bobToken, USDC).expectError(E.VELOCITY_CAP);
    org.payAs(wallet, bobToken, 60n * USDC, { coSigner, countedAt: GENESIS }).expectOk();
  });

  test('an escrow refund from the same bucket takes back only the escrow', async (t) => {
    const { world, org, bob, bobToken, wallet, coSigner } = await coSignedWallet(t, { maxPerDay: 100n * USDC });
    const escrow = await org.escrow(wallet, 'escrow_h');
    org.lock(escrow, bob.address, 30n * USDC, GENESIS + HOUR, sha256('the output')).expectOk();
    world.setTime(GENESIS + 2n * HOUR);
    org.payAs(wallet, bobToken, 60n * USDC, { coSigner, countedAt: GENESIS }).expectOk();
    org.payAs(wallet, bobToken, 11n * USDC).expectError(E.MAX_PER_DAY);
    org.refund(escrow).expectOk();
    org.payAs(wallet, bobToken, 41n * USDC).expectError(E.MAX_PER_DAY);
    org.payAs(wallet, bobToken, 40n * USDC).expectOk();
  });
});

describe('escrow', () => {
  const proof = sha256('the output');

  test('lock then release with the expected proof; a wrong proof moves nothing', async (t) => {
    const { world, org, bob, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', {});
    const escrow = await org.escrow(wallet, 'escrow_1');
    org.lock(escrow, bob.address, 40n * USDC, GENESIS + 600n, proof).expectOk();
    assert.equal(world.tokenBalance(escrow.vault), 40n * USDC);
    assert.equal(world.tokenBalance(wallet.token), 960n * USDC);
    org.release(escrow, bobToken, sha256('something else')).expectError(E.PROOF_MISMATCH);
    assert.equal(world.tokenBalance(escrow.vault), 40n * USDC);
    org.release(escrow, bobToken, proof).expectOk();
    assert.equal(world.tokenBalance(bobToken), 40n * USDC);
    assert.equal(world.account(escrow.vault), null);
    org.release(escrow, bobToken, proof).expectError(E.ACCOUNT_NOT_FOUND);
    org.lock(escrow, bob.address, USDC, GENESIS + 600n, proof).expectError(E.ACCOUNT_MISMATCH);
  });

  test('without an expected proof any proof releases; only to the receiver', async (t) => {
    const { world, org, bob, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', {});
    const escrow = await org.escrow(wallet, 'escrow_2');
    org.lock(escrow, bob.address, 5n * USDC, GENESIS + 600n, null).expectOk();
    const mallory = await world.createAta(new Keypair().address, org.mint);
    org.release(escrow, mallory, proof).expectError(E.ACCOUNT_MISMATCH);
    org.release(escrow, bobToken, sha256('anything')).expectOk();
  });

  test('timeout refund: not before the deadline, then back to the wallet and out of the windows', async (t) => {
    const { world, org, bob } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', { maxPerDay: 50n * USDC });
    const escrow = await org.escrow(wallet, 'escrow_3');
    org.lock(escrow, bob.address, 50n * USDC, GENESIS + 600n, proof).expectOk();
    const second = await org.escrow(wallet, 'escrow_4');
    org.lock(second, bob.address, USDC, GENESIS + 600n, proof).expectError(E.MAX_PER_DAY);
    world.setTime(GENESIS + 599n);
    org.refund(escrow).expectError(E.ESCROW_NOT_DUE);
    world.setTime(GENESIS + 600n);
    org.refund(escrow).expectOk();
    assert.equal(world.tokenBalance(wallet.token), 1_000n * USDC);
    org.refund(escrow).expectError(E.ACCOUNT_NOT_FOUND);
    org.lock(second, bob.address, 50n * USDC, GENESIS + 1200n, proof).expectOk();
  });

  test('dispute stops release and timeout; resolution refunds or releases', async (t) => {
    const { world, org, bob, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', {});
    const first = await org.escrow(wallet, 'escrow_5');
    org.lock(first, bob.address, 10n * USDC, GENESIS + 60n, proof).expectOk();
    org.resolve(first, 1, wallet.token).expectError(E.INVALID_ARGUMENT);
    org.dispute(first).expectOk();
    org.release(first, bobToken, proof).expectError(E.ESCROW_DISPUTED);
    world.setTime(GENESIS + 3600n);
    org.refund(first).expectError(E.ESCROW_DISPUTED);
    org.resolve(first, 1, bobToken).expectError(E.ACCOUNT_MISMATCH);
    org.resolve(first, 1, wallet.token).expectOk();
    assert.equal(world.tokenBalance(wallet.token), 1_000n * USDC);
    org.dispute(first).expectError(E.ACCOUNT_NOT_FOUND);

    wallet.session = new Keypair();
    world.run('set_session_key', org.setSessionKey(wallet, wallet.session, GENESIS + 7200n), [org.authority]).expectOk();
    const second = await org.escrow(wallet, 'escrow_6');
    org.lock(second, bob.address, 7n * USDC, GENESIS + 7200n, proof).expectOk();
    org.dispute(second).expectOk();
    org.resolve(second, 0, wallet.token).expectError(E.ACCOUNT_MISMATCH);
    org.resolve(second, 0, bobToken).expectOk();
    assert.equal(world.tokenBalance(bobToken), 7n * USDC);
  });

  test('from the deadline on release and dispute are refused; the refund, or a resolution if disputed, settles', async (t) => {
    const { world, org, bob, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', {});
    const deadline = GENESIS + 600n;
    const early = await org.escrow(wallet, 'escrow_early');
    const late = await org.escrow(wallet, 'escrow_late');
    const disputed = await org.escrow(wallet, 'escrow_disputed');
    org.lock(early, bob.address, 10n * USDC, deadline, proof).expectOk();
    org.lock(late, bob.address, 20n * USDC, deadline, proof).expectOk();
    org.lock(disputed, bob.address, 30n * USDC, deadline, proof).expectOk();

    world.setTime(deadline - 1n);
    org.release(early, bobToken, proof).expectOk();
    org.dispute(disputed).expectOk();
    assert.equal(world.tokenBalance(bobToken), 10n * USDC);

    const status = (escrow) => decodeAccount('escrow', world.account(escrow.address).data).header.status;
    for (const at of [deadline, deadline + 3600n]) {
      world.setTime(at);
      org.release(late, bobToken, proof).expectError(E.ESCROW_EXPIRED);
      org.dispute(late).expectError(E.ESCROW_EXPIRED);
      org.dispute(disputed).expectError(E.ESCROW_EXPIRED);
      org.release(disputed, bobToken, proof).expectError(E.ESCROW_DISPUTED);
      assert.equal(world.tokenBalance(late.vault), 20n * USDC);
      assert.equal(world.tokenBalance(bobToken), 10n * USDC);
      assert.deepEqual([status(late), status(disputed)], [0, 1]);
    }

    org.refund(late).expectOk();
    assert.equal(world.account(late.vault), null);
    assert.equal(world.tokenBalance(wallet.token), 960n * USDC);
    org.refund(disputed).expectError(E.ESCROW_DISPUTED);
    org.resolve(disputed, 0, bobToken).expectOk();
    assert.equal(world.tokenBalance(bobToken), 40n * USDC);
  });

  test('an escrow at or above the co-sign threshold is refused; the escrow obeys the checks', async (t) => {
    const { world, org, bob } = await setup(t);
    const coSigner = new Keypair();
    const { wallet } = await fundedWallet(world, org, 'pol_c', {
      coSign: 50n * USDC, coSigner, maxPerTx: 60n * USDC, blocked: [new Keypair().address],
    });
    const escrow = await org.escrow(wallet, 'escrow_7');
    org.lock(escrow, bob.address, 50n * USDC, GENESIS + 60n, proof).expectError(E.REQUIRE_CO_SIGN);
    org.lock(escrow, bob.address, 61n * USDC, GENESIS + 60n, proof).expectError(E.MAX_PER_TX);
    org.lock(escrow, bob.address, USDC, GENESIS + 60n, proof, { session: new Keypair() }).expectError(E.SESSION_TOKEN);
    assert.equal(world.account(escrow.address), null);
    org.lock(escrow, bob.address, 49n * USDC, GENESIS + 60n, proof).expectOk();
  });

  test('each settlement closes the vault and the escrow and pays both rents back to the payer of the lock', async (t) => {
    const { world, org, bob, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', {});
    const rents = world.svm.minimumBalanceForRentExemption(264n) + world.svm.minimumBalanceForRentExemption(165n);
    const signatureFee = 5_000n;
    const settlements = [
      { name: 'release', signers: 2n, settle: (escrow) => org.release(escrow, bobToken, proof) },
      { name: 'timeout refund', signers: 1n, settle: (escrow) => { world.setTime(GENESIS + 600n); return org.refund(escrow); } },
      { name: 'resolution (release)', signers: 2n, dispute: true, settle: (escrow) => org.resolve(escrow, 0, bobToken) },
      { name: 'resolution (refund)', signers: 2n, dispute: true, settle: (escrow) => org.resolve(escrow, 1, wallet.token) },
    ];
    for (const [i, settlement] of settlements.entries()) {
      world.setTime(GENESIS);
      const escrow = await org.escrow(wallet, `escrow_rent_${i}`);
      org.lock(escrow, bob.address, USDC, GENESIS + 600n, proof).expectOk();
      assert.deepEqual(decodeAccount('escrow', world.account(escrow.address).data).rent_payer,
        Buffer.from(bytesOf(world.payer.address)), settlement.name);
      if (settlement.dispute) org.dispute(escrow).expectOk();
      const before = world.account(world.payer.address).lamports;
      settlement.settle(escrow).expectOk();
      assert.equal(world.account(escrow.address), null, settlement.name);
      assert.equal(world.account(escrow.vault), null, settlement.name);
      assert.equal(world.account(world.payer.address).lamports - before, rents - signatureFee * settlement.signers,
        settlement.name);
    }
  });

  test('a settlement naming another rent receiver is refused and moves nothing', async (t) => {
    const { world, org, bob, bobToken } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', {});
    const mallory = new Keypair().address;
    const released = await org.escrow(wallet, 'escrow_rent_release');
    const refunded = await org.escrow(wallet, 'escrow_rent_refund');
    const resolved = await org.escrow(wallet, 'escrow_rent_resolve');
    for (const escrow of [released, refunded, resolved]) {
      org.lock(escrow, bob.address, USDC, GENESIS + 600n, proof).expectOk();
    }
    org.dispute(resolved).expectOk();
    org.release(released, bobToken, proof, { rentPayer: mallory }).expectError(E.ACCOUNT_MISMATCH);
    org.resolve(resolved, 0, bobToken, { rentPayer: mallory }).expectError(E.ACCOUNT_MISMATCH);
    world.setTime(GENESIS + 600n);
    org.refund(refunded, { rentPayer: mallory }).expectError(E.ACCOUNT_MISMATCH);
    for (const escrow of [released, refunded, resolved]) {
      assert.equal(world.tokenBalance(escrow.vault), USDC);
      assert.notEqual(world.account(escrow.address), null);
    }
    assert.equal(world.account(mallory), null);
  });
});

describe('attacks', () => {
  test('wrong signer: another key claiming the authority, or the authority not signing', async (t) => {
    const { world, org } = await setup(t);
    const { wallet } = await fundedWallet(world, org, 'pol_a', {});
    const mallory = new Keypair();
    world.svm.airdrop(mallory.address, 1_000_000_000n);
    world.send([org.fund(wallet, USDC, { authority: mallory.address })], [mallory]).expectError(E.ACCOUNT_MISMATCH);
    world.send([org.withdraw(wallet, USDC, { authority: mallory.address })], [mallory]).expectError(E.ACCOUNT_MISMATCH);
    const unsigned = org.withdraw(wallet, USDC);
    unsigned.accounts[0].signer = false;
    world.send([unsigned]).expectError(E.ACCOUNT_MISMATCH);
    world.send([org.setSessionKey(wallet, mallory, GENESIS + 99999n)].map((i) => {
      i.accounts[0] = { address: mallory.address, signer: true, writable: false };
      return i;
    }), [mallory]).expectError(E.ACCOUNT_MISMATCH);
  });

  test('substituted accounts: another wallet\'s token account, a laxer policy, another org\'s treasury', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const { wallet, policy } = await fundedWallet(world, org, 'pol_strict', { maxPerTx: USDC });
    const rich = await org.wallet('agent-rich', policy);
    world.run('fund', org.fund(rich, 500n * USDC), [org.authority]).expectOk();
    org.payAs(wallet, bobToken, USDC, { walletToken: rich.token }).expectError(E.ACCOUNT_MISMATCH);
    const lax = await org.policy('pol_lax', {});
    org.payAs(wallet, bobToken, 100n * USDC, { policy: lax.address }).expectError(E.ACCOUNT_MISMATCH);
    const otherOrg = await Org.create(world, 'org_other');
    otherOrg.deposit(100n * USDC);
    world.send([otherOrg.fund(wallet, USDC)], [otherOrg.authority]).expectError(E.ACCOUNT_NOT_FOUND);
    world.send([org.fund(wallet, USDC, { treasuryToken: otherOrg.treasuryToken })], [org.authority])
      .expectError(E.ACCOUNT_MISMATCH);
    world.send([org.withdraw(wallet, USDC, { walletToken: rich.token })], [org.authority]).expectError(E.ACCOUNT_MISMATCH);
    world.send([org.fund(wallet, USDC, { tokenProgram: 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo' })], [org.authority])
      .expectError(E.ACCOUNT_MISMATCH);
    const dup = org.fund(wallet, USDC, { walletToken: org.treasuryToken });
    world.send([dup], [org.authority]).expectError(E.ACCOUNT_MISMATCH);
    assert.equal(world.tokenBalance(rich.token), 500n * USDC);
  });

  test('a fake PDA: a wallet-shaped account at another address, and a wallet address off its seeds', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const { wallet, policy } = await fundedWallet(world, org, 'pol_a', { maxPerTx: USDC });
    const forged = new Keypair();
    const real = world.account(wallet.address);
    world.svm.setAccount({ ...real, address: forged.address });
    org.payAs(wallet, bobToken, USDC, { wallet: forged.address }).expectError(E.ACCOUNT_MISMATCH);
    const fake = { ...wallet, agentId: 'agent-9', token: await world.createAta(forged.address, org.mint) };
    world.send([org.createWallet(fake, { wallet: forged.address })], [org.authority]).expectError(E.ACCOUNT_MISMATCH);
    const other = await walletPda('org_test', 'agent-9');
    const otherToken = await world.createAta(other.address, org.mint);
    world.send([org.createWallet({ ...fake, address: other.address, bump: (other.bump + 255) % 256, token: otherToken })],
      [org.authority]).expectError(E.ACCOUNT_MISMATCH);
    assert.equal(world.account(other.address), null);
    const { bump: otherTokenBump } = await ata(other.address, org.mint);
    world.send([org.createWallet({ ...fake, address: other.address, bump: other.bump, token: otherToken,
      tokenBump: otherTokenBump, policy: policy.address })], [org.authority]).expectOk();
  });

  test('a foreign token account: not the wallet\'s ATA, another mint, and a pre-funded wallet address', async (t) => {
    const { world, org, bob, bobToken } = await setup(t);
    const policy = await org.policy('pol_a', {});
    const target = await walletPda('org_test', 'agent-x');
    const wallet = { agentId: 'agent-x', address: target.address, bump: target.bump, policy: policy.address };
    const { bump: tokenBump } = await ata(target.address, org.mint);
    world.send([org.createWallet({ ...wallet, token: bobToken, tokenBump })], [org.authority]).expectError(E.ACCOUNT_MISMATCH);
    world.svm.airdrop(target.address, 5_000_000n); // someone sends lamports to the address first
    wallet.token = await world.createAta(target.address, org.mint);
    wallet.tokenBump = tokenBump;
    world.send([org.createWallet(wallet)], [org.authority]).expectOk();
    wallet.session = new Keypair();
    world.send([org.setSessionKey(wallet, wallet.session, GENESIS + 60n)], [org.authority]).expectOk();
    world.send([org.fund(wallet, 10n * USDC)], [org.authority]).expectOk();
    const otherMintAuthority = new Keypair();
    const otherMint = world.createMint(otherMintAuthority);
    const bobOther = await world.createAta(bob.address, otherMint);
    org.payAs(wallet, bobOther, USDC).expectError(E.ACCOUNT_MISMATCH);
    world.send([org.initTreasury({ mint: otherMint })], [world.registrar]).expectError(E.ACCOUNT_MISMATCH);
    assert.equal(world.tokenBalance(wallet.token), 10n * USDC);
  });

  test('a treasury on a mint without 6 decimals is refused', async (t) => {
    const world = new World();
    t.after(() => collect(world));
    world.mintAuthority = new Keypair();
    world.mint = world.createMint(world.mintAuthority, 9);
    const org = new Org(world, 'org_9');
    await assert.rejects(org.init(), /ACCOUNT_MISMATCH/);
  });

  test('malformed instructions are refused', async (t) => {
    const { world, org } = await setup(t);
    world.send([ix([], Buffer.from([]))]).expectError(E.INVALID_ARGUMENT);
    world.send([ix([], Buffer.from([99]))]).expectError(E.INVALID_ARGUMENT);
    world.send([ix([], Buffer.from([8, 1, 2]))]).expectError(E.INVALID_ARGUMENT);
    world.send([ix([{ address: org.treasury.address, signer: false, writable: false }], Buffer.from([11]))])
      .expectError(E.INVALID_ARGUMENT);
  });
});

describe('the program and the core agree', () => {
  test('custom error codes are exactly ProgramError\'s, 1:1', () => {
    const java = readFileSync(new URL('../../../core/src/main/java/com/agentwallet/core/ledger/ProgramError.java', import.meta.url), 'utf8');
    const fromJava = Object.fromEntries([...java.matchAll(/^\s+([A-Z_]+)\((\d+)\)[,;]/gm)].map((m) => [m[1], Number(m[2])]));
    const header = readFileSync(new URL('../src/layout.h', import.meta.url), 'utf8');
    const fromC = Object.fromEntries([...header.matchAll(/ERR_([A-Z_]+) = (\d+),/g)].map((m) => [m[1], Number(m[2])]));
    assert.ok(Object.keys(fromJava).length >= 19);
    assert.deepEqual(fromC, fromJava);
    assert.deepEqual(E, fromJava);
  });

  test('compute units: pay stays well under the 200,000 default', async (t) => {
    const { world, org, bobToken } = await setup(t);
    const coSigner = new Keypair();
    const rules = {
      maxPerTx: 100n * USDC, maxPerDay: 10_000n * USDC, maxPerMonth: 10_000n * USDC, velocityCap: 1000,
      expiry: GENESIS + 10n ** 6n, coSign: 50n * USDC, coSigner,
      allowed: [...Array.from({ length: 31 }, () => new Keypair().address), addressOfToken(world, bobToken)],
      blocked: Array.from({ length: 20 }, () => new Keypair().address),
    };
    const { wallet } = await fundedWallet(world, org, 'pol_full', rules);
    let worst = 0;
    for (let i = 0; i < 15; i++) {
      world.advance(200);
      const outcome = org.payAs(wallet, bobToken, 60n * USDC, { coSigner }).expectOk();
      worst = Math.max(worst, outcome.units);
    }
    console.log(`pay with every rule set, a full allow list and co-signature: at most ${worst} compute units`);
    assert.ok(worst < 50_000, `pay took ${worst} compute units`);
  });
});

function addressOfToken(world, token) {
  return addressOf(Buffer.from(world.account(token).data).subarray(32, 64));
}

