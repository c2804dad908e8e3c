// The read pages (transactions, escrows, exports) and the operator's dispute resolution in Debian's
// Chromium, served by the real server jar started for these tests.
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { base58Encode } from '../../clients/typescript/src/index.js';
import { axe, screenshot, submit, useDashboard } from './support.mjs';

const dashboard = useDashboard('records browser tests');
const { openPage, post, get, login, signIn, statusOf, addUser } = dashboard;

/** What the tests read: a funded wallet's payments (one blocked by its policy) and a disputed escrow it pays. */
const books = {};

/**
 * Sets the books up over /v1 once, from the first test that asks (the file's hooks run side by
 * side with useDashboard's, which starts the server).
 */
let made;
const setUp = () => { made ??= makeBooks(); return made; };

async function makeBooks() {
  const org = dashboard.server.credentials.organisations[0];
  books.admin = org.keys.admin;
  books.viewerKey = org.keys.viewer;
  const policy = await post('policies', books.admin, { name: `records-${randomUUID()}`, max_per_tx: '5.00' });
  const wallet = async () => post('wallets', books.admin, { agent_id: `records-${randomUUID()}`, policy_id: policy.id });
  books.wallet = await wallet();
  books.receiver = await wallet();
  await post(`wallets/${books.wallet.id}/fund`, books.admin, { amount: '50.00' });
  const pay = (amount) => dashboard.api.post('payments', { data: { to: base58Encode(randomBytes(32)), amount },
    headers: { Authorization: `Bearer ${books.wallet.session_token}` } });
  books.paid = [];
  for (const amount of ['1.25', '2.50']) books.paid.push((await (await pay(amount)).json()).tx_id);
  const refused = await pay('7.00');
  assert.equal(refused.status(), 422, await refused.text());
  const blocked = await get(`transactions?wallet_id=${books.wallet.id}&status=blocked`, books.viewerKey);
  assert.equal(blocked.data.length, 1);
  books.blocked = blocked.data[0].tx_id;

  const escrow = await post('payments/a2a', books.wallet.session_token, { to_wallet: books.receiver.id,
    amount: '3.00', timeout_seconds: 3600, task_description: 'summarise the quarterly report' });
  const evidence = createHash('sha256').update('the summary was of another report').digest('hex');
  const disputed = await post(`payments/a2a/${escrow.id}/dispute`, books.wallet.session_token,
    { reason: 'the summary is of another report', evidence });
  assert.equal(disputed.status, 'disputed');
  books.escrow = escrow.id;
  books.viewer = await addUser(0, 'viewer');
}

/** The ids of the wallet's transactions, newest first, as /v1 lists them. */
const history = async () => (await get(`transactions?wallet_id=${books.wallet.id}&limit=100`, books.viewerKey)).data
  .map((tx) => tx.tx_id);

/** The ids in the first column of the page's table. */
const ids = async (page) => page.locator('table.records tbody th').allInnerTexts();

/** The cells of the table's row whose first column is `id`. */
const rowOf = async (page, id) => page.locator('table.records tbody tr',
  { has: page.locator('th', { hasText: new RegExp(`^${id}$`) }) }).locator('td').allInnerTexts();

/** Goes to a section through the navigation, as a user would. */
async function open(page, section) {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: section }).click();
  await page.waitForLoadState();
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), section);
}

/** The page's console errors, but for the 400 answers a test asked for on purpose. */
const unexpected = (problems) => problems.filter((problem) => !problem.includes('status of 400 (Bad Request)'));

async function assertAxeClean(page, what) {
  const { byImpact } = await axe(page, what);
  assert.equal(byImpact.serious + byImpact.critical, 0, what);
}

