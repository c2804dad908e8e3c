import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { AgentWallet, AgentWalletError, ConnectionError, RateLimitError } from '../src/index.js';
import {
  admin, agentClient, fundedWallet, fundings, newWallet, org, randomAddress, server, startProxy, unique,
} from './support.mjs';

const fast = { backoffBaseMs: 50, backoffCapMs: 200 };
const unavailable = { status: 503, body: { error: { code: 'service_unavailable', message: 'x' } } };
const keysSent = (proxy) => proxy.requests.map((request) => request.headers['idempotency-key']);

test('a payment whose answer is cut is sent again with the same key and pays once', async () => {
  const wallet = await fundedWallet({}, '10.00');
  const proxy = await startProxy((request, n) => (n === 1 ? 'cut' : 'forward'));
  try {
    const agent = agentClient(wallet, { baseUrl: proxy.baseUrl, ...fast });
    const payment = await agent.payments.create({ to: randomAddress(), amount: '1.25' });

    assert.equal(payment.status, 'confirmed');
    assert.equal(proxy.requests.length, 2);
    const keys = proxy.requests.map((request) => JSON.parse(request.body).idempotency_key);
    assert.ok(keys[0], 'the client made an idempotency key');
    assert.equal(keys[1], keys[0], 'the retry reuses it');
    assert.deepEqual(keysSent(proxy), keys, 'the header carries the same key');
    const payments = [];
    for await (const tx of admin.wallets.transactions(wallet.id, { type: 'payment' })) payments.push(tx);
    assert.deepEqual(payments.map((tx) => tx.txId), [payment.txId]);
    assert.equal((await admin.wallets.retrieve(wallet.id)).usdcBalance, '8.75');
  } finally {
    await proxy.close();
  }
});

test('a 503 is retried and the success that follows is answered', async () => {
  const wallet = await fundedWallet();
  const proxy = await startProxy((request, n) => (n === 1 ? unavailable : 'forward'));
  try {
    const client = new AgentWallet({ apiKey: org.keys.viewer, baseUrl: proxy.baseUrl, ...fast });
    const read = await client.wallets.retrieve(wallet.id);
    assert.equal(read.id, wallet.id);
    assert.equal(proxy.requests.length, 2);
  } finally {
    await proxy.close();
  }
});

test('a 429 is waited out for its Retry-After seconds', async () => {
  const wallet = await fundedWallet();
  const proxy = await startProxy((request, n) => (n === 1
    ? { status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 'rate_limit_exceeded', message: 'slow down' } } }
    : 'forward'));
  try {
    const agent = agentClient(wallet, { baseUrl: proxy.baseUrl, ...fast });
    const started = Date.now();
    const read = await agent.wallets.retrieve(wallet.id);
    assert.equal(read.id, wallet.id);
    assert.ok(Date.now() - started >= 1000, `waited ${Date.now() - started} ms`);
    assert.equal(proxy.requests.length, 2);
  } finally {
    await proxy.close();
  }
});

test('a funding whose answer is cut is sent again with the same key and funds once', async () => {
  const wallet = await newWallet();
  const proxy = await startProxy((request, n) => (n === 1 ? 'cut' : 'forward'));
  try {
    const client = new AgentWallet({ apiKey: org.keys.admin, baseUrl: proxy.baseUrl, ...fast });
    const funded = await client.wallets.fund(wallet.id, { amount: '4.00' });

    assert.equal(funded.usdcBalance, '4.00');
    const [first, retry] = proxy.requests;
    assert.equal(proxy.requests.length, 2);
    assert.equal(first.answer.status, 200, 'the server funded before the answer was cut');
    assert.ok(first.headers['idempotency-key'], 'the client made a key');
    assert.equal(retry.headers['idempotency-key'], first.headers['idempotency-key'], 'the retry reuses it');
    assert.equal(retry.answer.headers['idempotent-replayed'], 'true');
    assert.equal((await admin.wallets.retrieve(wallet.id)).usdcBalance, '4.00');
    assert.equal((await fundings(wallet.id)).length, 1);
  } finally {
    await proxy.close();
  }
});

