// The dashboard in Debian's Chromium, served by the real server jar started for these tests.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, request as http } from 'playwright-core';
import { base58Decode, base58Encode, coSignerPublicKey } from '../../clients/typescript/src/index.js';
import { startServer } from '../../clients/typescript/test/server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const jar = process.env.AGENT_WALLET_JAR ?? resolve(here, '../../bootstrap/target/agent-wallet.jar');
const SCREENSHOT = resolve(here, '../../docs/dashboard/sign-in.png');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// As root, in a closed network: no sandbox, GPU or calls home. The server's certificate is self-signed.
const CHROMIUM_ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--ignore-certificate-errors'];

let server; let origin; let browser; let api; let started;

before(async () => {
  started = Date.now();
  server = await startServer({ jar });
  origin = new URL(server.baseUrl).origin;
  // Playwright gives each launch a new, empty --user-data-dir of its own.
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, chromiumSandbox: false,
    args: CHROMIUM_ARGS });
  api = await http.newContext({ baseURL: `${origin}/v1/`, ignoreHTTPSErrors: true });
});

after(async () => {
  await api?.dispose();
  await browser?.close();
  await server?.stop();
  console.log(`dashboard browser tests: ${((Date.now() - started) / 1000).toFixed(1)} s with the server's start`);
});

/** A new page at 1280×800 and every request it sends. */
async function openPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ignoreHTTPSErrors: true });
  const sent = [];
  context.on('request', (request) => sent.push(request));
  const problems = [];
  const page = await context.newPage();
  page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
  page.on('pageerror', (error) => problems.push(error.message));
  return { context, page, sent, problems };
}

