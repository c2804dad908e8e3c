// The agents' MCP endpoint, driven by the official MCP TypeScript client against the real server:
// the tools as a model sees them, payments under a policy, idempotent retries, a wallet's limits
// and a rotated token. Wallets and policies are set up over /v1 with the demo admin's API key.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { base58Encode } from '../../clients/typescript/src/index.js';
import { call, unique, useServer } from './support.mjs';

const mcp = useServer('mcp.test.mjs');
const address = () => base58Encode(randomBytes(32));
const sha256 = (text) => createHash('sha256').update(text).digest('hex');

test('lists the eight tools, each with a description and an input schema a model can read', async () => {
  const wallet = await mcp.wallet();
  const agent = await mcp.agent(wallet.sessionToken);
  const { tools } = await agent.listTools();
  console.log('tools/list as the client sees it:');
  for (const tool of tools) console.log(`  ${tool.name}: ${tool.description.split(/(?<=\.) /)[0]}`);
  assert.deepEqual(tools.map((tool) => tool.name), ['get_wallet', 'check_payment', 'pay', 'get_payment',
    'list_transactions', 'create_escrow', 'complete_escrow', 'dispute_escrow']);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.ok(tool.description.length > 80, tool.name);
  }
  const pay = tools.find((tool) => tool.name === 'pay');
  assert.deepEqual(pay.inputSchema.required, ['to', 'amount', 'idempotency_key']);
  assert.match(pay.description, /same key again on every retry/);
});

test('get_wallet reads the balance, the status and what the policy still allows this hour, day and month', async () => {
  const wallet = await mcp.wallet({ maxPerTx: '50.00', maxPerDay: '200.00', maxPerMonth: '1000.00', velocityCap: 10 });
  const agent = await mcp.agent(wallet.sessionToken);
  await call(agent, 'pay', { to: address(), amount: '30.00', idempotency_key: unique('order') });

  const result = await call(agent, 'get_wallet');
  assert.equal(result.isError, false);
  assert.match(result.content[0].text, /holds 70\.00 USDC/);
  assert.match(result.content[0].text, /170\.00 USDC more in the rolling 24 hours/);
  const read = result.structuredContent;
  assert.equal(read.wallet_id, wallet.id);
  assert.equal(read.status, 'active');
  assert.equal(read.balance, '70.00');
  assert.equal(read.currency, 'USDC');
  assert.deepEqual({ perPayment: read.policy.max_per_payment, today: read.policy.left_today,
    month: read.policy.left_this_month, hour: read.policy.payments_left_this_hour,
    largest: read.policy.largest_payment_now },
  { perPayment: '50.00', today: '170.00', month: '970.00', hour: 9, largest: '50.00' });
});

test('pay pays, and the payment reads back through get_payment, list_transactions and /v1', async () => {
  const wallet = await mcp.wallet({ maxPerTx: '50.00' });
  const agent = await mcp.agent(wallet.sessionToken);
  const to = address();

  const paid = await call(agent, 'pay', { to, amount: '12.50', idempotency_key: unique('order'), memo: 'dataset' });
  assert.equal(paid.isError, false);
  assert.match(paid.content[0].text, /12\.50 USDC/);
  const payment = paid.structuredContent;
  assert.ok(['confirmed', 'pending'].includes(payment.status), payment.status);
  assert.deepEqual({ amount: payment.amount, currency: payment.currency, to: payment.to },
    { amount: '12.50', currency: 'USDC', to });

  const read = await call(agent, 'get_payment', { payment_id: payment.payment_id });
  assert.equal(read.structuredContent.payment_id, payment.payment_id);
  const listed = await call(agent, 'list_transactions', { type: 'payment' });
  assert.deepEqual(listed.structuredContent.transactions.map((tx) => tx.payment_id), [payment.payment_id]);
  assert.equal((await mcp.admin.payments.retrieve(payment.payment_id)).amount, '12.50');
});

test('arguments that break a tool\'s input schema are an error result, and nothing is paid', async () => {
  const wallet = await mcp.wallet();
  const agent = await mcp.agent(wallet.sessionToken);

  const sevenDecimals = await call(agent, 'pay', { to: address(), amount: '1.0000001', idempotency_key: unique('order') });
  assert.equal(sevenDecimals.isError, true);
  const noKey = await call(agent, 'pay', { to: address(), amount: '1.00' });
  assert.equal(noKey.isError, true);
  assert.match(noKey.content[0].text, /idempotency_key/);
  assert.equal((await mcp.admin.wallets.retrieve(wallet.id)).usdcBalance, '100.00');
});

