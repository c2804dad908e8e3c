// The co-sign inbox in Debian's Chromium: an operator approves with the key loaded in the page, and rejects.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { base58Encode, coSignerPublicKey } from '../../clients/typescript/src/index.js';
import { assertKeyNeverSent, axe, screenshot, useDashboard } from './support.mjs';

const dashboard = useDashboard('co-sign inbox browser tests');
const { openPage, get, coSignedWallet, payAwaitingCoSign, login, signIn } = dashboard;
const INBOX = '/dashboard/co-sign';

/** The secret key in a file of its own, as an operator would keep it. */
function keyFile(secretKey) {
  const path = join(mkdtempSync(join(tmpdir(), 'inbox-test-')), 'co-signer.key');
  writeFileSync(path, `${secretKey}\n`, { mode: 0o600 });
  return path;
}

/** A well-formed Ed25519 secret key that is not the policy's co-signer. */
function strangerSecretKey() {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  return base58Encode(Buffer.concat([Buffer.from(jwk.d, 'base64url'), Buffer.from(jwk.x, 'base64url')]));
}

const rowOf = (page, txId) => page.locator(`tr[id="${txId}"]`);

async function openInbox(page) {
  await page.goto(`${dashboard.origin}${INBOX}`);
  assert.equal(new URL(page.url()).pathname, INBOX);
}

async function loadKey(page, path) {
  await page.getByLabel('From a file').setInputFiles(path);
  await page.getByRole('status').filter({ hasText: 'Key loaded' }).waitFor();
}

/** Clicks the row's button and waits for the answer's page. */
async function decide(page, txId, action) {
  await Promise.all([page.waitForNavigation(), rowOf(page, txId).getByRole('button', { name: `${action} ${txId}` }).click()]);
}

test('an operator approves one payment with the key loaded from a file and rejects the other', async () => {
  const org = dashboard.server.credentials.organisations[0];
  const { wallet } = await coSignedWallet(org, { threshold: '10.00', funds: '100.00' });
  const first = await payAwaitingCoSign(wallet, '25.00');
  const second = await payAwaitingCoSign(wallet, '30.00');

  const { context, page, sent, problems } = await openPage();
  await signIn(page, login(0, 'operator'));
  await openInbox(page);
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Co-sign inbox');
  const rows = page.locator('table.payments tbody tr');
  const badge = await page.getByRole('navigation').locator('.badge').textContent();
  assert.match(badge, new RegExp(`^${await rows.count()} awaiting co-sign$`));
  // Newest first: the second payment is above the first.
  const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.id));
  assert.ok(ids.indexOf(second.tx_id) >= 0 && ids.indexOf(second.tx_id) < ids.indexOf(first.tx_id), ids.join(', '));
  const cells = await rowOf(page, first.tx_id).locator('th, td').allTextContents();
  assert.match(cells[0], new RegExp(wallet.id));
  assert.equal(cells[1], first.recipient);
  assert.equal(cells[2], `${first.amount} USDC`);
  assert.match(cells[4], new RegExp(wallet.id), 'the requester is the wallet whose session token paid');
  assert.match(cells[6], /left$/);

  const publicKey = coSignerPublicKey(org.co_signer_secret_key);
  await loadKey(page, keyFile(org.co_signer_secret_key));
  assert.match(await page.locator('#key-status').textContent(), new RegExp(publicKey));
  const { byImpact } = await axe(page, `${INBOX} with ${await rows.count()} rows and a key loaded`);
  assert.equal(byImpact.serious + byImpact.critical, 0);
  await screenshot(page, 'co-sign-inbox');

  await decide(page, first.tx_id, 'Approve');
  assert.equal(new URL(page.url()).pathname, INBOX);
  assert.equal(await page.locator('.done').textContent(), `Payment ${first.tx_id} is now confirmed.`);
  assert.equal((await get(`payments/${first.tx_id}`, org.keys.admin)).status, 'confirmed');
  assert.equal(await rowOf(page, first.tx_id).count(), 0);

  const held = Number((await get(`wallets/${wallet.id}`, org.keys.admin)).balance);
  await decide(page, second.tx_id, 'Reject');
  assert.equal(await page.locator('.done').textContent(), `Payment ${second.tx_id} is now rejected.`);
  assert.equal((await get(`payments/${second.tx_id}`, org.keys.admin)).status, 'rejected');
  assert.equal(Number((await get(`wallets/${wallet.id}`, org.keys.admin)).balance), held + 30);

  // The approval sent only the signature and the CSRF token; no request carried the key.
  const approval = sent.find((request) => request.method() === 'POST' && request.url().endsWith('/approve'));
  assert.deepEqual([...new URLSearchParams(approval.postData()).keys()].sort(), ['csrf_token', 'signature']);
  await assertKeyNeverSent(sent, org.co_signer_secret_key);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a pasted key that is not the co-signer\'s gets the API\'s refusal, and the payment stays pending', async () => {
  const org = dashboard.server.credentials.organisations[0];
  const payment = await dashboard.paymentAwaitingCoSign(org);
  const { context, page } = await openPage();
  await signIn(page, login(0, 'operator'));
  await openInbox(page);

  // Approving before any key is loaded asks for one and sends nothing.
  await rowOf(page, payment.tx_id).getByRole('button', { name: `Approve ${payment.tx_id}` }).click();
  assert.match(await page.locator('#key-status').textContent(), /Load the co-signer's secret key first/);
  assert.equal(new URL(page.url()).pathname, INBOX);

  await page.getByLabel('Or paste it').fill(strangerSecretKey());
  await page.getByRole('button', { name: 'Load the pasted key' }).click();
  await page.getByRole('status').filter({ hasText: 'Key loaded' }).waitFor();
  assert.equal(await page.getByLabel('Or paste it').inputValue(), '', 'the pasted key leaves the field');
  await decide(page, payment.tx_id, 'Approve');
  assert.match(await page.getByRole('alert').textContent(), /not a valid Ed25519 signature of co_sign_payload/);
  assert.equal((await get(`payments/${payment.tx_id}`, org.keys.admin)).status, 'pending_co_sign');
  await context.close();
});

