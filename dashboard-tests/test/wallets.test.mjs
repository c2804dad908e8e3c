// The wallets, wallet and funding pages in Debian's Chromium, served by the real server jar started for these tests.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { base58Encode } from '../../clients/typescript/src/index.js';
import { axe as runAxe, screenshot, submit, useDashboard } from './support.mjs';

const dashboard = useDashboard('Wallets and funding browser tests');
const { openPage, login, signIn } = dashboard;
const org = () => dashboard.server.credentials.organisations[0];

async function axe(page, name) {
  const { byImpact } = await runAxe(page, name);
  assert.equal(byImpact.serious + byImpact.critical, 0);
}

/** Exact micro-USDC of "12.50" or "12.50 USDC". */
const micros = (text) => {
  const [whole, fraction = ''] = text.replace(/\s*USDC$/, '').trim().split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
};

/** A policy of organisation 0 made over /v1: payments up to 5.00 each. */
const newPolicy = (name = `wallets-${randomUUID()}`) => dashboard.post('policies', org().keys.admin,
  { name, max_per_tx: '5.00' });

/** A wallet of organisation 0 made over /v1. */
const newWallet = (policy) => dashboard.post('wallets', org().keys.admin,
  { agent_id: `agent-${randomUUID()}`, policy_id: policy.id });

/** The wallet over /v1, with the organisation's admin key. */
const walletNow = (id) => dashboard.get(`wallets/${id}`, org().keys.admin);

/** The organisation's unallocated balance as the funding page shows it, in micro-USDC. */
async function orgBalance(page) {
  return micros(await page.locator('#org-balance').innerText());
}

/** Clicks a form's button; answers the response the browser got first (before any redirect). */
async function answerOf(page, button) {
  const [response] = await Promise.all([page.waitForNavigation(), button.click()]);
  return (await response.request().redirectedFrom()?.response()) ?? response;
}

/** The CSRF token of the signed-in page (the sign-out form carries it). */
const csrfOf = (page) => page.locator('input[name=csrf_token]').first().inputValue();

/** The page's console errors but the refused answers (4xx) the test asked for. */
const scriptProblems = (problems) => problems.filter((problem) => !/^Failed to load resource: the server responded with a status of 4\d\d/.test(problem));

/** A form POST with the page's session, redirects not followed. */
const postForm = (page, path, form) => page.request.post(`${dashboard.origin}${path}`, { form, maxRedirects: 0 });

