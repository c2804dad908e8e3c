// What the browser test files share: the server jar and Chromium started for a file, pages that
// record every request they send, the API at /v1, and signing in through the form.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, request as http } from 'playwright-core';
import { base58Decode, base58Encode, coSignerPublicKey } from '../../clients/typescript/src/index.js';
import { startServer } from '../../clients/typescript/test/server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const jar = process.env.AGENT_WALLET_JAR ?? resolve(here, '../../bootstrap/target/agent-wallet.jar');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A path from the repository's root. */
const fromRoot = (path) => resolve(here, '../..', path);

/**
 * A screenshot of the page as `name`.png: under target/screenshots on every run, and over the one
 * committed in docs/dashboard when SCREENSHOTS=docs (ids in them change every run, so an ordinary
 * run leaves the committed ones alone).
 */
export async function screenshot(page, name) {
  const folders = [resolve(here, '../target/screenshots')];
  if (process.env.SCREENSHOTS === 'docs') folders.push(fromRoot('docs/dashboard'));
  for (const folder of folders) {
    mkdirSync(folder, { recursive: true });
    await page.screenshot({ path: join(folder, `${name}.png`) });
  }
}

// As root, in a closed network: no sandbox, GPU or calls home. The server's certificate is self-signed.
const CHROMIUM_ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--ignore-certificate-errors'];

/**
 * Starts a server and Chromium before the file's tests and stops them after, printing how long the
 * file took as `name`. The answer's fields are set once the tests run.
 */
