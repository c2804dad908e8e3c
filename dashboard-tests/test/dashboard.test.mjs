// The dashboard in Debian's Chromium, served by the real server jar started for these tests.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { base58Decode, base58Encode, coSignerPublicKey } from '../../clients/typescript/src/index.js';
import { assertKeyNeverSent, axe, screenshot, useDashboard } from './support.mjs';

const dashboard = useDashboard('dashboard browser tests');
const { openPage, post, paymentAwaitingCoSign, login, signIn } = dashboard;

test('/dashboard/ without a session sends the browser to the sign-in page, which renders under its headers', async () => {
  const { context, page, problems } = await openPage();
  const response = await page.goto(`${dashboard.origin}/dashboard/`);
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

  await screenshot(page, 'sign-in');
  await context.close();
});

test('the policy refuses inline script in a dashboard page', async () => {
  const { context, page } = await openPage();
  await page.goto(`${dashboard.origin}/dashboard/sign-in`);
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
  const asset = await dashboard.api.get(`${dashboard.origin}/dashboard/assets/cosign.js`);
  assert.equal(asset.status(), 200);
  assert.match(asset.headers()['content-type'], /^text\/javascript/);
  assert.equal(asset.headers()['cache-control'], 'public, max-age=300');
  assert.equal(asset.headers()['content-security-policy'].includes("script-src 'self'"), true);

  const missing = await dashboard.api.get(`${dashboard.origin}/dashboard/no-such-page`);
  assert.equal(missing.status(), 404);
  assert.match(missing.headers()['content-type'], /^text\/html/);
  assert.equal(missing.headers()['x-frame-options'], 'DENY');

  for (const path of ['/dashboardx', '/elsewhere']) {
    const outside = await dashboard.api.get(`${dashboard.origin}${path}`);
    assert.equal(outside.status(), 404);
    assert.equal((await outside.json()).error.code, 'not_found');
  }
});

test('axe-core finds no serious or critical accessibility violation on the sign-in page', async () => {
  const { context, page } = await openPage();
  await page.goto(`${dashboard.origin}/dashboard/sign-in`);
  const { results, byImpact } = await axe(page, '/dashboard/sign-in');
  assert.ok(results.passes.length > 0);
  assert.equal(byImpact.serious + byImpact.critical, 0);
  await context.close();
});

test('cosign.js signs in the page with the operator\'s key, the server verifies it, and the key is never sent', async () => {
  const org = dashboard.server.credentials.organisations[0];
  const secretKey = org.co_signer_secret_key;
  const publicKey = coSignerPublicKey(secretKey);
  const { context, page, sent, problems } = await openPage();
  await page.goto(`${dashboard.origin}/dashboard/sign-in`);

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
  const refused = await dashboard.api.post(`payments/${other.tx_id}/co-sign`, {
    headers: { Authorization: `Bearer ${org.keys.operator}` }, data: { signature: inPage.signature } });
  assert.equal(refused.status(), 400);
  const error = (await refused.json()).error;
  assert.equal(error.code, 'validation_error', JSON.stringify(error));
  assert.equal(error.param, 'signature', JSON.stringify(error));

  assert.ok(sent.length >= 4, 'the page, its stylesheet and both modules were requested');
  await assertKeyNeverSent(sent, secretKey);
  assert.deepEqual(sent.map((request) => new URL(request.url()).origin), sent.map(() => dashboard.origin));
  assert.deepEqual(problems, []);
  await context.close();
});

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
  const again = await dashboard.api.get(`${dashboard.origin}/dashboard/`, { maxRedirects: 0,
    headers: { Cookie: `__Host-agent-wallet-session=${session.value}` } });
  assert.equal(again.status(), 303);
  assert.deepEqual(problems, []);
  await context.close();
});

test('an operator sees the inbox and its badge but not the owner\'s or admin\'s sections', async () => {
  await paymentAwaitingCoSign(dashboard.server.credentials.organisations[0]);
  const { context, page } = await openPage();
  await signIn(page, login(0, 'operator'));

  const links = (await navigationOf(page)).map((text) => text.replace(/\s+/g, ' ').trim());
  const inbox = links.find((text) => text.startsWith('Co-sign inbox'));
  assert.match(inbox, /^Co-sign inbox \d+/);
  assert.equal(links.some((text) => /API keys|Users|Policies|Funding|Webhooks/.test(text)), false, links.join(', '));

  const { results } = await axe(page, '/dashboard/ (operator)');
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious.map((v) => v.id), []);
  await screenshot(page, 'home-operator');
  await context.close();
});

test('a change without its CSRF token is refused: signing out, and signing in from another site', async () => {
  const { context, page } = await openPage();
  await signIn(page, login(1, 'owner'));
  assert.equal(new URL(page.url()).pathname, '/dashboard/');

  const forged = await page.request.post(`${dashboard.origin}/dashboard/sign-out`, { form: { csrf_token: 'forged' },
    maxRedirects: 0 });
  assert.equal(forged.status(), 403);
  const missing = await page.request.post(`${dashboard.origin}/dashboard/sign-out`, { form: {}, maxRedirects: 0 });
  assert.equal(missing.status(), 403);
  await page.reload();
  assert.equal(new URL(page.url()).pathname, '/dashboard/', 'the refused sign-outs left the session alone');

  // A sign-in posted without the form's own token (as another site's form would be) is refused.
  const { email, password } = login(1, 'owner');
  const crossSite = await dashboard.api.post(`${dashboard.origin}/dashboard/sign-in`, { form: { email, password, csrf_token: 'x' },
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