test('check_payment is a dry run: allowed or blocked with the rule and the numbers, nothing recorded', async () => {
  const wallet = await mcp.wallet({ maxPerTx: '50.00' });
  const agent = await mcp.agent(wallet.sessionToken);

  const allowed = await call(agent, 'check_payment', { to: address(), amount: '10.00' });
  assert.equal(allowed.structuredContent.decision, 'allowed');
  const blocked = await call(agent, 'check_payment', { to: address(), amount: '60.00' });
  assert.equal(blocked.isError, false);
  assert.equal(blocked.structuredContent.decision, 'blocked');
  assert.deepEqual(blocked.structuredContent.violation, { rule: 'max_per_tx', limit: '50.00', attempted: '60.00' });
  const history = [];
  for await (const tx of mcp.admin.wallets.transactions(wallet.id, { type: 'payment' })) history.push(tx);
  assert.deepEqual(history, []);
});

test('a payment over a cap is an error result naming the rule, its limit and the attempt', async () => {
  const wallet = await mcp.wallet({ maxPerTx: '50.00', maxPerDay: '80.00' });
  const agent = await mcp.agent(wallet.sessionToken);

  const overTx = await call(agent, 'pay', { to: address(), amount: '60.00', idempotency_key: unique('order') });
  assert.equal(overTx.isError, true);
  assert.match(overTx.content[0].text, /max_per_tx \(limit 50\.00 USDC, this payment would make it 60\.00 USDC\)/);
  assert.equal(overTx.structuredContent.error.code, 'policy_violation');
  assert.deepEqual(overTx.structuredContent.error.violation, { rule: 'max_per_tx', limit: '50.00', attempted: '60.00' });

  await call(agent, 'pay', { to: address(), amount: '50.00', idempotency_key: unique('order') });
  const overDay = await call(agent, 'pay', { to: address(), amount: '40.00', idempotency_key: unique('order') });
  assert.equal(overDay.isError, true);
  assert.deepEqual(overDay.structuredContent.error.violation, { rule: 'max_per_day', limit: '80.00', attempted: '90.00' });
  const blocked = [];
  for await (const tx of mcp.admin.wallets.transactions(wallet.id, { status: 'blocked' })) blocked.push(tx);
  assert.equal(blocked.length, 2, 'both attempts are recorded as blocked, as over /v1');
});

test('a payment at or above the co-sign threshold is pending_co_sign with the inbox link, not an error', async () => {
  const wallet = await mcp.wallet({ requireCoSign: '100.00', coSigner: mcp.coSigner() }, '500.00');
  const agent = await mcp.agent(wallet.sessionToken);

  const held = await call(agent, 'pay', { to: address(), amount: '100.00', idempotency_key: unique('order') });
  assert.equal(held.isError, false);
  assert.equal(held.structuredContent.status, 'pending_co_sign');
  assert.equal(held.structuredContent.co_sign_inbox, `${mcp.origin}/dashboard/co-sign`);
  assert.ok(held.content[0].text.includes(`${mcp.origin}/dashboard/co-sign`));
  assert.match(held.content[0].text, /get_payment/);
  const later = await call(agent, 'get_payment', { payment_id: held.structuredContent.payment_id });
  assert.equal(later.structuredContent.status, 'pending_co_sign');
  const wouldWait = await call(agent, 'check_payment', { to: address(), amount: '150.00' });
  assert.equal(wouldWait.structuredContent.decision, 'needs_co_sign');
});

test('a retry with the same idempotency key pays once', async () => {
  const wallet = await mcp.wallet();
  const agent = await mcp.agent(wallet.sessionToken);
  const payment = { to: address(), amount: '7.25', idempotency_key: unique('order') };

  const first = await call(agent, 'pay', payment);
  const retries = await Promise.all([call(agent, 'pay', payment), call(agent, 'pay', payment)]);
  for (const retry of retries) {
    assert.equal(retry.structuredContent.payment_id, first.structuredContent.payment_id);
    assert.equal(retry.structuredContent.replayed, true);
  }
  const conflict = await call(agent, 'pay', { ...payment, amount: '8.00' });
  assert.equal(conflict.structuredContent.error.code, 'idempotency_conflict');

  const payments = [];
  for await (const tx of mcp.admin.wallets.transactions(wallet.id, { type: 'payment' })) payments.push(tx);
  assert.deepEqual(payments.map((tx) => tx.txId), [first.structuredContent.payment_id]);
  assert.equal((await mcp.admin.wallets.retrieve(wallet.id)).usdcBalance, '92.75');
});

