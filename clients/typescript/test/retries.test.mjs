import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentWallet, AgentWalletError, ConnectionError, RateLimitError } from '../src/index.js';
import { admin, agentClient, fundedWallet, org, randomAddress, startProxy } from './support.mjs';

const fast = { backoffBaseMs: 50, backoffCapMs: 200 };

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
  const proxy = await startProxy((request, n) => (n === 1 ? { status: 503, body: { error: { code: 'service_unavailable', message: 'x' } } } : 'forward'));
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

test('a funding that met a 503 is not sent again, since it may have been done', async () => {
  const wallet = await fundedWallet();
  const proxy = await startProxy(() => ({ status: 503, body: { error: { code: 'service_unavailable', message: 'x' } } }));
  try {
    const client = new AgentWallet({ apiKey: org.keys.admin, baseUrl: proxy.baseUrl, ...fast });
    await assert.rejects(client.wallets.fund(wallet.id, { amount: '1.00' }),
      (error) => error instanceof AgentWalletError && error.status === 503 && error.code === 'service_unavailable');
    assert.equal(proxy.requests.length, 1);
  } finally {
    await proxy.close();
  }
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