test('an admin creates a wallet, uses its token at once, changes it, rotates the token and archives another', async () => {
  const policy = await newPolicy();
  const other = await newPolicy();
  const admin = await dashboard.addUser(0, 'admin');
  const { context, page, problems } = await openPage();
  await signIn(page, admin);
  await page.getByRole('navigation').getByRole('link', { name: 'Wallets' }).click();
  await page.waitForLoadState();
  assert.equal(new URL(page.url()).pathname, '/dashboard/wallets');
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Wallets');

  const agentId = `agent-${randomUUID()}`;
  await page.getByLabel('Agent id').fill(agentId);
  await page.getByLabel('Label', { exact: true }).fill('Research agent');
  await page.getByLabel('Policy', { exact: true }).selectOption(policy.id);
  const created = await answerOf(page, page.getByRole('button', { name: 'Create wallet' }));
  assert.equal(created.status(), 200, 'the token is the POST\'s answer, no redirect');
  assert.equal(created.headers()['cache-control'], 'no-store');
  const walletId = await page.locator('#secret-title code').innerText();
  const token = await page.locator('#session-token').innerText();
  assert.match(walletId, /^wal_/);
  assert.match(await page.locator('main').innerText(), /Copy it now; it will not be shown again/);
  assert.equal((await page.content()).split(token).length - 1, 1, 'the token is on the page once');
  await axe(page, 'the wallet\'s shown-once token');

  const asAgent = await dashboard.get(`wallets/${walletId}`, token);
  assert.deepEqual([asAgent.agent_id, asAgent.label, asAgent.policy_id, asAgent.status],
    [agentId, 'Research agent', policy.id, 'active'], 'the token works over /v1 at once');

  await page.getByRole('link', { name: 'Go to the wallet' }).click();
  await page.waitForLoadState();
  assert.equal(new URL(page.url()).pathname, `/dashboard/wallets/${walletId}`);
  assert.equal((await page.content()).includes(token), false, 'the token is never shown again');
  assert.equal(await page.locator('#wallet-status').innerText(), 'active');
  assert.equal(await page.getByRole('link', { name: policy.name }).getAttribute('href'),
    `/dashboard/policies/${policy.id}`);

  await page.getByLabel('New label').fill('Research agent, renamed');
  assert.equal(await submit(page, page.getByRole('button', { name: 'Change label' })), 303);
  await page.getByLabel('New policy').selectOption(other.id);
  assert.equal(await submit(page, page.getByRole('button', { name: 'Change policy' })), 303);
  const changed = await walletNow(walletId);
  assert.deepEqual([changed.label, changed.policy_id], ['Research agent, renamed', other.id]);
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Research agent, renamed');

  await page.getByLabel('New token\'s lifetime in seconds').fill('12');
  assert.equal(await submit(page, page.getByRole('button', { name: 'Rotate session token' })), 400);
  assert.match(await page.locator('.error').innerText(), /ttl_seconds/);
  assert.equal(await page.getByLabel('New token\'s lifetime in seconds').inputValue(), '12', 'the field keeps what was typed');
  assert.equal((await dashboard.api.get(`wallets/${walletId}`, { headers: { Authorization: `Bearer ${token}` } }))
    .status(), 200, 'a refused rotation leaves the token alive');
  await page.getByLabel('New token\'s lifetime in seconds').fill('');
  const rotated = await answerOf(page, page.getByRole('button', { name: 'Rotate session token' }));
  assert.equal(rotated.status(), 200);
  assert.equal(rotated.headers()['cache-control'], 'no-store');
  const newToken = await page.locator('#session-token').innerText();
  assert.notEqual(newToken, token);
  assert.equal((await dashboard.api.get(`wallets/${walletId}`, { headers: { Authorization: `Bearer ${token}` } }))
    .status(), 401, 'the old token is dead at once');
  assert.equal((await dashboard.get(`wallets/${walletId}`, newToken)).id, walletId);

  const doomed = await newWallet(policy);
  await page.goto(`${dashboard.origin}/dashboard/wallets/${doomed.id}`);
  assert.equal(await submit(page, page.getByRole('button', { name: 'Archive wallet' })), 303);
  assert.equal((await walletNow(doomed.id)).status, 'archived');
  assert.equal(await page.locator('#wallet-status').innerText(), 'archived');
  assert.equal(await page.locator('main form[method=post]').count(), 0, 'an archived wallet has no forms');

  await page.goto(`${dashboard.origin}/dashboard/wallets?status=archived`);
  assert.ok(await page.getByRole('link', { name: doomed.agent_id }).isVisible());
  assert.equal(await page.getByRole('link', { name: 'Research agent, renamed' }).count(), 0);
  assert.equal((await dashboard.statusOf(page, '/dashboard/wallets/not-a-wallet')), 404);
  assert.equal((await dashboard.statusOf(page, `/dashboard/wallets/wal_${'0'.repeat(24)}`)), 404);

  await page.getByLabel('Agent id').fill(agentId);
  await page.getByLabel('Policy', { exact: true }).selectOption(policy.id);
  assert.equal(await submit(page, page.getByRole('button', { name: 'Create wallet' })), 409);
  assert.match(await page.locator('.error').innerText(), /already has a wallet/);
  assert.equal(await page.getByLabel('Agent id').inputValue(), agentId, 'the form keeps what was typed');
  assert.deepEqual(scriptProblems(problems), []);
  await context.close();
});

