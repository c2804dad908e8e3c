// The owner's API keys page in Debian's Chromium, served by the real server jar started for these tests.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { chromium, request as http } from 'playwright-core';
import { startServer } from '../../clients/typescript/test/server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const jar = process.env.AGENT_WALLET_JAR ?? resolve(here, '../../bootstrap/target/agent-wallet.jar');
const SCREENSHOT = resolve(here, '../../docs/dashboard/api-keys.png');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const CHROMIUM_ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--ignore-certificate-errors'];

let server; let origin; let browser; let api; let started;

before(async () => {
  started = Date.now();
  server = await startServer({ jar });
  origin = new URL(server.baseUrl).origin;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, chromiumSandbox: false,
    args: CHROMIUM_ARGS });
  api = await http.newContext({ baseURL: `${origin}/v1/`, ignoreHTTPSErrors: true });
});

after(async () => {
  await api?.dispose();
  await browser?.close();
  await server?.stop();
  console.log(`API keys browser tests: ${((Date.now() - started) / 1000).toFixed(1)} s with the server's start`);
});

async function openPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ignoreHTTPSErrors: true });
  const problems = [];
  const page = await context.newPage();
  page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
  page.on('pageerror', (error) => problems.push(error.message));
  return { context, page, problems };
}

function login(orgIndex, role) {
  return server.credentials.organisations[orgIndex].dashboard_users.find((user) => user.role === role);
}