test('a viewer finds the wallet\'s payments by its id, the blocked one with its rule, and one in full', async () => {
  await setUp();
  const { context, page, problems } = await openPage();
  await signIn(page, books.viewer);
  await open(page, 'Transactions');

  await page.getByLabel('Wallet id').fill(books.wallet.id);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Filter' }).click()]);
  assert.equal(new URL(page.url()).searchParams.get('wallet_id'), books.wallet.id);
  const listed = await ids(page);
  // The wallet's history as /v1 lists it: the escrow's lock, the blocked attempt, the payments, the funding.
  assert.deepEqual(listed, await history());
  assert.deepEqual(listed.slice(1, 4), [books.blocked, ...books.paid.slice().reverse()]);
  const walletCells = await page.locator('table.records tbody tr td:nth-child(2)').allInnerTexts();
  assert.deepEqual([...new Set(walletCells)], [books.wallet.id]);
  const [, type, , amount, status] = await rowOf(page, books.blocked);
  assert.equal(type, 'payment');
  assert.equal(amount, '7.00 USDC');
  assert.match(status, /^blocked\s+max_per_tx: Amount 7\.00 exceeds max_per_tx 5\.00$/);
  assert.equal((await rowOf(page, books.paid[0]))[4], 'confirmed');
  assert.equal(await page.getByLabel('Wallet id').inputValue(), books.wallet.id, 'the filter keeps its value');
  await assertAxeClean(page, '/dashboard/transactions');
  await screenshot(page, 'transactions');

  await page.getByLabel('Status').selectOption('blocked');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Filter' }).click()]);
  assert.deepEqual(await ids(page), [books.blocked]);
  await page.getByLabel('Type').selectOption('funding');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Filter' }).click()]);
  assert.match(await page.locator('.empty').innerText(), /No transactions match/);

  await page.goto(`${dashboard.origin}/dashboard/transactions?wallet_id=${books.wallet.id}`);
  await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: books.paid[1] }).click()]);
  assert.equal(new URL(page.url()).pathname, `/dashboard/transactions/${books.paid[1]}`);
  const facts = await page.locator('dl.facts').innerText();
  assert.match(facts, /Amount\s+2\.50 USDC/);
  assert.match(facts, /Status\s+confirmed/);
  assert.match(facts, new RegExp(`Wallet\\s+${books.wallet.id}`));
  await assertAxeClean(page, '/dashboard/transactions/{id}');
  await page.goto(`${dashboard.origin}/dashboard/transactions/${books.blocked}`);
  assert.match(await page.locator('dl.facts').innerText(), /Blocked by\s+max_per_tx: Amount 7\.00 exceeds max_per_tx 5\.00/);

  const malformed = await page.goto(`${dashboard.origin}/dashboard/transactions?wallet_id=not-a-wallet`);
  assert.equal(malformed.status(), 400);
  assert.match(await page.getByRole('alert').innerText(), /'not-a-wallet' is not a wallet id/);
  assert.equal(await page.getByLabel('Wallet id').inputValue(), 'not-a-wallet');
  assert.equal(await statusOf(page, '/dashboard/transactions/tx_000000000000000000000000'), 404);
  assert.equal(await statusOf(page, '/dashboard/transactions/nonsense'), 404);
  assert.equal(await statusOf(page, '/dashboard/transactions?status=nonsense'), 400);
  assert.deepEqual(unexpected(problems), []);
  await context.close();

  const anonymous = await dashboard.api.get(`${dashboard.origin}/dashboard/transactions`, { maxRedirects: 0 });
  assert.equal(anonymous.status(), 303);
  assert.equal(anonymous.headers().location, '/dashboard/sign-in');
});