export function useDashboard(name) {
  const dashboard = {};
  let started;
  before(async () => {
    started = Date.now();
    dashboard.server = await startServer({ jar });
    dashboard.origin = new URL(dashboard.server.baseUrl).origin;
    // Playwright gives each launch a new, empty --user-data-dir of its own.
    dashboard.browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
      chromiumSandbox: false, args: CHROMIUM_ARGS });
    dashboard.api = await http.newContext({ baseURL: `${dashboard.origin}/v1/`, ignoreHTTPSErrors: true });
  });
  after(async () => {
    await dashboard.api?.dispose();
    await dashboard.browser?.close();
    await dashboard.server?.stop();
    console.log(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s with the server's start`);
  });

  /** A new page at 1280×800 and every request it sends. */
  dashboard.openPage = async () => {
    const context = await dashboard.browser.newContext({ viewport: { width: 1280, height: 800 },
      ignoreHTTPSErrors: true });
    const sent = [];
    context.on('request', (request) => sent.push(request));
    const problems = [];
    const page = await context.newPage();
    page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
    page.on('pageerror', (error) => problems.push(error.message));
    return { context, page, sent, problems };
  };

  /** POST to /v1 with an API key or session token; the answer's JSON, after checking it succeeded. */
  dashboard.post = async (path, credential, data) => {
    const response = await dashboard.api.post(path, { headers: { Authorization: `Bearer ${credential}` }, data });
    assert.ok(response.ok(), `${path}: ${response.status()} ${await response.text()}`);
    return response.json();
  };

  /** GET from /v1 with an API key; the answer's JSON, after checking it succeeded. */
  dashboard.get = async (path, credential) => {
    const response = await dashboard.api.get(path, { headers: { Authorization: `Bearer ${credential}` } });
    assert.ok(response.ok(), `${path}: ${response.status()} ${await response.text()}`);
    return response.json();
  };

  /** A wallet under a policy that holds payments of `threshold` or more for the demo organisation's co-signer. */
  dashboard.coSignedWallet = async (org, { threshold = '10.00', funds = '100.00' } = {}) => {
    const policy = await dashboard.post('policies', org.keys.admin, { name: `dashboard-${randomUUID()}`,
      require_co_sign: threshold, co_signer: coSignerPublicKey(org.co_signer_secret_key) });
    const wallet = await dashboard.post('wallets', org.keys.admin, { agent_id: `dashboard-${randomUUID()}`,
      policy_id: policy.id });
    await dashboard.post(`wallets/${wallet.id}/fund`, org.keys.admin, { amount: funds });
    return { policy, wallet };
  };

  /** The agent's payment of `amount` to a new address, with its session token; it must wait for a co-signature. */
  dashboard.payAwaitingCoSign = async (wallet, amount = '10.00') => {
    const payment = await dashboard.post('payments', wallet.session_token, { to: base58Encode(randomBytes(32)), amount });
    assert.equal(payment.status, 'pending_co_sign');
    return payment;
  };

  /** A payment at its wallet's co-sign threshold, waiting for the demo organisation's co-signer. */
  dashboard.paymentAwaitingCoSign = async (org) => dashboard.payAwaitingCoSign((await dashboard.coSignedWallet(org)).wallet);

  /** A demo organisation's dashboard login of that role. */
  dashboard.login = (orgIndex, role) => dashboard.server.credentials.organisations[orgIndex].dashboard_users
    .find((user) => user.role === role);

  /** The status of GET `path` with the page's session, redirects not followed. */
  dashboard.statusOf = async (page, path) => (await page.request.get(`${dashboard.origin}${path}`,
    { maxRedirects: 0 })).status();

  /**
   * A new dashboard user of `role` in demo organisation `orgIndex`, added by its owner through the
   * users page; answers the login ({ email, password }).
   */
  dashboard.addUser = async (orgIndex, role) => {
    const user = { email: `${role}-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
    const { context, page } = await dashboard.openPage();
    await dashboard.signIn(page, dashboard.login(orgIndex, 'owner'));
    await page.goto(`${dashboard.origin}/dashboard/users`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Role', { exact: true }).selectOption(role);
    await page.getByLabel('Initial password').fill(user.password);
    assert.equal(await submit(page, page.getByRole('button', { name: 'Add user' })), 303);
    await context.close();
    return user;
  };

  /** Signs in through the form; answers the page, now wherever the form's answer led. */
  dashboard.signIn = async (page, { email, password }) => {
    await page.goto(`${dashboard.origin}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
  };

  return dashboard;
}

/** Clicks a form's button and answers the status of the page it leads to (before any redirect). */
export async function submit(page, button) {
  const [response] = await Promise.all([page.waitForNavigation(), button.click()]);
  return (await response.request().redirectedFrom()?.response())?.status() ?? response.status();
}

/** axe-core's run on the page, printed as `what`: its results and the violations counted by impact. */
export async function axe(page, what) {
  // Evaluated as a program, not added as an inline <script> that the page's policy would refuse.
  await page.evaluate(AXE);
  const results = await page.evaluate(() => window.axe.run(document));
  const byImpact = { minor: 0, moderate: 0, serious: 0, critical: 0 };
  for (const violation of results.violations) byImpact[violation.impact] += 1;
  console.log(`axe-core ${results.testEngine.version} on ${what}: ${results.passes.length} rules passed, `
    + `${results.incomplete.length} to review, violations ${JSON.stringify(byImpact)}`
    + (results.violations.length ? `: ${results.violations.map((v) => `${v.id} (${v.impact})`).join(', ')}` : ''));
  return { results, byImpact };
}

/** Checks that no request in `sent` carries the co-signer `secretKey` or its seed, in any common encoding. */
export async function assertKeyNeverSent(sent, secretKey) {
  const seed = base58Decode(secretKey).subarray(0, 32);
  const forms = [secretKey, Buffer.from(seed).toString('base64'), Buffer.from(seed).toString('base64url'),
    Buffer.from(seed).toString('hex'), base58Encode(seed)];
  for (const request of sent) {
    const seen = [request.url(), JSON.stringify(await request.allHeaders()), request.postData() ?? ''].join('\n');
    for (const form of forms) assert.equal(seen.includes(form), false, `${request.url()} carries the secret key`);
  }
}