test('/dashboard/ without a session sends the browser to the sign-in page, which renders under its headers', async () => {
  const { context, page, problems } = await openPage();
  const response = await page.goto(`${origin}/dashboard/`);
  assert.equal(new URL(page.url()).pathname, '/dashboard/sign-in');
  const redirect = await response.request().redirectedFrom().response();
  assert.equal(redirect.status(), 303);
  assert.equal(redirect.headers().location, '/dashboard/sign-in');

  assert.equal(response.status(), 200);
  const headers = response.headers();
  assert.match(headers['content-type'], /^text\/html/);
  const csp = Object.fromEntries(headers['content-security-policy'].split(';')
    .map((directive) => directive.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
  assert.deepEqual(csp['script-src'], ["'self'"]);
  assert.deepEqual(csp['style-src'], ["'self'"]);
  assert.deepEqual(csp['default-src'], ["'self'"]);
  assert.deepEqual(csp['frame-ancestors'], ["'none'"]);
  assert.deepEqual(csp['base-uri'], ["'none'"]);
  assert.deepEqual(csp['form-action'], ["'self'"]);
  assert.equal(headers['x-frame-options'], 'DENY');
  assert.equal(headers['x-content-type-options'], 'nosniff');
  assert.equal(headers['referrer-policy'], 'no-referrer');
  assert.equal(headers['cache-control'], 'no-store');

  assert.equal(await page.title(), 'Sign in · Agent Wallet');
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Sign in');
  assert.equal(await page.getByLabel('Email').getAttribute('type'), 'email');
  assert.equal(await page.getByLabel('Password').getAttribute('type'), 'password');
  const form = page.locator('form');
  assert.equal(await form.getAttribute('method'), 'post');
  assert.equal(await form.getAttribute('action'), '/dashboard/sign-in');
  assert.equal(await form.locator('input[type=hidden][name=csrf_token]').count(), 1);
  // The stylesheet loaded under the policy: the button wears its colour, not the browser's grey.
  assert.equal(await page.getByRole('button', { name: 'Sign in' })
    .evaluate((button) => getComputedStyle(button).backgroundColor), 'rgb(11, 92, 173)');
  assert.deepEqual(problems, []);

  mkdirSync(dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT });
  await context.close();
});

test('the policy refuses inline script in a dashboard page', async () => {
  const { context, page } = await openPage();
  await page.goto(`${origin}/dashboard/sign-in`);
  const violation = await page.evaluate(() => new Promise((done) => {
    document.addEventListener('securitypolicyviolation', (event) => done(event.effectiveDirective), { once: true });
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = true';
    document.body.append(script);
  }));
  assert.match(violation, /^script-src/);
  assert.equal(await page.evaluate(() => window.inlineRan), undefined);
  await context.close();
});

test('assets are cached briefly, and paths outside /dashboard and /v1 still get the API\'s JSON 404', async () => {
  const asset = await api.get(`${origin}/dashboard/assets/cosign.js`);
  assert.equal(asset.status(), 200);
  assert.match(asset.headers()['content-type'], /^text\/javascript/);
  assert.equal(asset.headers()['cache-control'], 'public, max-age=300');
  assert.equal(asset.headers()['content-security-policy'].includes("script-src 'self'"), true);

  const missing = await api.get(`${origin}/dashboard/no-such-page`);
  assert.equal(missing.status(), 404);
  assert.match(missing.headers()['content-type'], /^text\/html/);
  assert.equal(missing.headers()['x-frame-options'], 'DENY');

  for (const path of ['/dashboardx', '/elsewhere']) {
    const outside = await api.get(`${origin}${path}`);
    assert.equal(outside.status(), 404);
    assert.equal((await outside.json()).error.code, 'not_found');
  }
});

test('axe-core finds no serious or critical accessibility violation on the sign-in page', async () => {
  const { context, page } = await openPage();
  await page.goto(`${origin}/dashboard/sign-in`);
  // Evaluated as a program, not added as an inline <script> that the page's policy would refuse.
  await page.evaluate(AXE);
  const results = await page.evaluate(() => window.axe.run(document));
  const byImpact = { minor: 0, moderate: 0, serious: 0, critical: 0 };
  for (const violation of results.violations) byImpact[violation.impact] += 1;
  console.log(`axe-core ${results.testEngine.version} on /dashboard/sign-in: ${results.passes.length} rules passed, `
    + `${results.incomplete.length} to review, violations ${JSON.stringify(byImpact)}`
    + (results.violations.length ? `: ${results.violations.map((v) => `${v.id} (${v.impact})`).join(', ')}` : ''));
  assert.ok(results.passes.length > 0);
  assert.equal(byImpact.serious + byImpact.critical, 0);
  await context.close();
});

/** POST to /v1 with an API key or session token; the answer's JSON, after checking it succeeded. */
async function post(path, credential, data) {
  const response = await api.post(path, { headers: { Authorization: `Bearer ${credential}` }, data });
  assert.ok(response.ok(), `${path}: ${response.status()} ${await response.text()}`);
  return response.json();
}

/** A payment at its wallet's co-sign threshold, waiting for the demo organisation's co-signer. */
async function paymentAwaitingCoSign(org) {
  const policy = await post('policies', org.keys.admin, { name: `dashboard-${randomUUID()}`, require_co_sign: '10.00',
    co_signer: coSignerPublicKey(org.co_signer_secret_key) });
  const wallet = await post('wallets', org.keys.admin, { agent_id: `dashboard-${randomUUID()}`, policy_id: policy.id });
  await post(`wallets/${wallet.id}/fund`, org.keys.admin, { amount: '100.00' });
  const payment = await post('payments', wallet.session_token, { to: base58Encode(randomBytes(32)), amount: '10.00' });
  assert.equal(payment.status, 'pending_co_sign');
  return payment;
}

test('cosign.js signs in the page with the operator\'s key, the server verifies it, and the key is never sent', async () => {
  const org = server.credentials.organisations[0];
  const secretKey = org.co_signer_secret_key;
  const publicKey = coSignerPublicKey(secretKey);
  const { context, page, sent, problems } = await openPage();
  await page.goto(`${origin}/dashboard/sign-in`);

  const held = await paymentAwaitingCoSign(org);
  const other = await paymentAwaitingCoSign(org);
  const otherKey = base58Encode(Buffer.concat([randomBytes(32), base58Decode(publicKey)]));
  const inPage = await page.evaluate(async ({ secretKey, publicKey, payloads, strangerPublicKey, mixedKey }) => {
    const cosign = await import('/dashboard/assets/cosign.js');
    const signer = await cosign.loadCoSigner(secretKey);
    return {
      publicKey: signer.publicKey,
      signature: await cosign.signCoSignPayload(payloads[0], secretKey),
      matches: await cosign.matchesPublicKey(secretKey, publicKey),
      matchesStranger: await cosign.matchesPublicKey(secretKey, strangerPublicKey),
      mixedKey: await cosign.loadCoSigner(mixedKey).then(() => 'loaded', (error) => error.message),
    };
  }, { secretKey, publicKey, payloads: [held.co_sign_payload], strangerPublicKey: base58Encode(randomBytes(32)),
    mixedKey: otherKey });

  assert.equal(inPage.publicKey, publicKey);
  assert.equal(inPage.matches, true);
  assert.equal(inPage.matchesStranger, false);
  assert.match(inPage.mixedKey, /public half does not belong/);
  assert.equal(base58Decode(inPage.signature).length, 64);

  // The server checks the signature against the policy's co-signer with the core's Ed25519.
  const confirmed = await post(`payments/${held.tx_id}/co-sign`, org.keys.operator, { signature: inPage.signature });
  assert.equal(confirmed.status, 'confirmed');
  // The same signature does not fit another payment's message.
  const refused = await api.post(`payments/${other.tx_id}/co-sign`, {
    headers: { Authorization: `Bearer ${org.keys.operator}` }, data: { signature: inPage.signature } });
  assert.equal(refused.status(), 400);
  const error = (await refused.json()).error;
  assert.equal(error.code, 'validation_error', JSON.stringify(error));
  assert.equal(error.param, 'signature', JSON.stringify(error));

  const seed = base58Decode(secretKey).subarray(0, 32);
  const forms = [secretKey, Buffer.from(seed).toString('base64'), Buffer.from(seed).toString('base64url'),
    Buffer.from(seed).toString('hex'), base58Encode(seed)];
  assert.ok(sent.length >= 4, 'the page, its stylesheet and both modules were requested');
  for (const request of sent) {
    const seen = [request.url(), JSON.stringify(await request.allHeaders()), request.postData() ?? ''].join('\n');
    for (const form of forms) assert.equal(seen.includes(form), false, `${request.url()} carries the secret key`);
  }
  assert.deepEqual(sent.map((request) => new URL(request.url()).origin), sent.map(() => origin));
  assert.deepEqual(problems, []);
  await context.close();
});

/** A demo organisation's dashboard login of that role. */
function login(orgIndex, role) {
  return server.credentials.organisations[orgIndex].dashboard_users.find((user) => user.role === role);
}

/** Signs in through the form; answers the page, now wherever the form's answer led. */
async function signIn(page, { email, password }) {
  await page.goto(`${origin}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState();
}

const navigationOf = (page) => page.getByRole('navigation').getByRole('link').allTextContents();

test('the owner signs in to the sections of an owner, under a cookie with all three flags, and signs out', async () => {
  const { context, page, problems } = await openPage();
  await signIn(page, login(0, 'owner'));

  assert.equal(new URL(page.url()).pathname, '/dashboard/');
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Dashboard');
  const links = (await navigationOf(page)).map((text) => text.trim());
  assert.ok(links.includes('API keys') && links.includes('Users') && links.includes('Policies'), links.join(', '));
  const session = (await context.cookies()).find((cookie) => cookie.name === '__Host-agent-wallet-session');
  assert.ok(session, 'the session cookie is set');
  assert.equal(session.httpOnly, true);
  assert.equal(session.secure, true);
  assert.equal(session.sameSite, 'Strict');
  assert.equal(session.path, '/');
  assert.ok(session.expires > Date.now() / 1000 && session.expires <= Date.now() / 1000 + 12 * 3600 + 60,
    `the cookie ends with the session: ${session.expires}`);
  assert.equal(await page.evaluate(() => document.cookie.includes('agent-wallet-session')), false);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForLoadState();
  assert.equal(new URL(page.url()).pathname, '/dashboard/sign-in');
  // The ended session's cookie, sent again by hand, opens nothing.
  const again = await api.get(`${origin}/dashboard/`, { maxRedirects: 0,
    headers: { Cookie: `__Host-agent-wallet-session=${session.value}` } });
  assert.equal(again.status(), 303);
  assert.deepEqual(problems, []);
  await context.close();
});

test('an operator sees the inbox and its badge but not the owner\'s or admin\'s sections', async () => {
  await paymentAwaitingCoSign(server.credentials.organisations[0]);
  const { context, page } = await openPage();
  await signIn(page, login(0, 'operator'));

  const links = (await navigationOf(page)).map((text) => text.replace(/\s+/g, ' ').trim());
  const inbox = links.find((text) => text.startsWith('Co-sign inbox'));
  assert.match(inbox, /^Co-sign inbox \d+/);
  assert.equal(links.some((text) => /API keys|Users|Policies|Funding|Webhooks/.test(text)), false, links.join(', '));

  await page.evaluate(AXE);
  const results = await page.evaluate(() => window.axe.run(document));
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  console.log(`axe-core on /dashboard/ (operator): ${results.passes.length} rules passed, `
    + `${results.violations.length} violations, ${serious.length} serious or critical`);
  assert.deepEqual(serious.map((v) => v.id), []);
  await page.screenshot({ path: resolve(here, '../../docs/dashboard/home-operator.png') });
  await context.close();
});

test('a change without its CSRF token is refused: signing out, and signing in from another site', async () => {
  const { context, page } = await openPage();
  await signIn(page, login(1, 'owner'));
  assert.equal(new URL(page.url()).pathname, '/dashboard/');

  const forged = await page.request.post(`${origin}/dashboard/sign-out`, { form: { csrf_token: 'forged' },
    maxRedirects: 0 });
  assert.equal(forged.status(), 403);
  const missing = await page.request.post(`${origin}/dashboard/sign-out`, { form: {}, maxRedirects: 0 });
  assert.equal(missing.status(), 403);
  await page.reload();
  assert.equal(new URL(page.url()).pathname, '/dashboard/', 'the refused sign-outs left the session alone');

  // A sign-in posted without the form's own token (as another site's form would be) is refused.
  const { email, password } = login(1, 'owner');
  const crossSite = await api.post(`${origin}/dashboard/sign-in`, { form: { email, password, csrf_token: 'x' },
    maxRedirects: 0 });
  assert.equal(crossSite.status(), 403);
  assert.equal(crossSite.headers()['set-cookie']?.includes('agent-wallet-session') ?? false, false);
  await context.close();
});

test('five wrong passwords lock the account, and then even the right one is refused', async () => {
  const { context, page } = await openPage();
  const operator = login(1, 'operator');
  const messages = [];
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await signIn(page, { email: operator.email, password: `wrong password ${attempt}` });
    messages.push(await page.getByRole('alert').textContent());
  }
  await signIn(page, operator);

  assert.deepEqual(messages, Array(5).fill('Wrong email or password.'));
  assert.equal(new URL(page.url()).pathname, '/dashboard/sign-in');
  assert.match(await page.getByRole('alert').textContent(), /locked until/);
  assert.equal((await context.cookies()).some((cookie) => cookie.name === '__Host-agent-wallet-session'), false);
  await context.close();
});