test('approving or rejecting without the session\'s CSRF token is a 403 that changes nothing', async () => {
  const org = dashboard.server.credentials.organisations[0];
  const payment = await dashboard.paymentAwaitingCoSign(org);
  const { context, page } = await openPage();
  await signIn(page, login(0, 'operator'));
  for (const action of ['approve', 'reject']) {
    for (const form of [{ signature: 'x' }, { csrf_token: 'forged', signature: 'x' }]) {
      const answer = await page.request.post(`${dashboard.origin}${INBOX}/${payment.tx_id}/${action}`,
        { form, maxRedirects: 0 });
      assert.equal(answer.status(), 403, `${action} with ${JSON.stringify(form)}`);
    }
  }
  assert.equal((await get(`payments/${payment.tx_id}`, org.keys.admin)).status, 'pending_co_sign');

  const anonymous = await dashboard.api.get(`${dashboard.origin}${INBOX}`, { maxRedirects: 0 });
  assert.equal(anonymous.status(), 303);
  assert.equal(anonymous.headers().location, '/dashboard/sign-in');
  await context.close();
});

test('an inbox lists only its own organisation\'s payments, and an owner sees it too', async () => {
  const mine = await dashboard.paymentAwaitingCoSign(dashboard.server.credentials.organisations[0]);
  const theirs = await dashboard.paymentAwaitingCoSign(dashboard.server.credentials.organisations[1]);
  const { context, page } = await openPage();
  await signIn(page, login(0, 'owner'));
  await openInbox(page);
  assert.equal(await rowOf(page, mine.tx_id).count(), 1);
  assert.equal(await rowOf(page, theirs.tx_id).count(), 0);

  // Another organisation's payment cannot be decided from here either.
  const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
  const answer = await page.request.post(`${dashboard.origin}${INBOX}/${theirs.tx_id}/reject`,
    { form: { csrf_token: csrf }, maxRedirects: 0 });
  assert.equal(answer.status(), 404);
  assert.equal((await get(`payments/${theirs.tx_id}`, dashboard.server.credentials.organisations[1].keys.admin))
    .status, 'pending_co_sign');
  await context.close();
});
