// The alerts feed in Debian's Chromium: a viewer sees its organisation's blocked payment, low
// balance, disputed escrow and payment awaiting co-sign, each linking to its subject, and nothing
// of another organisation; the home page shows the newest of them.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { axe, screenshot, useDashboard } from './support.mjs';

const dashboard = useDashboard('alerts browser tests');
const { openPage, post, get, paymentAwaitingCoSign, addUser, login, signIn, statusOf } = dashboard;
const ALERTS = '/dashboard/alerts';

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/** A wallet of `org` under a new policy of `rules`, funded with `funds` when given. */
async function walletUnder(org, rules, funds) {
  const policy = await post('policies', org.keys.admin, { name: `alerts-${randomUUID()}`, ...rules });
  const wallet = await post('wallets', org.keys.admin, { agent_id: `alerts-${randomUUID()}`, policy_id: policy.id });
  if (funds) await post(`wallets/${wallet.id}/fund`, org.keys.admin, { amount: funds });
  return wallet;
}

/** The agent's payment over its policy's per-payment cap: refused, and recorded as a blocked transaction. */
async function blockedPayment(org, wallet, amount) {
  const response = await dashboard.api.post('payments', { headers: { Authorization: `Bearer ${wallet.session_token}` },
    data: { to: `alerts-payee-${randomUUID()}`, amount } });
  assert.equal(response.ok(), false, 'a payment over the cap is refused');
  const blocked = await get(`transactions?wallet_id=${wallet.id}&status=blocked`, org.keys.admin);
  assert.equal(blocked.data.length, 1);
  return blocked.data[0].tx_id;
}

/** The scenario of organisation 0, and a blocked payment of organisation 1; answers the subjects' ids. */
async function causeAlerts() {
  const [org, other] = dashboard.server.credentials.organisations;
  const wallet = await walletUnder(org, { max_per_tx: '5.00' }, '100.00');
  const receiver = await walletUnder(org, {});
  const blockedTx = await blockedPayment(org, wallet, '50.00');
  // A debit taking the balance below the auto-topup trigger fires balance.low.
  const topup = await dashboard.api.put(`wallets/${wallet.id}/auto-topup`, {
    headers: { Authorization: `Bearer ${org.keys.admin}` },
    data: { enabled: true, trigger_below: '98.00', topup_amount: '10.00' } });
  assert.ok(topup.ok(), `auto-topup: ${topup.status()} ${await topup.text()}`);
  await post('payments', wallet.session_token, { to: `alerts-payee-${randomUUID()}`, amount: '3.00' });
  const escrow = await post('payments/a2a', wallet.session_token, { to_wallet: receiver.id, amount: '2.00',
    currency: 'USDC', task_description: 'summarise the report', timeout_seconds: 3600,
    expected_proof: sha256('the report') });
  await post(`payments/a2a/${escrow.id}/dispute`, wallet.session_token,
    { reason: 'the summary never came', evidence: sha256('the chat log') });
  const awaiting = await paymentAwaitingCoSign(org);
  const theirs = await walletUnder(other, { max_per_tx: '1.00' }, '10.00');
  const otherBlockedTx = await blockedPayment(other, theirs, '5.00');
  return { wallet: wallet.id, blockedTx, escrow: escrow.id, awaitingTx: awaiting.tx_id, otherBlockedTx,
    otherWallet: theirs.id };
}

/** The feed's rows as { kind, description, href }. */
const rowsOf = (page) => page.locator('table.alerts tbody tr').evaluateAll((trs) => trs.map((tr) => ({
  kind: tr.querySelector('.tag').textContent.trim(),
  description: tr.cells[2].textContent.trim(),
  href: tr.cells[3].querySelector('a')?.getAttribute('href') ?? null,
})));

