import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import {
  AgentWallet, AuthenticationError, base58Decode, base58Encode, signCoSignPayload, InvalidRequestError, NotFoundError, PermissionError, PolicyViolationError,
} from '../src/index.js';
import {
  admin, agentClient, coSignPolicy, coSignerSecretKey, fundedWallet, operator, org, randomAddress, server, unique,
} from './support.mjs';

test('an agent pays and reads its own wallet with its session token alone', async () => {
  const wallet = await fundedWallet({ maxPerTx: '50.00' });
  const agent = agentClient(wallet);

  const decision = await agent.payments.dryRun({ to: randomAddress(), amount: '2.00' });
  assert.deepEqual(decision, { object: 'payment_decision', decision: 'allowed', violation: null });
  const payment = await agent.payments.create({ to: randomAddress(), amount: '2.00', memo: 'inference' });
  assert.equal(payment.status, 'confirmed');
  assert.equal(payment.walletId, wallet.id);
  assert.equal(payment.amount, '2.00');
  assert.equal((await agent.payments.retrieve(payment.txId)).txId, payment.txId);
  assert.equal((await agent.wallets.retrieve(wallet.id)).usdcBalance, '98.00');

  await assert.rejects(agent.policies.retrieve(wallet.policyId),
    (error) => error instanceof PermissionError && error.status === 403 && error.requiredRole === 'viewer');
});

test('a backend pays for an agent with its API key and the agent token in Session-Token', async () => {
  const wallet = await fundedWallet();
  const payment = await admin.payments.create({ walletId: wallet.id, to: randomAddress(), amount: '1.00' },
    { sessionToken: wallet.sessionToken });
  assert.equal(payment.status, 'confirmed');
});

test('a policy violation carries its rule, limit and attempted amount', async () => {
  const wallet = await fundedWallet({ maxPerTx: '5.00' });
  const error = await agentClient(wallet).payments.create({ to: randomAddress(), amount: '6.50' }).catch((e) => e);
  assert.ok(error instanceof PolicyViolationError, String(error));
  assert.equal(error.status, 422);
  assert.equal(error.code, 'policy_violation');
  assert.deepEqual(error.violation, { rule: 'max_per_tx', limit: '5.00', attempted: '6.50' });
  assert.match(error.requestId, /^req_/);
});

test('errors are typed: not found, invalid request with its param, authentication', async () => {
  await assert.rejects(admin.wallets.retrieve('wal_000000000000000000000000'),
    (error) => error instanceof NotFoundError && error.code === 'not_found');
  await assert.rejects(admin.policies.create({ name: unique('bad'), maxPerTx: '1.0000001' }),
    (error) => error instanceof InvalidRequestError && error.param === 'max_per_tx');
  const stranger = new AgentWallet({ apiKey: 'sk_nobody000000000000000000000', baseUrl: server.baseUrl });
  await assert.rejects(stranger.wallets.retrieve('wal_000000000000000000000000'),
    (error) => error instanceof AuthenticationError && error.status === 401);
});

test('a list is walked page after page through next_cursor', async () => {
  const wallet = await fundedWallet({}, '1.00');
  for (let i = 0; i < 6; i++) await admin.wallets.fund(wallet.id, { amount: '1.00' });
  const pages = [];
  const counting = new AgentWallet({
    apiKey: org.keys.viewer,
    baseUrl: server.baseUrl,
    fetch: (url, init) => { pages.push(new URL(url).searchParams.get('cursor')); return fetch(url, init); },
  });
  const seen = [];
  for await (const tx of counting.wallets.transactions(wallet.id, { type: 'funding', limit: 2 })) seen.push(tx.txId);
  assert.equal(seen.length, 7);
  assert.equal(new Set(seen).size, 7);
  assert.equal(pages.length, 4);
  assert.equal(pages[0], null);
  assert.ok(pages.slice(1).every(Boolean), 'later pages send the cursor');
});

test('a payment at the co-sign threshold waits, is signed by the operator and is confirmed', async () => {
  const wallet = await fundedWallet(coSignPolicy('10.00'));
  const held = await agentClient(wallet).payments.create({ to: randomAddress(), amount: '10.00' });
  assert.equal(held.status, 'pending_co_sign');
  assert.ok(held.coSignPayload);
  assert.equal((await admin.wallets.retrieve(wallet.id)).usdcBalance, '90.00');

  const signed = await operator.payments.approve(held, coSignerSecretKey);
  assert.equal(signed.txId, held.txId);
  assert.equal(signed.status, 'confirmed');
  assert.ok(signed.txSignature);
});

