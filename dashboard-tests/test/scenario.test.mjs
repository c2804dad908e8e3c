// The whole story across the pages, in Debian's Chromium against the real server jar: an
// admin sets up a co-signed wallet in the dashboard, its agent pays over /v1 with only its session
// token, and an operator approves one payment and rejects another in the co-sign inbox.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { base58Encode, coSignerPublicKey } from '../../clients/typescript/src/index.js';
import { assertKeyNeverSent, submit, useDashboard } from './support.mjs';

const dashboard = useDashboard('Admin-to-operator scenario');
const { openPage, get, post, login, signIn, addUser } = dashboard;

const section = async (page, name) => {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name }).click();
  await page.waitForLoadState();
};

/** Clicks a form's button; answers the response the browser got first (before any redirect). */
async function answerOf(page, button) {
  const [response] = await Promise.all([page.waitForNavigation(), button.click()]);
  return (await response.request().redirectedFrom()?.response()) ?? response;
}

/** The agent's payment of `amount` to a new address, with only its session token. */
const agentPays = (token, amount) => post('payments', token, { to: base58Encode(randomBytes(32)), amount,
  idempotency_key: randomUUID() });

test('an admin sets up a co-signed wallet in the dashboard; the operator approves one payment and rejects another', async () => {
  const org = dashboard.server.credentials.organisations[0];
  const coSigner = coSignerPublicKey(org.co_signer_secret_key);
  const admin = await addUser(0, 'admin');
  const { context, page } = await openPage();
  await signIn(page, admin);

  // The policy: payments of 20.00 or more wait for the organisation's co-signer.
  await section(page, 'Policies');
  await page.getByRole('link', { name: 'New policy' }).click();
  const policyName = `scenario ${randomUUID()}`;
  await page.getByLabel('Name', { exact: true }).fill(policyName);
  await page.getByLabel('Co-sign payments at or above', { exact: true }).fill('20.00');
  await page.getByLabel('Co-signer public key', { exact: true }).fill(coSigner);
  assert.equal(await submit(page, page.getByRole('button', { name: 'Create policy' })), 303);
  const policyId = new URL(page.url()).pathname.split('/')[3];
  const policy = await get(`policies/${policyId}`, org.keys.admin);
  assert.deepEqual([policy.name, policy.require_co_sign, policy.co_signer], [policyName, '20.00', coSigner]);

  // The wallet under it; its session token is shown this once.
  await section(page, 'Wallets');
  await page.getByLabel('Agent id').fill(`scenario-${randomUUID()}`);
  await page.getByLabel('Policy', { exact: true }).selectOption(policyId);
  assert.equal((await answerOf(page, page.getByRole('button', { name: 'Create wallet' }))).status(), 200);
  const walletId = await page.locator('#secret-title code').innerText();
  const token = await page.locator('#session-token').innerText();

  // Its funds, from the organisation's balance.
  await section(page, 'Funding');
  await page.getByLabel('Wallet to fund').selectOption(walletId);
  await page.getByLabel('Amount to fund (USDC)').fill('100.00');
  assert.equal(await submit(page, page.getByRole('button', { name: 'Fund wallet', exact: true })), 303);
  assert.equal((await get(`wallets/${walletId}`, org.keys.admin)).usdc_balance, '100.00');
  await context.close();

  // The agent, over /v1 with only its token: below the threshold it pays, at or above it waits.
  assert.equal((await agentPays(token, '5.00')).status, 'confirmed');
  const approved = await agentPays(token, '25.00');
  const rejected = await agentPays(token, '30.00');
  assert.deepEqual([approved.status, rejected.status], ['pending_co_sign', 'pending_co_sign']);
  assert.equal((await get(`wallets/${walletId}`, org.keys.admin)).usdc_balance, '40.00', 'both held');

  // The operator sees the badge, opens the inbox, loads the key from a file, approves and rejects.
  const operator = await openPage();
  await signIn(operator.page, login(0, 'operator'));
  const badge = await operator.page.getByRole('navigation').locator('.badge').textContent();
  assert.match(badge, /^\d+\+? awaiting co-sign$/);
  assert.ok(Number.parseInt(badge, 10) >= 2, badge);
  await section(operator.page, 'Co-sign inbox');
  const keyPath = join(mkdtempSync(join(tmpdir(), 'scenario-')), 'co-signer.key');
  writeFileSync(keyPath, `${org.co_signer_secret_key}\n`, { mode: 0o600 });
  await operator.page.getByLabel('From a file').setInputFiles(keyPath);
  await operator.page.getByRole('status').filter({ hasText: 'Key loaded' }).waitFor();
  const decide = async (txId, action) => Promise.all([operator.page.waitForNavigation(),
    operator.page.locator(`tr[id="${txId}"]`).getByRole('button', { name: `${action} ${txId}` }).click()]);
  await decide(approved.tx_id, 'Approve');
  assert.equal(await operator.page.locator('.done').innerText(), `Payment ${approved.tx_id} is now confirmed.`);
  await decide(rejected.tx_id, 'Reject');
  assert.equal(await operator.page.locator('.done').innerText(), `Payment ${rejected.tx_id} is now rejected.`);
  await assertKeyNeverSent(operator.sent, org.co_signer_secret_key);
  await operator.context.close();

  assert.equal((await get(`payments/${approved.tx_id}`, org.keys.admin)).status, 'confirmed');
  assert.equal((await get(`payments/${rejected.tx_id}`, org.keys.admin)).status, 'rejected');
  assert.equal((await get(`wallets/${walletId}`, org.keys.admin)).usdc_balance, '70.00',
    '100.00 less the 5.00 and the approved 25.00; the rejected 30.00 came back');
});