test('a viewer sees the dispute but cannot resolve it; an operator refunds it, and only with the CSRF token', async () => {
  await setUp();
  const viewer = await openPage();
  await signIn(viewer.page, books.viewer);
  await open(viewer.page, 'Escrows');
  const [status, from, to, amount, , dispute] = await rowOf(viewer.page, books.escrow);
  assert.deepEqual([status, from, to, amount, dispute],
    ['disputed', books.wallet.id, books.receiver.id, '3.00 USDC', 'the summary is of another report']);
  await viewer.page.getByLabel('Status').selectOption('refunded');
  await Promise.all([viewer.page.waitForNavigation(), viewer.page.getByRole('button', { name: 'Filter' }).click()]);
  assert.equal((await ids(viewer.page)).includes(books.escrow), false);
  await viewer.page.getByLabel('Status').selectOption('disputed');
  await Promise.all([viewer.page.waitForNavigation(), viewer.page.getByRole('button', { name: 'Filter' }).click()]);
  assert.ok((await ids(viewer.page)).includes(books.escrow));
  await assertAxeClean(viewer.page, '/dashboard/escrows');
  await screenshot(viewer.page, 'escrows');

  await Promise.all([viewer.page.waitForNavigation(), viewer.page.getByRole('link', { name: books.escrow }).click()]);
  const facts = await viewer.page.locator('dl.facts').innerText();
  assert.match(facts, /Dispute reason\s+the summary is of another report/);
  assert.match(facts, /Task\s+summarise the quarterly report/);
  assert.equal(await viewer.page.getByRole('button', { name: /Release to receiver|Refund to payer/ }).count(), 0);
  await assertAxeClean(viewer.page, '/dashboard/escrows/{id} for a viewer');
  const viewerCsrf = await viewer.page.locator('input[name=csrf_token]').first().inputValue();
  const resolveAs = (page, form) => page.request.post(`${dashboard.origin}/dashboard/escrows/${books.escrow}/resolve`,
    { form, maxRedirects: 0 });
  assert.equal((await resolveAs(viewer.page, { csrf_token: viewerCsrf, outcome: 'release' })).status(), 403);
  assert.equal((await get(`payments/a2a/${books.escrow}`, books.viewerKey)).status, 'disputed');

  const operator = await openPage();
  await signIn(operator.page, login(0, 'operator'));
  await operator.page.goto(`${dashboard.origin}/dashboard/escrows/${books.escrow}`);
  await assertAxeClean(operator.page, '/dashboard/escrows/{id} for an operator');
  for (const form of [{ outcome: 'refund' }, { csrf_token: 'forged', outcome: 'refund' }]) {
    assert.equal((await resolveAs(operator.page, form)).status(), 403);
  }
  assert.equal((await get(`payments/a2a/${books.escrow}`, books.viewerKey)).status, 'disputed');

  assert.equal(await submit(operator.page, operator.page.getByRole('button', { name: 'Refund to payer' })), 303);
  assert.match(await operator.page.getByRole('status').innerText(), /resolved: the escrow is refunded/);
  assert.equal((await get(`payments/a2a/${books.escrow}`, books.viewerKey)).status, 'refunded');
  assert.equal(await operator.page.getByRole('button', { name: 'Release to receiver' }).count(), 0);
  const operatorCsrf = await operator.page.locator('input[name=csrf_token]').first().inputValue();
  const again = await resolveAs(operator.page, { csrf_token: operatorCsrf, outcome: 'release' });
  assert.equal(again.status(), 409);
  assert.equal((await get(`payments/a2a/${books.escrow}`, books.viewerKey)).status, 'refunded');
  assert.equal(await statusOf(operator.page, '/dashboard/escrows/escrow_000000000000000000000000'), 404);
  assert.equal(await statusOf(operator.page, '/dashboard/escrows/nonsense'), 404);
  assert.deepEqual([...viewer.problems, ...operator.problems], []);
  await viewer.context.close();
  await operator.context.close();
});

