import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import { WebhookSignatureError, constructWebhookEvent, verifyWebhookSignature } from '../src/index.js';
import { admin, agentClient, fundedWallet, randomAddress, tlsOptions, unique } from './support.mjs';

/** A local HTTPS receiver that keeps each delivery's raw body and signature. */
async function startReceiver() {
  const deliveries = [];
  const waiting = [];
  const receiver = createServer(tlsOptions(), (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ body: Buffer.concat(chunks), signature: req.headers['service-signature'] });
      res.writeHead(204).end();
      waiting.splice(0).forEach((wake) => wake());
    });
  });
  await new Promise((done) => receiver.listen(0, 'localhost', done));
  return {
    url: `https://localhost:${receiver.address().port}/hooks`,
    deliveries,
    async next(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = deliveries.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no such delivery among ${deliveries.length}`);
        await new Promise((wake) => { waiting.push(wake); setTimeout(wake, 500); });
      }
    },
    close: () => new Promise((done) => { receiver.closeAllConnections(); receiver.close(done); }),
  };
}

const eventOf = (delivery) => JSON.parse(delivery.body.toString('utf8'));

test('a real delivery verifies against the signing secret, and a tampered one does not', async () => {
  const receiver = await startReceiver();
  try {
    const webhook = await admin.webhooks.create({ url: receiver.url, events: ['transaction.completed'] });
    assert.match(webhook.signingSecret, /^whsec_/);

    const ping = await admin.webhooks.test(webhook.webhookId);
    const delivered = await receiver.next((d) => eventOf(d).id === ping.eventId);
    assert.ok(verifyWebhookSignature(delivered.body, delivered.signature, webhook.signingSecret));
    const event = constructWebhookEvent(delivered.body, delivered.signature, webhook.signingSecret);
    assert.equal(event.event, 'ping');
    assert.equal(event.webhookId, webhook.webhookId);

    const tampered = Buffer.from(delivered.body.toString('utf8').replace('ping', 'pong'));
    assert.equal(verifyWebhookSignature(tampered, delivered.signature, webhook.signingSecret), false);
    assert.equal(verifyWebhookSignature(delivered.body, delivered.signature, 'whsec_other'), false);
    assert.equal(verifyWebhookSignature(delivered.body, 'abc', webhook.signingSecret), false);
    assert.throws(() => constructWebhookEvent(tampered, delivered.signature, webhook.signingSecret), WebhookSignatureError);

    const wallet = await fundedWallet();
    const payment = await agentClient(wallet).payments.create({ to: randomAddress(), amount: '1.00' });
    const completed = await receiver.next((d) => eventOf(d).tx_id === payment.txId);
    const paid = constructWebhookEvent(completed.body, completed.signature, webhook.signingSecret);
    assert.equal(paid.event, 'transaction.completed');
    assert.equal(paid.amount, '1.00');

    const attempts = [];
    for await (const attempt of admin.webhooks.deliveries(webhook.webhookId)) attempts.push(attempt);
    assert.ok(attempts.some((attempt) => attempt.eventId === ping.eventId && attempt.statusCode === 204));
    assert.deepEqual((await admin.webhooks.update(webhook.webhookId, { events: '*' })).events, ['*']);
    await admin.webhooks.delete(webhook.webhookId);
  } finally {
    await receiver.close();
  }
});

test('a policy is changed, cloned, audited and deleted; an export is made and downloaded', async () => {
  const policy = await admin.policies.create({ name: unique('audited'), maxPerDay: '100.00' });
  await admin.policies.update(policy.id, { maxPerDay: '200.00', maxPerTx: '5.00' });
  await admin.policies.update(policy.id, { maxPerTx: null });
  assert.equal((await admin.policies.retrieve(policy.id)).maxPerTx, null);
  const entries = [];
  for await (const entry of admin.policies.auditLog(policy.id)) entries.push(entry);
  assert.ok(entries.some((entry) => entry.changes?.maxPerDay?.new === '200.00'), JSON.stringify(entries));
  const copy = await admin.policies.clone(policy.id, { name: unique('copy') });
  assert.equal(copy.maxPerDay, '200.00');
  await admin.policies.delete(copy.id);

  const wallet = await fundedWallet();
  const job = await admin.transactions.createExport({ format: 'csv', walletId: wallet.id });
  let ready = job;
  for (let i = 0; i < 60 && ready.status === 'pending'; i++) {
    await new Promise((wake) => setTimeout(wake, 500));
    ready = await admin.transactions.retrieveExport(job.id);
  }
  assert.equal(ready.status, 'ready');
  const csv = await admin.transactions.downloadExport(job.id);
  assert.match(csv, /^tx_id,type,status,wallet_id,amount/);
  assert.match(csv, /funding/);
  const listed = [];
  for await (const tx of admin.transactions.list({ walletId: wallet.id })) listed.push(tx);
  assert.equal(listed.length, 1);
  assert.equal((await admin.transactions.retrieve(listed[0].txId)).type, 'funding');
});