test('a wallet creation whose answer is cut answers the same wallet and session token again', async () => {
  const policy = await admin.policies.create({ name: unique('ts-policy') });
  const agentId = unique('ts-agent');
  const proxy = await startProxy((request, n) => (n === 1 ? 'cut' : 'forward'));
  try {
    const client = new AgentWallet({ apiKey: org.keys.admin, baseUrl: proxy.baseUrl, ...fast });
    const wallet = await client.wallets.create({ agentId, policyId: policy.id });

    const lost = JSON.parse(proxy.requests[0].answer.body);
    assert.equal(proxy.requests.length, 2);
    assert.equal(wallet.id, lost.id);
    assert.equal(wallet.sessionToken, lost.session_token);
    const made = [];
    for await (const each of admin.wallets.list({ limit: 100 })) if (each.agentId === agentId) made.push(each.id);
    assert.deepEqual(made, [wallet.id]);
    assert.equal((await agentClient(wallet).wallets.retrieve(wallet.id)).id, wallet.id);
  } finally {
    await proxy.close();
  }
});

test('a withdrawal that met a 503 is sent again with the same key', async () => {
  const wallet = await fundedWallet({}, '10.00');
  const proxy = await startProxy((request, n) => (n === 1 ? unavailable : 'forward'));
  try {
    const client = new AgentWallet({ apiKey: org.keys.admin, baseUrl: proxy.baseUrl, ...fast });
    assert.equal((await client.wallets.withdraw(wallet.id, { amount: '3.00' })).usdcBalance, '7.00');
    const keys = keysSent(proxy);
    assert.equal(keys.length, 2);
    assert.equal(keys[1], keys[0]);
  } finally {
    await proxy.close();
  }
});

test('a key of the caller is answered once, and with another body is an idempotency_conflict', async () => {
  const wallet = await newWallet();
  const idempotencyKey = unique('fund');
  await admin.wallets.fund(wallet.id, { amount: '5.00' }, { idempotencyKey });
  assert.equal((await admin.wallets.fund(wallet.id, { amount: '5.00' }, { idempotencyKey })).usdcBalance, '5.00');

  const error = await admin.wallets.fund(wallet.id, { amount: '6.00' }, { idempotencyKey }).catch((e) => e);
  assert.ok(error instanceof AgentWalletError, String(error));
  assert.equal(error.status, 409);
  assert.equal(error.code, 'idempotency_conflict');
  assert.equal((await admin.wallets.retrieve(wallet.id)).usdcBalance, '5.00');
  assert.equal((await fundings(wallet.id)).length, 1);
});

test('a state change whose answer is cut is retried and answers invalid_state, having moved once', async () => {
  const sender = await fundedWallet({}, '10.00');
  const receiver = await newWallet();
  const proof = createHash('sha256').update('the output').digest('hex');
  const escrow = await agentClient(sender).escrows.create({ toWallet: receiver.id, amount: '3.00', timeoutSeconds: 3600 });
  const proxy = await startProxy((request, n) => (n === 1 ? 'cut' : 'forward'));
  try {
    const viaProxy = agentClient(receiver, { baseUrl: proxy.baseUrl, ...fast });
    const error = await viaProxy.escrows.complete(escrow.id, { proof }).catch((e) => e);
    assert.equal(proxy.requests[0].answer.status, 200, 'the first attempt released the escrow');
    assert.equal(error.status, 409, String(error));
    assert.equal(error.code, 'invalid_state');
    assert.equal((await admin.escrows.retrieve(escrow.id)).status, 'released');
    assert.equal((await admin.wallets.retrieve(receiver.id)).usdcBalance, '3.00');
  } finally {
    await proxy.close();
  }
});

