// The owner's API keys page in Debian's Chromium, served by the real server jar started for these tests.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { axe as runAxe, screenshot, submit, useDashboard } from './support.mjs';

const dashboard = useDashboard('API keys browser tests');
const { openPage, login, signIn } = dashboard;

async function axe(page, name) {
  const { byImpact } = await runAxe(page, name);
  assert.equal(byImpact.serious + byImpact.critical, 0);
}

/** GET /v1/wallets with that secret: its status. */
async function useKey(secret) {
  return (await dashboard.api.get('wallets', { headers: { Authorization: `Bearer ${secret}` } })).status();
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
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: dashboard.origin });
  await page.getByRole('button', { name: 'Copy the secret' }).click();
  await page.getByText('Copied.').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), created.secret);
  assert.equal(await useKey(created.secret), 200, 'the new key works at once');

  await page.goto(`${dashboard.origin}/dashboard/api-keys`);
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

  await page.goto(`${dashboard.origin}/dashboard/api-keys`);
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
  await screenshot(page, 'api-keys');
  await context.close();
});

test('an operator has no API keys link and is refused the page and its form', async () => {
  const { context, page } = await openPage();
  await signIn(page, login(0, 'operator'));
  const links = await page.getByRole('navigation').getByRole('link').allInnerTexts();
  assert.equal(links.some((text) => text.includes('API keys')), false, links.join(', '));

  const response = await page.goto(`${dashboard.origin}/dashboard/api-keys`);
  assert.equal(response.status(), 403);
  assert.match(await page.getByRole('heading', { level: 1 }).textContent(), /^403/);
  const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
  const posted = await page.request.post(`${dashboard.origin}/dashboard/api-keys`, { form: { csrf_token: csrf, role: 'owner' },
    maxRedirects: 0 });
  assert.equal(posted.status(), 403);
  assert.equal((await posted.text()).includes('sk_'), false);
  await context.close();
});

test('the owner\'s forms without the session\'s CSRF token are refused and change nothing', async () => {
  const { context, page } = await openPage();
  await signIn(page, login(1, 'owner'));
  await page.goto(`${dashboard.origin}/dashboard/api-keys`);
  const keys = async () => page.locator('table.keys tbody tr').count();
  const before = await keys();
  const live = await page.locator('table.keys tbody tr code').first().innerText();

  for (const form of [{ role: 'admin' }, { role: 'admin', csrf_token: 'forged' }]) {
    const answer = await page.request.post(`${dashboard.origin}/dashboard/api-keys`, { form, maxRedirects: 0 });
    assert.equal(answer.status(), 403);
    assert.equal((await answer.text()).includes('sk_'), false);
    for (const action of ['rotate', 'revoke']) {
      const refused = await page.request.post(`${dashboard.origin}/dashboard/api-keys/${live}/${action}`, { form,
        maxRedirects: 0 });
      assert.equal(refused.status(), 403);
    }
  }
  await page.reload();
  assert.equal(await keys(), before);
  assert.deepEqual((await row(page, live))[4], 'active');

  const anonymous = await dashboard.api.post(`${dashboard.origin}/dashboard/api-keys`, { form: { role: 'admin' }, maxRedirects: 0 });
  assert.equal(anonymous.status(), 303);
  assert.equal(anonymous.headers().location, '/dashboard/sign-in');
  await context.close();
});