test('a viewer sees the organisation\'s alerts, each linking to its subject, and none of another organisation', async () => {
  const ids = await causeAlerts();
  const viewer = await addUser(0, 'viewer');
  const { context, page, problems } = await openPage();
  await signIn(page, viewer);

  // Home: the welcome line, then the newest alerts.
  assert.equal(new URL(page.url()).pathname, '/dashboard/');
  await page.getByText(`Signed in as ${viewer.email}, viewer.`).waitFor();
  const latest = page.getByRole('region', { name: 'Latest alerts' });
  assert.ok(await latest.locator('table.alerts tbody tr').count() >= 4);
  assert.ok(await latest.locator(`a[href="/dashboard/transactions/${ids.awaitingTx}"]`).count() === 1);

  await Promise.all([page.waitForNavigation(), page.getByRole('navigation').getByRole('link', { name: 'Alerts' }).click()]);
  assert.equal(new URL(page.url()).pathname, ALERTS);
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Alerts');
  assert.equal(await page.getByRole('navigation').getByRole('link', { name: 'Alerts' }).getAttribute('aria-current'), 'page');

  const rows = await rowsOf(page);
  const rowTo = (href) => rows.find((row) => row.href === href);
  const blocked = rowTo(`/dashboard/transactions/${ids.blockedTx}`);
  assert.equal(blocked?.kind, 'Payment blocked');
  assert.match(blocked.description, new RegExp(`^Payment of 50\\.00 USDC from wallet ${ids.wallet} to .* blocked by the rule max_per_tx$`));
  const low = rowTo(`/dashboard/wallets/${ids.wallet}`);
  assert.equal(low?.kind, 'Balance low');
  assert.match(low.description, /fell to 97\.00 USDC, below 98\.00 USDC$/);
  const disputed = rowTo(`/dashboard/escrows/${ids.escrow}`);
  assert.equal(disputed?.kind, 'Escrow disputed');
  assert.match(disputed.description, /^Escrow of 2\.00 USDC from wallet .* disputed: the summary never came$/);
  // A viewer does not decide co-signatures: the payment links to the transaction, not to the inbox.
  const awaiting = rowTo(`/dashboard/transactions/${ids.awaitingTx}`);
  assert.equal(awaiting?.kind, 'Awaiting co-sign');
  assert.match(awaiting.description, /^Payment of 10\.00 USDC from wallet .* awaits a co-signature$/);
  // Newest first: the co-sign payment was caused last of the four.
  assert.ok(rows.indexOf(awaiting) < rows.indexOf(disputed) && rows.indexOf(disputed) < rows.indexOf(low)
    && rows.indexOf(low) < rows.indexOf(blocked), JSON.stringify(rows));
  const text = await page.locator('main').textContent();
  assert.equal(text.includes(ids.otherBlockedTx), false, 'organisation 1\'s blocked payment is not shown');
  assert.equal(text.includes(ids.otherWallet), false, 'organisation 1\'s wallet is not shown');

  const { byImpact } = await axe(page, 'the alerts feed');
  assert.equal(byImpact.serious + byImpact.critical, 0);
  await screenshot(page, 'alerts');

  // Filtered to one kind through the form: only blocked payments.
  await page.getByLabel('Kind').selectOption('transaction.blocked');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Show' }).click()]);
  assert.equal(new URL(page.url()).search, '?kind=transaction.blocked');
  const filtered = await rowsOf(page);
  assert.ok(filtered.length >= 1 && filtered.every((row) => row.kind === 'Payment blocked'), JSON.stringify(filtered));
  assert.ok(filtered.some((row) => row.href === `/dashboard/transactions/${ids.blockedTx}`));
  assert.equal(await page.getByLabel('Kind').inputValue(), 'transaction.blocked');

  // A kind with nothing in it is the empty state; an unknown kind is a 400 page.
  await page.goto(`${dashboard.origin}${ALERTS}?kind=webhook.degraded`);
  await page.getByText('No alerts of the kind Webhook degraded.').waitFor();
  assert.equal(await page.locator('table.alerts').count(), 0);
  const empty = await axe(page, 'the alerts feed, empty');
  assert.equal(empty.byImpact.serious + empty.byImpact.critical, 0);
  assert.equal(await statusOf(page, `${ALERTS}?kind=wallet.exploded`), 400);
  assert.deepEqual(problems, []);
  await context.close();
});

test('an operator\'s payment awaiting co-sign links to its row of the inbox; signed out, the feed asks to sign in', async () => {
  const org = dashboard.server.credentials.organisations[0];
  const awaiting = await paymentAwaitingCoSign(org);
  const { context, page } = await openPage();
  assert.equal(await statusOf(page, ALERTS), 303);
  await signIn(page, login(0, 'operator'));
  await page.goto(`${dashboard.origin}${ALERTS}?kind=transaction.pending_co_sign`);
  const link = page.locator(`a[href="/dashboard/co-sign#${awaiting.tx_id}"]`);
  assert.equal(await link.count(), 1);
  await Promise.all([page.waitForNavigation(), link.click()]);
  assert.equal(new URL(page.url()).pathname, '/dashboard/co-sign');
  assert.equal(await page.locator(`tr[id="${awaiting.tx_id}"]`).count(), 1);
  await context.close();
});