test('an admin funds a wallet, funds two at once and withdraws; balances move by exactly the amounts', async () => {
  const policy = await newPolicy();
  const first = await newWallet(policy);
  const second = await newWallet(policy);
  const admin = await dashboard.addUser(0, 'admin');
  const { context, page, problems } = await openPage();
  await signIn(page, admin);
  await page.getByRole('navigation').getByRole('link', { name: 'Funding' }).click();
  await page.waitForLoadState();
  assert.equal(new URL(page.url()).pathname, '/dashboard/funding');
  const start = await orgBalance(page);
  assert.ok(start >= 100_000_000n, `the demo organisation has funds: ${start}`);

  await page.getByLabel('Wallet to fund').selectOption(first.id);
  await page.getByLabel('Amount to fund (USDC)').fill('12.50');
  assert.equal(await submit(page, page.getByRole('button', { name: 'Fund wallet', exact: true })), 303);
  assert.equal(await orgBalance(page), start - 12_500_000n);
  assert.equal((await walletNow(first.id)).usdc_balance, '12.50');
  assert.match(await page.getByRole('status').innerText(), new RegExp(`Funded[\\s\\S]*${first.id} now holds 12\\.50 USDC`));

  const payment = await dashboard.post('payments', first.session_token,
    { to: base58Encode(randomBytes(32)), amount: '2.50' });
  assert.notEqual(payment.status, 'blocked');

  for (const amount of ['12.5.0', '-3', '0', 'ten']) {
    await page.getByLabel('Wallet to fund').selectOption(first.id);
    await page.getByLabel('Amount to fund (USDC)').fill(amount);
    assert.equal(await submit(page, page.getByRole('button', { name: 'Fund wallet', exact: true })), 400, amount);
    assert.match(await page.getByRole('alert').innerText(), /'amount' must be/);
    assert.equal(await page.getByLabel('Amount to fund (USDC)').inputValue(), amount, 'the field keeps what was typed');
  }
  await page.getByLabel('Fundings, one "wallet id, amount" per line').fill(`${first.id}, 1.00\n${second.id} 2.00`);
  assert.equal(await submit(page, page.getByRole('button', { name: 'Fund wallets' })), 400);
  assert.match(await page.getByRole('alert').innerText(), /^Line 2: /);
  assert.equal(await orgBalance(page), start - 12_500_000n, 'refused input changed nothing');
  assert.equal((await walletNow(first.id)).usdc_balance, '10.00');
  assert.equal((await walletNow(second.id)).usdc_balance, '0.00');

  await page.getByLabel('Fundings, one "wallet id, amount" per line').fill(`${first.id}, 1.25\n\n${second.id}, 2.75\n`);
  assert.equal(await submit(page, page.getByRole('button', { name: 'Fund wallets' })), 303);
  assert.equal(await orgBalance(page), start - 16_500_000n);
  assert.equal((await walletNow(first.id)).usdc_balance, '11.25');
  assert.equal((await walletNow(second.id)).usdc_balance, '2.75');
  const report = await page.getByRole('status').innerText();
  assert.match(report, new RegExp(`${first.id} now holds 11\\.25 USDC`));
  assert.match(report, new RegExp(`${second.id} now holds 2\\.75 USDC`));

  await page.getByLabel('Wallet to withdraw from').selectOption(first.id);
  await page.getByLabel('Amount to withdraw (USDC, or all)').fill('100.00');
  assert.equal(await submit(page, page.getByRole('button', { name: 'Withdraw' })), 409);
  assert.match(await page.getByRole('alert').innerText(), /cannot withdraw 100\.00/);
  await page.getByLabel('Wallet to withdraw from').selectOption(first.id);
  await page.getByLabel('Amount to withdraw (USDC, or all)').fill('3.75');
  assert.equal(await submit(page, page.getByRole('button', { name: 'Withdraw' })), 303);
  assert.equal((await walletNow(first.id)).usdc_balance, '7.50');
  assert.equal(await orgBalance(page), start - 12_750_000n);
  await page.getByLabel('Wallet to withdraw from').selectOption(second.id);
  await page.getByLabel('Amount to withdraw (USDC, or all)').fill('all');
  assert.equal(await submit(page, page.getByRole('button', { name: 'Withdraw' })), 303);
  assert.equal((await walletNow(second.id)).usdc_balance, '0.00');
  assert.equal(await orgBalance(page), start - 10_000_000n);
  assert.match(await page.getByRole('status').innerText(), /Withdrew/);
  await axe(page, '/dashboard/funding');
  await screenshot(page, 'funding');

  await page.goto(`${dashboard.origin}/dashboard/wallets/${first.id}`);
  const rows = await page.locator('table.payments tbody tr').allInnerTexts();
  assert.equal(rows.length, 4, rows.join('\n'));
  assert.match(rows.join('\n'), /withdrawal[\s\S]*3\.75 USDC/);
  assert.match(rows.join('\n'), /payment[\s\S]*2\.50 USDC/);
  assert.equal(await page.locator('#wallet-balance').innerText(), '7.50 USDC');
  await axe(page, '/dashboard/wallets/{id}');
  await screenshot(page, 'wallet');

  await page.goto(`${dashboard.origin}/dashboard/wallets`);
  await axe(page, '/dashboard/wallets');
  await page.evaluate(() => document.querySelector('form.filter').scrollIntoView());
  await screenshot(page, 'wallets');

  const csrf = await csrfOf(page);
  for (const form of [{ wallet_id: first.id, amount: '1.00' }, { wallet_id: first.id, amount: '1.00', csrf_token: 'forged' }]) {
    assert.equal((await postForm(page, '/dashboard/funding/fund', form)).status(), 403);
    assert.equal((await postForm(page, '/dashboard/funding/withdraw', { ...form, amount: 'all' })).status(), 403);
    assert.equal((await postForm(page, `/dashboard/wallets/${first.id}/archive`, form)).status(), 403);
  }
  assert.equal((await postForm(page, '/dashboard/funding/fund', { wallet_id: first.id, amount: '1,00', csrf_token: csrf }))
    .status(), 400);
  assert.equal((await walletNow(first.id)).usdc_balance, '7.50', 'refused forms changed nothing');
  assert.equal((await walletNow(first.id)).status, 'active');
  assert.deepEqual(scriptProblems(problems), []);
  await context.close();
});

