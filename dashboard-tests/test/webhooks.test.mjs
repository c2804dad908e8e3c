// The admin's webhooks pages in Debian's Chromium, served by the real server jar started for these
// tests, delivering to a real HTTPS receiver in this process.
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { axe as runAxe, screenshot, submit, useDashboard } from './support.mjs';

const dashboard = useDashboard('Webhooks browser tests');
const { openPage, login, signIn, addUser } = dashboard;
const PATIENCE_MS = 30_000;

async function axe(page, name) {
  const { byImpact } = await runAxe(page, name);
  assert.equal(byImpact.serious + byImpact.critical, 0);
}

/** Polls `probe` until it answers something truthy, and answers that. */
async function until(what, probe, timeoutMs = PATIENCE_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(250);
  }
}

/**
 * A local HTTPS receiver with the server's own certificate (the demo configuration accepts
 * self-signed receivers on this machine). `answer(path)` is the status each POST gets; every POST
 * is kept with its raw body, signature and the status it got.
 */
async function startReceiver(answer) {
  const received = [];
  const tls = { pfx: readFileSync(dashboard.server.keyStore.path), passphrase: dashboard.server.keyStore.password };
  const server = createServer(tls, (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const status = answer(req.url);
      received.push({ path: req.url, body, event: JSON.parse(body.toString('utf8')),
        signature: req.headers['service-signature'], status });
      res.writeHead(status).end();
    });
  });
  await new Promise((done) => server.listen(0, 'localhost', done));
  return {
    received,
    url: (path) => `https://localhost:${server.address().port}${path}`,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(done); }),
  };
}

const signedWith = (delivery, secret) => createHmac('sha256', secret).update(delivery.body).digest('hex')
  === delivery.signature;

/**
 * Makes the webhook's scheduled deliveries due now, in the server's embedded database: the retry
 * schedule waits 1 min, 5 min, 30 min and 2 h between attempts and the server has no setting to
 * shorten it, so the test moves the due times forward as a clock jump would (the dispatcher then
 * tries them as it would hours later).
 */
async function dueNow(webhookId) {
  assert.match(webhookId, /^wh_[A-Za-z0-9]+$/);
  const postgres = join(dashboard.server.dataDirectory, 'postgres');
  const port = readFileSync(join(postgres, 'postmaster.pid'), 'utf8').split('\n')[3].trim();
  const password = readFileSync(join(dashboard.server.dataDirectory, 'postgres-password'), 'utf8').trim();
  const client = new pg.Client({ host: 'localhost', port: Number(port), user: 'postgres', password, database: 'agent_wallet' });
  await client.connect();
  try {
    await client.query("UPDATE webhook_deliveries SET next_attempt_at = now() WHERE webhook_id = $1 "
      + "AND status = 'scheduled'", [webhookId]);
  } finally {
    await client.end();
  }
}

/** The /v1 delivery log of a webhook (its first page, newest first). */
const deliveries = async (org, id) => (await dashboard.get(`webhooks/${id}/deliveries?limit=100`, org.keys.admin)).data;

/** A new wallet of `org`, under a new open policy. */
async function newWallet(org) {
  const policy = await dashboard.post('policies', org.keys.admin, { name: `webhooks-${randomUUID()}` });
  return dashboard.post('wallets', org.keys.admin, { agent_id: `webhooks-${randomUUID()}`, policy_id: policy.id });
}

/** The texts of the cells of the table row that contains `text`. */
async function row(page, table, text) {
  return page.locator(`table.${table} tbody tr`, { hasText: text }).first().locator('td').allInnerTexts();
}

/** Opens the list through the navigation, as an admin would. */
async function openList(page) {
  await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
  await page.waitForLoadState();
  assert.equal(new URL(page.url()).pathname, '/dashboard/webhooks');
}

/** Adds a webhook through the list's form; answers its id and the secret shown once. */
async function addWebhook(page, url, events) {
  await page.getByLabel('Receiver URL').fill(url);
  for (const event of events) await page.getByLabel(event, { exact: true }).check();
  assert.equal(await submit(page, page.getByRole('button', { name: 'Add webhook' })), 200);
  assert.equal(new URL(page.url()).pathname, '/dashboard/webhooks', 'the secret is the POST\'s answer, no redirect');
  return { id: await page.locator('#secret-title code').innerText(), secret: await page.locator('#webhook-secret').innerText() };
}

