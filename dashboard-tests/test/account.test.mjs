// A user's own password change in Debian's Chromium, served by the real server jar started for these tests.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { axe, screenshot, submit, useDashboard } from './support.mjs';

const dashboard = useDashboard('Account browser tests');
const { openPage, signIn, statusOf, addUser } = dashboard;

/** Fills the change form and sends it; answers the status of the answer (before any redirect). */
async function change(page, { current, next, confirm = next }) {
  await page.getByLabel('Current password').fill(current);
  await page.getByLabel('New password', { exact: true }).fill(next);
  await page.getByLabel('New password again').fill(confirm);
  return submit(page, page.getByRole('button', { name: 'Change password' }));
}

const alertText = async (page) => page.getByRole('alert').innerText();

test('a new password ends every session of the user; only the new one signs in after', async () => {
  const user = await addUser(1, 'viewer');
  const here = await openPage();
  const elsewhere = await openPage();
  await signIn(here.page, user);
  await signIn(elsewhere.page, user);
  assert.equal(await statusOf(elsewhere.page, '/dashboard/'), 200);

  await here.page.getByRole('link', { name: 'Change password' }).click();
  await here.page.waitForLoadState();
  assert.equal(new URL(here.page.url()).pathname, '/dashboard/account/password');
  assert.equal(await here.page.getByLabel('New password', { exact: true }).getAttribute('autocomplete'), 'new-password');
  const { byImpact } = await axe(here.page, '/dashboard/account/password');
  assert.equal(byImpact.serious + byImpact.critical, 0);
  await screenshot(here.page, 'change-password');

  const next = `pw-${randomUUID()}`;
  assert.equal(await change(here.page, { current: user.password, next, confirm: `${next}-typo` }), 400);
  assert.match(await alertText(here.page), /differ; nothing changed/);
  assert.equal(await change(here.page, { current: 'not-the-password', next }), 400);
  assert.match(await alertText(here.page), /current password is wrong/);
  assert.equal(await change(here.page, { current: user.password, next: 'short' }), 400);
  assert.match(await alertText(here.page), /12/);
  const forged = await here.page.request.post(`${dashboard.origin}/dashboard/account/password`, { maxRedirects: 0,
    form: { current_password: user.password, new_password: next, confirm_password: next } });
  assert.equal(forged.status(), 403, 'no CSRF token, no change');
  assert.equal(await statusOf(elsewhere.page, '/dashboard/'), 200, 'refused changes end no session');

  assert.equal(await change(here.page, { current: user.password, next }), 303);
  assert.equal(new URL(here.page.url()).pathname, '/dashboard/sign-in');
  assert.match(await here.page.getByRole('status').innerText(), /password is changed/);
  const cookies = await here.context.cookies();
  assert.equal(cookies.some((cookie) => cookie.name === '__Host-agent-wallet-session'), false, 'the cookie is gone');
  assert.equal(await statusOf(elsewhere.page, '/dashboard/'), 303, 'the other session ended too');

  await signIn(here.page, user);
  assert.match(await alertText(here.page), /Wrong email or password/, 'the old password no longer signs in');
  await signIn(here.page, { email: user.email, password: next });
  assert.equal(new URL(here.page.url()).pathname, '/dashboard/');
  // The refusals above are 4xx pages, which Chromium logs; nothing else may go wrong in the pages.
  const refusal = /^Failed to load resource: the server responded with a status of 4\d\d/;
  assert.deepEqual([...here.problems, ...elsewhere.problems].filter((problem) => !refusal.test(problem)), []);
  await here.context.close();
  await elsewhere.context.close();
});