async function signIn(page, { email, password }) {
  await page.goto(`${origin}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState();
}

/** Clicks a form's button and answers the status of the page it leads to (before any redirect). */
async function submit(page, button) {
  const [response] = await Promise.all([page.waitForNavigation(), button.click()]);
  return (await response.request().redirectedFrom()?.response())?.status() ?? response.status();
}

async function axe(page, name) {
  await page.evaluate(AXE);
  const results = await page.evaluate(() => window.axe.run(document));
  const byImpact = { minor: 0, moderate: 0, serious: 0, critical: 0 };
  for (const violation of results.violations) byImpact[violation.impact] += 1;
  console.log(`axe-core ${results.testEngine.version} on ${name}: ${results.passes.length} rules passed, `
    + `${results.incomplete.length} to review, violations ${JSON.stringify(byImpact)}`
    + (results.violations.length ? `: ${results.violations.map((v) => `${v.id} (${v.impact})`).join(', ')}` : ''));
  assert.equal(byImpact.serious + byImpact.critical, 0);
}

/** GET /v1/wallets with that secret: its status. */
async function useKey(secret) {
  return (await api.get('wallets', { headers: { Authorization: `Bearer ${secret}` } })).status();
}

/** The list's row of that key, as the texts of its cells. */
async function row(page, id) {
  return page.locator('table.keys tbody tr', { has: page.locator(`code:text-is("${id}")`) }).locator('td')
    .allInnerTexts();
}

/** The secret and key id on a shown-once page. */
async function shownKey(page) {
  return { secret: await page.locator('#api-key-secret').innerText(),
    id: await page.locator('#secret-title code').innerText() };
}

test('the owner creates a key, sees its secret once, rotates it and revokes it; the list shows its last use', async () => {
  const { context, page, problems } = await openPage();
  await signIn(page, login(0, 'owner'));
  await page.getByRole('navigation').getByRole('link', { name: 'API keys' }).click();
  await page.waitForLoadState();
  assert.equal(new URL(page.url()).pathname, '/dashboard/api-keys');
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'API keys');
  await axe(page, '/dashboard/api-keys');

  await page.getByLabel('Role').selectOption('admin');
  assert.equal(await submit(page, page.getByRole('button', { name: 'Create key' })), 200);
  assert.equal(new URL(page.url()).pathname, '/dashboard/api-keys', 'the secret is the POST\'s answer, no redirect');
  const created = await shownKey(page);
  assert.match(created.secret, /^sk_[A-Za-z0-9]{48}$/);
  assert.match(await page.locator('main').innerText(), /Copy it now; it will not be shown again/);
  assert.equal((await page.content()).split(created.secret).length - 1, 1, 'the secret is on the page once');
  await axe(page, 'the shown-once page');
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await page.getByRole('button', { name: 'Copy the secret' }).click();
  await page.getByText('Copied.').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), created.secret);
  assert.equal(await useKey(created.secret), 200, 'the new key works at once');

  await page.goto(`${origin}/dashboard/api-keys`);
  assert.equal((await page.content()).includes(created.secret), false);
  const [, role, , lastUsed, status] = await row(page, created.id);
  assert.deepEqual([role, status], ['admin', 'active']);
  assert.match(lastUsed, /^(never|\d{4}-\d{2}-\d{2} \d{2}:\d{2})$/);

  const rotate = page.getByRole('button', { name: `Rotate ${created.id}` });
  assert.equal(await submit(page, rotate), 200);
  const rotated = await shownKey(page);
  assert.notEqual(rotated.secret, created.secret);
  assert.notEqual(rotated.id, created.id);
  assert.equal(await useKey(created.secret), 401, 'the old key is dead at once');
  assert.equal(await useKey(rotated.secret), 200);

  await page.goto(`${origin}/dashboard/api-keys`);
  assert.equal((await page.content()).includes(rotated.secret), false);
  let polls = 0;
  while ((await row(page, rotated.id))[3] === 'never' && polls < 20) {
    polls += 1;
    await sleep(500);
    await page.reload();
  }
  const [, rotatedRole, , rotatedLastUsed, rotatedStatus] = await row(page, rotated.id);
  assert.deepEqual([rotatedRole, rotatedStatus], ['admin', 'active']);
  assert.match(rotatedLastUsed, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/, 'the last use appears within a few seconds');

  assert.equal(await submit(page, page.getByRole('button', { name: `Revoke now ${rotated.id}` })), 303);
  assert.equal(new URL(page.url()).pathname, '/dashboard/api-keys');
  assert.equal(await useKey(rotated.secret), 401);
  for (const id of [created.id, rotated.id]) {
    const cells = await row(page, id);
    assert.match(cells[4], /^revoked at \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    assert.equal(cells[5], '', 'a revoked key has no actions');
  }
  assert.deepEqual(problems, []);

  assert.equal((await page.content()).includes('sk_'), false, 'no secret in the screenshot');
  mkdirSync(dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT });
  await context.close();
});

test('an operator has no API keys link and is refused the page and its form', async () => {
  const { context, page } = await openPage();
  await signIn(page, login(0, 'operator'));
  const links = await page.getByRole('navigation').getByRole('link').allInnerTexts();
  assert.equal(links.some((text) => text.includes('API keys')), false, links.join(', '));

  const response = await page.goto(`${origin}/dashboard/api-keys`);
  assert.equal(response.status(), 403);
  assert.match(await page.getByRole('heading', { level: 1 }).textContent(), /^403/);
  const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
  const posted = await page.request.post(`${origin}/dashboard/api-keys`, { form: { csrf_token: csrf, role: 'owner' },
    maxRedirects: 0 });
  assert.equal(posted.status(), 403);
  assert.equal((await posted.text()).includes('sk_'), false);
  await context.close();
});

test('the owner\'s forms without the session\'s CSRF token are refused and change nothing', async () => {
  const { context, page } = await openPage();
  await signIn(page, login(1, 'owner'));
  await page.goto(`${origin}/dashboard/api-keys`);
  const keys = async () => page.locator('table.keys tbody tr').count();
  const before = await keys();
  const live = await page.locator('table.keys tbody tr code').first().innerText();

  for (const form of [{ role: 'admin' }, { role: 'admin', csrf_token: 'forged' }]) {
    const answer = await page.request.post(`${origin}/dashboard/api-keys`, { form, maxRedirects: 0 });
    assert.equal(answer.status(), 403);
    assert.equal((await answer.text()).includes('sk_'), false);
    for (const action of ['rotate', 'revoke']) {
      const refused = await page.request.post(`${origin}/dashboard/api-keys/${live}/${action}`, { form,
        maxRedirects: 0 });
      assert.equal(refused.status(), 403);
    }
  }
  await page.reload();
  assert.equal(await keys(), before);
  assert.deepEqual((await row(page, live))[4], 'active');

  const anonymous = await api.post(`${origin}/dashboard/api-keys`, { form: { role: 'admin' }, maxRedirects: 0 });
  assert.equal(anonymous.status(), 303);
  assert.equal(anonymous.headers().location, '/dashboard/sign-in');
  await context.close();
});