test('a webhook degraded by a failing receiver is re-enabled in the dashboard, and the paused events arrive signed', async () => {
  const org = dashboard.server.credentials.organisations[1];
  let failing = true;
  const receiver = await startReceiver((path) => (path === '/failing' && failing ? 500 : 200));
  const { context, page, problems } = await openPage();
  try {
    await signIn(page, await addUser(1, 'admin'));
    await openList(page);
    const webhook = await addWebhook(page, receiver.url('/failing'), ['wallet.created', 'wallet.funded']);
    assert.match(webhook.id, /^wh_/);
    assert.match(webhook.secret, /^whsec_/);
    assert.match(await page.locator('main').innerText(), /Copy it now; it will not be shown again/);
    assert.equal((await page.content()).split(webhook.secret).length - 1, 1, 'the secret is on the page once');
    await axe(page, 'the new webhook\'s shown-once page');
    const shown = await dashboard.get(`webhooks/${webhook.id}`, org.keys.admin);
    assert.deepEqual([shown.url, shown.events, shown.status, shown.signing_secret],
      [receiver.url('/failing'), ['wallet.created', 'wallet.funded'], 'active', undefined]);
    // A healthy receiver of the same events shows when the server has moved past an event.
    const healthy = await dashboard.post('webhooks', org.keys.admin, { url: receiver.url('/healthy'),
      events: ['wallet.created', 'wallet.funded'] });
    const healthyGot = (type, walletId) => receiver.received.find((d) => d.path === '/healthy'
      && d.event.event === type && d.event.wallet_id === walletId);

    // The first event fails its five attempts, the schedule moved forward between them.
    const first = await newWallet(org);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const logged = await until(`attempt ${attempt}`, async () => (await deliveries(org, webhook.id))
        .find((d) => d.attempt === attempt));
      assert.deepEqual([logged.event, logged.status_code], ['wallet.created', 500]);
      assert.equal(logged.next_attempt_at === null, attempt === 5);
      if (attempt < 5) await dueNow(webhook.id);
    }
    await until('degraded', async () => (await dashboard.get(`webhooks/${webhook.id}`, org.keys.admin)).status
      === 'degraded');
    const failed = receiver.received.filter((d) => d.path === '/failing');
    assert.equal(failed.length, 5);
    const exhausted = failed[0].event.id;
    assert.ok(failed.every((d) => d.event.id === exhausted && d.status === 500 && signedWith(d, webhook.secret)));
    assert.equal(failed[0].event.wallet_id, first.id);

    // Events while degraded are paused: the healthy webhook gets them, the degraded one does not.
    await dashboard.post(`wallets/${first.id}/fund`, org.keys.admin, { amount: '5.00' });
    const second = await newWallet(org);
    await until('the healthy receiver\'s events', async () => healthyGot('wallet.funded', first.id)
      && healthyGot('wallet.created', second.id));
    assert.equal(receiver.received.filter((d) => d.path === '/failing').length, 5, 'nothing sent while degraded');

    // The list flags it, in words and in colour; its page has the button.
    await page.goto(`${dashboard.origin}/dashboard/webhooks`);
    const [url, events, status] = await row(page, 'webhooks', webhook.id);
    assert.match(url, new RegExp(`^${receiver.url('/failing')}`));
    assert.equal(events, 'wallet.created, wallet.funded');
    assert.equal(status, '⚠ degraded: deliveries paused');
    assert.equal(await page.locator('table.webhooks tbody tr', { hasText: webhook.id })
      .locator('.webhook-status.degraded').count(), 1);
    assert.equal((await row(page, 'webhooks', healthy.webhook_id))[2], 'active');
    assert.equal((await page.content()).includes('whsec_'), false, 'no secret in the list');
    await axe(page, '/dashboard/webhooks');
    await screenshot(page, 'webhooks');

    await page.getByRole('link', { name: receiver.url('/failing') }).click();
    await page.waitForLoadState();
    assert.equal(new URL(page.url()).pathname, `/dashboard/webhooks/${webhook.id}`);
    assert.match(await page.getByRole('heading', { name: 'Degraded: deliveries are paused' }).textContent(), /Degraded/);
    assert.equal(await page.locator('table.deliveries tbody tr', { hasText: 'failed: answered 500' }).count(), 5);
    const [firstEvent, , firstAttempted, firstOutcome] = await row(page, 'deliveries', '1 of 5');
    assert.deepEqual([firstEvent.replace(/\s+/g, ' '), firstOutcome], [`wallet.created ${exhausted}`, 'failed: answered 500']);
    assert.match(firstAttempted, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    assert.equal((await row(page, 'deliveries', '5 of 5'))[5], 'none', 'no retry after the fifth');
    assert.match((await row(page, 'deliveries', '4 of 5'))[5], /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await axe(page, 'a degraded webhook and its delivery log');

    failing = false;
    assert.equal(await submit(page, page.getByRole('button', { name: 'Re-enable' })), 303);
    assert.equal(new URL(page.url()).pathname, `/dashboard/webhooks/${webhook.id}`);
    assert.equal(await page.getByRole('button', { name: 'Re-enable' }).count(), 0);
    assert.match(await page.locator('.lead').innerText(), /status active/);
    assert.equal((await dashboard.get(`webhooks/${webhook.id}`, org.keys.admin)).status, 'active');

    // What waited arrives, signed, the first wallet's events in order.
    const arrived = await until('the paused events', async () => {
      const ok = receiver.received.filter((d) => d.path === '/failing' && d.status === 200);
      return ok.length >= 3 ? ok : null;
    });
    assert.deepEqual(arrived.map((d) => [d.event.event, d.event.wallet_id]).sort(), [
      ['wallet.created', first.id], ['wallet.created', second.id], ['wallet.funded', first.id]].sort());
    assert.equal(arrived.find((d) => d.event.event === 'wallet.created' && d.event.wallet_id === first.id).event.id,
      exhausted, 'the exhausted event, requeued');
    assert.ok(arrived.indexOf(arrived.find((d) => d.event.id === exhausted))
      < arrived.findIndex((d) => d.event.event === 'wallet.funded'), 'events of one wallet in order');
    assert.ok(arrived.every((d) => signedWith(d, webhook.secret)), 'every delivery verifies with the secret shown once');

    await until('the log\'s deliveries', async () => {
      await page.reload();
      return (await page.locator('table.deliveries tbody tr', { hasText: 'delivered (200)' }).count()) === 3;
    });
    assert.equal((await row(page, 'deliveries', 'delivered (200)'))[5], 'none');
    assert.deepEqual(problems, []);
    await axe(page, 'a re-enabled webhook\'s delivery log');
    await screenshot(page, 'webhook-deliveries');
  } finally {
    await context.close();
    await receiver.close();
  }
});

test('an admin sends a test ping that shows in the delivery log, edits the webhook, and deletes it', async () => {
  const org = dashboard.server.credentials.organisations[0];
  const receiver = await startReceiver(() => 200);
  const { context, page, problems } = await openPage();
  try {
    await signIn(page, await addUser(0, 'admin'));
    await openList(page);
    const webhook = await addWebhook(page, receiver.url('/all'), ['All events']);
    assert.deepEqual((await dashboard.get(`webhooks/${webhook.id}`, org.keys.admin)).events, ['*']);
    await page.getByRole('link', { name: 'Open the webhook' }).click();
    await page.waitForLoadState();

    assert.equal(await submit(page, page.getByRole('button', { name: 'Send a test ping' })), 303);
    const notice = await page.getByRole('status').innerText();
    const pingId = notice.match(/Test ping (evt_[A-Za-z0-9]+) queued/)?.[1];
    assert.ok(pingId, notice);
    const ping = await until('the ping', async () => receiver.received.find((d) => d.event.id === pingId));
    assert.deepEqual([ping.event.event, ping.event.webhook_id], ['ping', webhook.id]);
    assert.ok(signedWith(ping, webhook.secret));
    await until('the ping in the log', async () => {
      await page.reload();
      return (await page.locator('table.deliveries tbody tr', { hasText: pingId }).count()) === 1;
    });
    const [event, attempt, , outcome, , next] = await row(page, 'deliveries', pingId);
    assert.deepEqual([event.replace(/\s+/g, ' '), attempt, outcome, next], [`ping ${pingId}`, '1 of 5', 'delivered (200)', 'none']);

    // The log pages by 20, newest first: the first ping is on the second page.
    for (let ping = 0; ping < 20; ping += 1) await dashboard.post(`webhooks/${webhook.id}/test`, org.keys.admin, {});
    await until('21 attempts', async () => (await deliveries(org, webhook.id)).length === 21);
    await page.reload();
    assert.equal(await page.locator('table.deliveries tbody tr').count(), 20);
    assert.equal(await page.locator('table.deliveries tbody tr', { hasText: pingId }).count(), 0);
    await page.getByRole('link', { name: 'Older attempts' }).click();
    await page.waitForLoadState();
    assert.equal(await page.locator('table.deliveries tbody tr').count(), 1);
    assert.equal(await page.locator('table.deliveries tbody tr', { hasText: pingId }).count(), 1);
    assert.equal(await page.getByRole('link', { name: 'Older attempts' }).count(), 0);
    assert.equal((await page.goto(`${dashboard.origin}/dashboard/webhooks/${webhook.id}?after=garbage`)).status(), 400);
    await page.goto(`${dashboard.origin}/dashboard/webhooks/${webhook.id}`);

    // A refused change keeps what was typed and changes nothing.
    await page.getByLabel('Receiver URL').fill('http://localhost/plain');
    assert.equal(await submit(page, page.getByRole('button', { name: 'Save changes' })), 400);
    assert.match(await page.getByRole('alert').innerText(), /https:\/\//);
    assert.equal(await page.getByLabel('Receiver URL').inputValue(), 'http://localhost/plain');
    assert.equal((await dashboard.get(`webhooks/${webhook.id}`, org.keys.admin)).url, receiver.url('/all'));

    await page.getByLabel('Receiver URL').fill(receiver.url('/escrows'));
    await page.getByLabel('All events').uncheck();
    await page.getByLabel('escrow.created', { exact: true }).check();
    await page.getByLabel('escrow.disputed', { exact: true }).check();
    assert.equal(await submit(page, page.getByRole('button', { name: 'Save changes' })), 303);
    const edited = await dashboard.get(`webhooks/${webhook.id}`, org.keys.admin);
    assert.deepEqual([edited.url, edited.events], [receiver.url('/escrows'), ['escrow.created', 'escrow.disputed']]);
    assert.equal(await page.getByLabel('escrow.disputed', { exact: true }).isChecked(), true);
    assert.equal(await page.getByLabel('All events').isChecked(), false);

    assert.equal(await submit(page, page.getByRole('button', { name: 'Delete this webhook' })), 303);
    assert.equal(new URL(page.url()).pathname, '/dashboard/webhooks');
    assert.equal(await page.locator('table.webhooks tbody tr', { hasText: webhook.id }).count(), 0);
    const gone = await dashboard.api.get(`webhooks/${webhook.id}`, { headers: { Authorization: `Bearer ${org.keys.admin}` } });
    assert.equal(gone.status(), 404);
    assert.equal((await page.goto(`${dashboard.origin}/dashboard/webhooks/${webhook.id}`)).status(), 404);
    assert.equal((await page.goto(`${dashboard.origin}/dashboard/webhooks/not-an-id`)).status(), 404);
    assert.deepEqual(problems.filter((text) => !/status of 40[04]/.test(text)), []);
  } finally {
    await context.close();
    await receiver.close();
  }
});

test('an invalid new webhook is refused with its reason, keeping what was typed, and adds nothing', async () => {
  const org = dashboard.server.credentials.organisations[0];
  const { context, page } = await openPage();
  await signIn(page, login(0, 'owner'));
  await page.goto(`${dashboard.origin}/dashboard/webhooks`);
  const count = async () => (await dashboard.get('webhooks?limit=100', org.keys.admin)).data.length;
  const before = await count();
  await page.getByLabel('Receiver URL').fill('https://localhost/no-events');
  assert.equal(await submit(page, page.getByRole('button', { name: 'Add webhook' })), 400);
  assert.match(await page.getByRole('alert').innerText(), /'events' must name at least one event/);
  assert.equal(await page.getByLabel('Receiver URL').inputValue(), 'https://localhost/no-events');
  assert.equal(await count(), before);
  await context.close();
});

test('a viewer and an operator have no webhooks link and are refused the pages and their forms', async () => {
  const org = dashboard.server.credentials.organisations[0];
  const webhook = await dashboard.post('webhooks', org.keys.admin, { url: 'https://localhost/lower-roles',
    events: ['escrow.disputed'] });
  for (const login_ of [await addUser(0, 'viewer'), login(0, 'operator')]) {
    const { context, page } = await openPage();
    await signIn(page, login_);
    const links = await page.getByRole('navigation').getByRole('link').allInnerTexts();
    assert.equal(links.some((text) => text.includes('Webhooks')), false, links.join(', '));
    for (const path of ['/dashboard/webhooks', `/dashboard/webhooks/${webhook.webhook_id}`]) {
      const response = await page.goto(`${dashboard.origin}${path}`);
      assert.equal(response.status(), 403, path);
      assert.match(await page.getByRole('heading', { level: 1 }).textContent(), /^403/);
    }
    const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
    const forms = [['', { url: 'https://localhost/x', events: '*' }], [`/${webhook.webhook_id}`, { url: 'https://localhost/y', events: '*' }],
      [`/${webhook.webhook_id}/test`, {}], [`/${webhook.webhook_id}/re-enable`, {}], [`/${webhook.webhook_id}/delete`, {}]];
    for (const [path, form] of forms) {
      const answer = await page.request.post(`${dashboard.origin}/dashboard/webhooks${path}`,
        { form: { csrf_token: csrf, ...form }, maxRedirects: 0 });
      assert.equal(answer.status(), 403, path);
      assert.equal((await answer.text()).includes('whsec_'), false);
    }
    await context.close();
  }
  const after = await dashboard.get(`webhooks/${webhook.webhook_id}`, org.keys.admin);
  assert.equal(after.url, 'https://localhost/lower-roles');
  assert.equal((await deliveries(org, webhook.webhook_id)).length, 0, 'no ping was sent');
});

test('the webhook forms without the session\'s CSRF token are refused and change nothing', async () => {
  const org = dashboard.server.credentials.organisations[0];
  const webhook = await dashboard.post('webhooks', org.keys.admin, { url: 'https://localhost/csrf', events: ['wallet.created'] });
  const id = webhook.webhook_id;
  const { context, page } = await openPage();
  await signIn(page, login(0, 'owner'));
  await page.goto(`${dashboard.origin}/dashboard/webhooks/${id}`);
  const count = async () => (await dashboard.get('webhooks?limit=100', org.keys.admin)).data.length;
  const before = await count();
  for (const token of [{}, { csrf_token: 'forged' }]) {
    const forms = [['', { url: 'https://localhost/new', events: '*' }], [`/${id}`, { url: 'https://localhost/changed', events: '*' }],
      [`/${id}/test`, {}], [`/${id}/re-enable`, {}], [`/${id}/delete`, {}]];
    for (const [path, form] of forms) {
      const answer = await page.request.post(`${dashboard.origin}/dashboard/webhooks${path}`,
        { form: { ...token, ...form }, maxRedirects: 0 });
      assert.equal(answer.status(), 403, path);
      assert.match(await answer.text(), /the form was stale or not this site/);
    }
  }
  const after = await dashboard.get(`webhooks/${id}`, org.keys.admin);
  assert.deepEqual([after.url, after.events], ['https://localhost/csrf', ['wallet.created']]);
  assert.equal(await count(), before);
  assert.equal((await deliveries(org, id)).length, 0, 'no ping was sent');
  await context.close();
});