test("an agent cannot see or move another wallet's money with its own token", async () => {
  const mine = await mcp.wallet();
  const theirs = await mcp.wallet();
  const third = await mcp.wallet();
  const me = await mcp.agent(mine.sessionToken);
  const them = await mcp.agent(theirs.sessionToken);

  const their = await call(them, 'pay', { to: address(), amount: '5.00', idempotency_key: unique('order') });
  const read = await call(me, 'get_payment', { payment_id: their.structuredContent.payment_id });
  assert.equal(read.isError, true);
  assert.equal(read.structuredContent.error.code, 'not_found');

  const between = await call(them, 'create_escrow', { to_wallet: third.id, amount: '10.00', timeout_seconds: 3600,
    task_description: 'summarise', idempotency_key: unique('escrow') });
  assert.equal(between.structuredContent.status, 'locked');
  const escrowId = between.structuredContent.escrow_id;
  const completed = await call(me, 'complete_escrow', { escrow_id: escrowId, proof: sha256('not mine') });
  assert.equal(completed.isError, true);
  assert.equal(completed.structuredContent.error.code, 'not_found');
  const disputed = await call(me, 'dispute_escrow', { escrow_id: escrowId, reason: 'no', evidence: sha256('none') });
  assert.equal(disputed.structuredContent.error.code, 'not_found');
  assert.equal((await mcp.admin.escrows.retrieve(escrowId)).status, 'locked');
  assert.equal((await mcp.admin.wallets.retrieve(mine.id)).usdcBalance, '100.00');
});

test('escrow over MCP: the sender locks, the receiver completes with its proof, the sender disputes another', async () => {
  const sender = await mcp.wallet();
  const receiver = await mcp.wallet(undefined, null);
  const senderAgent = await mcp.agent(sender.sessionToken);
  const receiverAgent = await mcp.agent(receiver.sessionToken);

  const locked = await call(senderAgent, 'create_escrow', { to_wallet: receiver.id, amount: '20.00',
    timeout_seconds: 3600, task_description: 'translate', idempotency_key: unique('escrow') });
  const done = await call(receiverAgent, 'complete_escrow', { escrow_id: locked.structuredContent.escrow_id,
    proof: sha256('translation') });
  assert.equal(done.structuredContent.status, 'released');

  const second = await call(senderAgent, 'create_escrow', { to_wallet: receiver.id, amount: '5.00',
    timeout_seconds: 3600, idempotency_key: unique('escrow') });
  const disputed = await call(senderAgent, 'dispute_escrow', { escrow_id: second.structuredContent.escrow_id,
    reason: 'late', evidence: sha256('no output after the deadline we agreed') });
  assert.equal(disputed.structuredContent.status, 'disputed');
  assert.equal((await mcp.admin.wallets.retrieve(receiver.id)).usdcBalance, '20.00');
});

test('a rotated token is refused at the transport with 401 and the contract error body', async () => {
  const wallet = await mcp.wallet();
  const agent = await mcp.agent(wallet.sessionToken);
  await call(agent, 'get_wallet');

  await mcp.admin.wallets.rotateToken(wallet.id);
  const refused = await mcp.post(wallet.sessionToken, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  assert.equal(refused.status, 401);
  const body = await refused.json();
  assert.equal(body.error.code, 'authentication_failed');
  assert.match(body.error.request_id, /^req_/);
  assert.equal(refused.headers.get('x-ratelimit-limit'), '200');
  const unauthorised = (error) => error.code === 401 && /authentication_failed/.test(error.message);
  await assert.rejects(agent.callTool({ name: 'get_wallet', arguments: {} }), unauthorised);
  await assert.rejects(mcp.agent(wallet.sessionToken), unauthorised);
});

test('an API key or a forged token is no agent credential at /mcp', async () => {
  for (const credential of [mcp.org.keys.admin, 'not-a-token']) {
    const refused = await mcp.post(credential, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    assert.equal(refused.status, 401);
    assert.equal((await refused.json()).error.code, 'authentication_failed');
  }
});