test('a payment waiting for its co-signature can be rejected, which gives the hold back', async () => {
  const wallet = await fundedWallet(coSignPolicy('10.00'));
  const held = await agentClient(wallet).payments.create({ to: randomAddress(), amount: '20.00' });
  const rejected = await operator.payments.reject(held.txId, { reason: 'not today' });
  assert.equal(rejected.status, 'rejected');
  assert.equal((await admin.wallets.retrieve(wallet.id)).usdcBalance, '100.00');
});

test('an escrow between two agents is locked and released with its proof', async () => {
  const sender = await fundedWallet();
  const receiver = await fundedWallet({}, '0.01');
  const proof = createHash('sha256').update('the output').digest('hex');
  const escrow = await agentClient(sender).escrows.create({
    toWallet: receiver.id, amount: '3.00', taskDescription: 'summarise', timeoutSeconds: 3600, expectedProof: proof,
  });
  assert.equal(escrow.status, 'locked');
  const listed = [];
  for await (const item of agentClient(receiver).escrows.list()) listed.push(item.id);
  assert.ok(listed.includes(escrow.id));
  const released = await agentClient(receiver).escrows.complete(escrow.id, { proof });
  assert.equal(released.status, 'released');
});

test('wallets are funded in a batch, renamed, given a new token and archived', async () => {
  const first = await fundedWallet({}, '1.00');
  const second = await fundedWallet({}, '1.00');
  const batch = await admin.wallets.fundBatch([{ walletId: first.id, amount: '2.00' }, { walletId: second.id, amount: '3.00' }]);
  assert.deepEqual(batch.data.map((w) => w.usdcBalance), ['3.00', '4.00']);
  assert.equal((await admin.wallets.update(first.id, { label: 'renamed' })).label, 'renamed');
  const rotated = await admin.wallets.rotateToken(first.id, { ttlSeconds: 600 });
  assert.equal(rotated.walletId, first.id);
  await assert.rejects(agentClient(first).wallets.retrieve(first.id), AuthenticationError);
  assert.equal((await agentClient({ sessionToken: rotated.sessionToken }).wallets.retrieve(first.id)).id, first.id);
  assert.equal((await admin.wallets.archive(first.id)).status, 'archived');
});

test('a recipient category blocks payments to it', async () => {
  const recipient = randomAddress();
  await admin.recipients.setCategory(recipient, 'gambling');
  assert.equal((await admin.recipients.retrieve(recipient)).category, 'gambling');
  const wallet = await fundedWallet({ blockedCategories: ['gambling'] });
  const error = await agentClient(wallet).payments.create({ to: recipient, amount: '1.00' }).catch((e) => e);
  assert.equal(error.violation?.rule, 'blocked_category');
});

test('a disputed escrow is resolved by the operator', async () => {
  const sender = await fundedWallet();
  const escrow = await agentClient(sender).escrows.create({ toWallet: randomAddress(), amount: '2.00', timeoutSeconds: 3600 });
  const evidence = createHash('sha256').update('evidence').digest('hex');
  const disputed = await agentClient(sender).escrows.dispute(escrow.id, { reason: 'wrong output', evidence });
  assert.equal(disputed.status, 'disputed');
  const refunded = await operator.escrows.resolve(escrow.id, { outcome: 'refund' });
  assert.equal(refunded.status, 'refunded');
  assert.equal((await admin.escrows.retrieve(escrow.id)).status, 'refunded');
});

test('a co-signature by another key is refused and changes nothing', async () => {
  const wallet = await fundedWallet(coSignPolicy('10.00'));
  const held = await agentClient(wallet).payments.create({ to: randomAddress(), amount: '10.00' });
  const wrong = signCoSignPayload(held.coSignPayload, randomBytes(32));
  await assert.rejects(operator.payments.coSign(held.txId, wrong), InvalidRequestError);
  assert.equal((await admin.payments.retrieve(held.txId)).status, 'pending_co_sign');
});

test('base58 keeps leading zero bytes', () => {
  const bytes = Uint8Array.from([0, 0, 1, 2, 255]);
  assert.deepEqual(base58Decode(base58Encode(bytes)), bytes);
  assert.equal(base58Encode(new Uint8Array(3)), '111');
});