test('a viewer requests a CSV export of the wallet, reloads until it is ready and downloads it', async () => {
  await setUp();
  const { context, page, problems } = await openPage();
  await signIn(page, books.viewer);
  await open(page, 'Exports');
  const exportRows = async () => page.locator('table.records tbody tr').count();

  const before = await exportRows();
  const forged = await page.request.post(`${dashboard.origin}/dashboard/exports`,
    { form: { format: 'csv' }, maxRedirects: 0 });
  assert.equal(forged.status(), 403);
  await page.reload();
  assert.equal(await exportRows(), before, 'a form without the CSRF token requests nothing');

  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel('Format').selectOption('csv');
  await page.getByLabel('Wallet id (optional)').fill(books.wallet.id);
  await page.getByLabel('From day (optional)').fill(today);
  await page.getByLabel('To day (optional)').fill('2000-01-01');
  assert.equal(await submit(page, page.getByRole('button', { name: 'Request export' })), 400);
  assert.match(await page.getByRole('alert').innerText(), /'from' must not be after 'to'/);
  assert.equal(await page.getByLabel('Wallet id (optional)').inputValue(), books.wallet.id, 'the form keeps what was typed');
  assert.equal(await page.getByLabel('To day (optional)').inputValue(), '2000-01-01');
  assert.equal(await exportRows(), before);

  await page.getByLabel('To day (optional)').fill(today);
  assert.equal(await submit(page, page.getByRole('button', { name: 'Request export' })), 303);
  const id = new URL(page.url()).searchParams.get('requested');
  assert.match(id, /^exp_/);
  assert.match(await page.getByRole('status').innerText(), new RegExp(`Export ${id} is requested`));
  assert.equal((await rowOf(page, id))[0], 'csv');

  // The clockwork writes it in the background: reload, as the page says, until it is ready.
  const deadline = Date.now() + 30_000;
  while ((await rowOf(page, id))[3] !== 'ready') {
    assert.ok(Date.now() < deadline, `export ${id} is still ${(await rowOf(page, id))[3]}`);
    await page.waitForTimeout(250);
    await page.getByRole('link', { name: 'Refresh', exact: true }).click();
    await page.waitForLoadState();
  }
  const expected = await history();
  const [, wallet, , , rows] = await rowOf(page, id);
  assert.equal(wallet, books.wallet.id);
  assert.equal(rows, String(expected.length));
  await assertAxeClean(page, '/dashboard/exports');
  await screenshot(page, 'exports');

  const [download] = await Promise.all([page.waitForEvent('download'),
    page.getByRole('link', { name: `Download csv of ${id}` }).click()]);
  assert.equal(download.suggestedFilename(), `${id}.csv`);
  const csv = readFileSync(await download.path(), 'utf8');
  for (const tx of [...books.paid, books.blocked]) assert.ok(expected.includes(tx));
  for (const tx of expected) assert.ok(csv.includes(tx), `${tx} in\n${csv}`);
  assert.equal(csv.trim().split('\n').length, expected.length + 1, 'a header and a row per transaction');

  const file = await page.request.get(`${dashboard.origin}/dashboard/exports/${id}/download`);
  assert.equal(file.status(), 200);
  assert.match(file.headers()['content-type'], /^text\/csv/);
  assert.equal(file.headers()['content-disposition'], `attachment; filename="${id}.csv"`);
  assert.equal(file.headers()['cache-control'], 'no-store');
  assert.equal(await file.text(), csv);
  assert.equal(await statusOf(page, '/dashboard/exports/exp_000000000000000000000000/download'), 404);
  assert.equal(await statusOf(page, '/dashboard/exports/nonsense/download'), 404);
  assert.deepEqual(unexpected(problems), []);
  await context.close();
});

test('a viewer sees the three sections in the navigation', async () => {
  await setUp();
  const { context, page } = await openPage();
  await signIn(page, books.viewer);
  const links = await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allInnerTexts();
  for (const section of ['Transactions', 'Escrows', 'Exports']) assert.ok(links.includes(section), links.join(', '));
  for (const path of ['/dashboard/transactions', '/dashboard/escrows', '/dashboard/exports']) {
    assert.equal(await statusOf(page, path), 200, path);
  }
  await context.close();
});