test('every creating call sends an Idempotency-Key, the caller\'s own when given', async () => {
  const sent = [];
  const client = new AgentWallet({
    apiKey: org.keys.admin,
    baseUrl: server.baseUrl,
    fetch: (url, init) => {
      const path = new URL(url).pathname.replace(/^\/v1/, '');
      sent.push({ path, key: init.headers['idempotency-key'], body: init.body });
      return fetch(url, init);
    },
  });
  const own = unique('own');
  const policy = await client.policies.create({ name: unique('keyed') }, { idempotencyKey: own });
  await client.policies.clone(policy.id, { name: unique('copy') });
  const wallet = await client.wallets.create({ agentId: unique('ts-agent'), policyId: policy.id });
  await client.wallets.fund(wallet.id, { amount: '5.00' });
  await client.wallets.fundBatch([{ walletId: wallet.id, amount: '1.00' }]);
  await client.wallets.withdraw(wallet.id, { amount: '1.00' });
  const agent = { sessionToken: wallet.sessionToken };
  await client.payments.create({ walletId: wallet.id, to: randomAddress(), amount: '1.00' }, agent);
  const lock = { fromWallet: wallet.id, toWallet: randomAddress(), amount: '1.00', timeoutSeconds: 3600 };
  await client.escrows.create(lock, agent);
  const webhook = await client.webhooks.create({ url: 'https://localhost:9/hooks', events: ['transaction.completed'] });
  await client.webhooks.delete(webhook.webhookId);
  await client.transactions.createExport({ format: 'json', walletId: wallet.id });

  const creating = sent.filter((request) => request.body !== undefined && !request.path.startsWith('/webhooks/'));
  assert.deepEqual(creating.map((request) => request.path), [
    '/policies', `/policies/${policy.id}/clone`, '/wallets', `/wallets/${wallet.id}/fund`, '/wallets/fund-batch',
    `/wallets/${wallet.id}/withdraw`, '/payments', '/payments/a2a', '/webhooks', '/transactions/export',
  ]);
  assert.equal(creating[0].key, own);
  for (const request of creating.slice(1)) assert.match(request.key, /^[0-9a-f-]{36}$/, request.path);
  assert.equal(JSON.parse(creating[6].body).idempotency_key, creating[6].key, 'a payment sends its key in the body too');
});

test('a read gives up after three retries', async () => {
  const proxy = await startProxy(() => ({ status: 502 }));
  try {
    const client = new AgentWallet({ apiKey: 'sk_unused', baseUrl: proxy.baseUrl, ...fast });
    await assert.rejects(client.wallets.retrieve('wal_x'), (error) => error.status === 502);
    assert.equal(proxy.requests.length, 4);
  } finally {
    await proxy.close();
  }
});

test('a 429 that outlasts the retries is a RateLimitError with its Retry-After', async () => {
  const proxy = await startProxy(() => ({
    status: 429, headers: { 'retry-after': '0' }, body: { error: { code: 'rate_limit_exceeded', message: 'slow down', request_id: 'req_x' } },
  }));
  try {
    const client = new AgentWallet({ apiKey: org.keys.viewer, baseUrl: proxy.baseUrl, ...fast });
    await assert.rejects(client.wallets.retrieve('wal_x'),
      (error) => error instanceof RateLimitError && error.retryAfter === 0 && error.requestId === 'req_x');
    assert.equal(proxy.requests.length, 4);
  } finally {
    await proxy.close();
  }
});

test('a server that is not there is a ConnectionError after the retries', async () => {
  const proxy = await startProxy(() => 'forward');
  const { baseUrl } = proxy;
  await proxy.close();
  const client = new AgentWallet({ apiKey: org.keys.viewer, baseUrl, ...fast });
  await assert.rejects(client.payments.create({ walletId: 'wal_x', to: randomAddress(), amount: '1.00' }),
    (error) => error instanceof ConnectionError && error.status === null);
});