test('an operator freezes and unfreezes a wallet and is refused creating, changing and funding', async () => {
  const policy = await newPolicy();
  const wallet = await newWallet(policy);
  const { context, page } = await openPage();
  await signIn(page, login(0, 'operator'));
  const links = await page.getByRole('navigation').getByRole('link').allInnerTexts();
  assert.equal(links.some((text) => text.includes('Funding')), false, links.join(', '));
  await page.goto(`${dashboard.origin}/dashboard/wallets`);
  assert.equal(await page.getByRole('button', { name: 'Create wallet' }).count(), 0);
  await page.goto(`${dashboard.origin}/dashboard/wallets/${wallet.id}`);
  assert.equal(await page.getByRole('button', { name: 'Change label' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Archive wallet' }).count(), 0);

  assert.equal(await submit(page, page.getByRole('button', { name: 'Freeze wallet' })), 303);
  assert.equal((await walletNow(wallet.id)).status, 'frozen');
  assert.equal(await page.locator('#wallet-status').innerText(), 'frozen');
  assert.equal(await submit(page, page.getByRole('button', { name: 'Unfreeze wallet' })), 303);
  assert.equal((await walletNow(wallet.id)).status, 'active');

  const csrf = await csrfOf(page);
  assert.equal(await dashboard.statusOf(page, '/dashboard/funding'), 403);
  const refused = [
    ['/dashboard/wallets', { agent_id: `agent-${randomUUID()}`, policy_id: policy.id }],
    ['/dashboard/funding/fund', { wallet_id: wallet.id, amount: '1.00' }],
    ['/dashboard/funding/fund-batch', { fundings: `${wallet.id}, 1.00` }],
    ['/dashboard/funding/withdraw', { wallet_id: wallet.id, amount: 'all' }],
    [`/dashboard/wallets/${wallet.id}/label`, { label: 'taken over' }],
    [`/dashboard/wallets/${wallet.id}/rotate-token`, {}],
    [`/dashboard/wallets/${wallet.id}/archive`, {}],
  ];
  for (const [path, form] of refused) {
    const answer = await postForm(page, path, { ...form, csrf_token: csrf });
    assert.equal(answer.status(), 403, path);
    assert.equal((await answer.text()).includes('session-token'), false);
  }
  const after = await walletNow(wallet.id);
  assert.deepEqual([after.status, after.label, after.usdc_balance], ['active', '', '0.00']);
  assert.equal((await postForm(page, `/dashboard/wallets/${wallet.id}/status`, { status: 'frozen' })).status(), 403,
    'no CSRF token');
  assert.equal((await walletNow(wallet.id)).status, 'active');
  await context.close();
});

test('a viewer reads the wallets without any form and is refused funding and freezing', async () => {
  const policy = await newPolicy();
  const wallet = await newWallet(policy);
  const viewer = await dashboard.addUser(0, 'viewer');
  const { context, page } = await openPage();
  await signIn(page, viewer);
  const links = await page.getByRole('navigation').getByRole('link').allInnerTexts();
  assert.ok(links.some((text) => text.includes('Wallets')));
  assert.equal(links.some((text) => text.includes('Funding')), false, links.join(', '));

  await page.goto(`${dashboard.origin}/dashboard/wallets`);
  assert.ok(await page.getByRole('link', { name: wallet.agent_id }).isVisible());
  assert.equal(await page.locator('main form[method=post]').count(), 0);
  assert.equal(await page.locator('main input[name=csrf_token]').count(), 0);
  await page.getByRole('link', { name: wallet.agent_id }).click();
  await page.waitForLoadState();
  assert.equal(new URL(page.url()).pathname, `/dashboard/wallets/${wallet.id}`);
  assert.equal(await page.locator('main form').count(), 0);

  const response = await page.goto(`${dashboard.origin}/dashboard/funding`);
  assert.equal(response.status(), 403);
  assert.match(await page.getByRole('heading', { level: 1 }).textContent(), /^403/);
  const csrf = await csrfOf(page);
  assert.equal((await postForm(page, `/dashboard/wallets/${wallet.id}/status`, { status: 'frozen', csrf_token: csrf }))
    .status(), 403);
  assert.equal((await postForm(page, '/dashboard/funding/fund', { wallet_id: wallet.id, amount: '1.00', csrf_token: csrf }))
    .status(), 403);
  const after = await walletNow(wallet.id);
  assert.deepEqual([after.status, after.usdc_balance], ['active', '0.00']);
  await context.close();
});
