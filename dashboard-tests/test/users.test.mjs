// The owner's users page in Debian's Chromium, served by the real server jar started for these tests.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { axe as runAxe, screenshot, submit, useDashboard } from './support.mjs';

const dashboard = useDashboard('Users browser tests');
const { openPage, login, signIn, statusOf } = dashboard;

/** The users table's row of that email, as the texts of its cells. */
async function row(page, email) {
  return page.locator('table.users tbody tr', { has: page.locator(`td:text-is("${email}")`) }).locator('td')
    .allInnerTexts();
}

/** Fills and sends the add form; answers the status. */
async function addUser(page, { email, role, password }) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption(role);
  await page.getByLabel('Initial password').fill(password);
  return submit(page, page.getByRole('button', { name: 'Add user' }));
}

const sectionLinks = async (page) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allInnerTexts();

test('the owner adds a viewer, who sees only viewer sections; a new role counts at once; removal ends the session', async () => {
  const owner = await openPage();
  await signIn(owner.page, login(1, 'owner'));
  await owner.page.getByRole('navigation').getByRole('link', { name: 'Users' }).click();
  await owner.page.waitForLoadState();
  assert.equal(new URL(owner.page.url()).pathname, '/dashboard/users');
  assert.equal(await owner.page.getByRole('heading', { level: 1 }).textContent(), 'Users');
  assert.equal(await owner.page.locator('#password').getAttribute('autocomplete'), 'new-password');

  const viewer = { email: `viewer-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  assert.equal(await addUser(owner.page, { ...viewer, role: 'viewer' }), 303);
  assert.equal(new URL(owner.page.url()).pathname, '/dashboard/users');
  const [, role, created] = await row(owner.page, viewer.email);
  assert.equal(role, 'viewer');
  assert.match(created, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  assert.equal((await owner.page.content()).includes(viewer.password), false, 'the password is never shown');
  const me = await row(owner.page, login(1, 'owner').email);
  assert.equal(me[3], 'you', 'the owner has no forms on their own row');

  const { byImpact } = await runAxe(owner.page, '/dashboard/users');
  assert.equal(byImpact.serious + byImpact.critical, 0);
  await screenshot(owner.page, 'users');
  assert.deepEqual(owner.problems, []);

  await submit(owner.page, owner.page.getByRole('button', { name: 'Sign out' }));
  assert.equal(new URL(owner.page.url()).pathname, '/dashboard/sign-in');

  const other = await openPage();
  await signIn(other.page, viewer);
  assert.equal(new URL(other.page.url()).pathname, '/dashboard/');
  const links = await sectionLinks(other.page);
  for (const hidden of ['API keys', 'Users', 'Co-sign inbox']) {
    assert.equal(links.some((text) => text.includes(hidden)), false, links.join(', '));
  }
  assert.ok(links.includes('Wallets'), links.join(', '));
  for (const path of ['/dashboard/api-keys', '/dashboard/users', '/dashboard/co-sign']) {
    assert.equal(await statusOf(other.page, path), 403, path);
  }

  await signIn(owner.page, login(1, 'owner'));
  await owner.page.goto(`${dashboard.origin}/dashboard/users`);
  await owner.page.getByLabel(`Role of ${viewer.email}`).selectOption('operator');
  assert.equal(await submit(owner.page, owner.page.getByRole('button', { name: `Change role of ${viewer.email}` })), 303);
  assert.equal((await row(owner.page, viewer.email))[1], 'operator');

  await other.page.reload();
  assert.ok((await sectionLinks(other.page)).some((text) => text.includes('Co-sign inbox')), 'the role is read afresh');
  assert.equal(await statusOf(other.page, '/dashboard/co-sign'), 200);

  assert.equal(await submit(owner.page, owner.page.getByRole('button', { name: `Remove ${viewer.email}` })), 303);
  assert.deepEqual(await row(owner.page, viewer.email), []);
  const gone = await other.page.request.get(`${dashboard.origin}/dashboard/`, { maxRedirects: 0 });
  assert.equal(gone.status(), 303);
  assert.equal(gone.headers().location, '/dashboard/sign-in');
  await owner.context.close();
  await other.context.close();
});

test('a too-short password is refused with its message and adds no one; so is a taken email', async () => {
  const { context, page } = await openPage();
  await signIn(page, login(1, 'owner'));
  await page.goto(`${dashboard.origin}/dashboard/users`);
  const count = async () => page.locator('table.users tbody tr').count();
  const before = await count();

  const email = `short-${randomUUID()}@example.com`;
  assert.equal(await addUser(page, { email, role: 'admin', password: 'too-short' }), 400);
  assert.match(await page.getByRole('alert').innerText(), /'password' must be 12 to 256 characters/);
  assert.equal(await page.getByLabel('Email').inputValue(), email, 'the email is kept');
  assert.equal(await page.getByLabel('Role', { exact: true }).inputValue(), 'admin', 'the role is kept');
  assert.equal(await page.getByLabel('Initial password').inputValue(), '', 'the password is not echoed');
  assert.equal((await page.content()).includes('too-short'), false);
  assert.equal(await count(), before);

  assert.equal(await addUser(page, { email: login(1, 'operator').email, role: 'viewer', password: `pw-${randomUUID()}` }), 409);
  assert.match(await page.getByRole('alert').innerText(), /already exists/);
  assert.equal(await count(), before);
  await context.close();
});

test('forms without the CSRF token and lower roles are refused and change nothing', async () => {
  const { context, page } = await openPage();
  await signIn(page, login(1, 'owner'));
  await page.goto(`${dashboard.origin}/dashboard/users`);
  const rows = async () => page.locator('table.users tbody tr').allInnerTexts();
  const before = await rows();
  const post = (path, form) => page.request.post(`${dashboard.origin}/dashboard/users${path}`, { form, maxRedirects: 0 });

  const email = `forged-${randomUUID()}@example.com`;
  for (const token of [{}, { csrf_token: 'forged' }]) {
    const answer = await post('', { ...token, email, role: 'owner', password: `pw-${randomUUID()}` });
    assert.equal(answer.status(), 403);
  }
  const otherId = (await page.locator('form[action$="/remove"]').first().getAttribute('action')).split('/')[3];
  assert.equal((await post(`/${otherId}/remove`, {})).status(), 403);
  assert.equal((await post(`/${otherId}/role`, { role: 'viewer' })).status(), 403);
  await page.reload();
  assert.deepEqual(await rows(), before);

  const operator = await openPage();
  await signIn(operator.page, login(1, 'operator'));
  const operatorCsrf = await operator.page.locator('input[name=csrf_token]').first().inputValue();
  const refused = await operator.page.request.post(`${dashboard.origin}/dashboard/users`, { maxRedirects: 0,
    form: { csrf_token: operatorCsrf, email, role: 'owner', password: `pw-${randomUUID()}` } });
  assert.equal(refused.status(), 403);
  await page.reload();
  assert.deepEqual(await rows(), before);

  const anonymous = await dashboard.api.post(`${dashboard.origin}/dashboard/users`, { form: { email }, maxRedirects: 0 });
  assert.equal(anonymous.status(), 303);
  assert.equal(anonymous.headers().location, '/dashboard/sign-in');
  await operator.context.close();
  await context.close();
});

test('an owner can neither demote nor remove themself', async () => {
  // A second owner, whose id the first one's page shows in its forms.
  const first = await openPage();
  await signIn(first.page, login(1, 'owner'));
  await first.page.goto(`${dashboard.origin}/dashboard/users`);
  const second = { email: `owner-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  assert.equal(await addUser(first.page, { ...second, role: 'owner' }), 303);
  const secondId = (await first.page.locator(`form[action$="/remove"]:has(button:has-text("${second.email}"))`)
    .getAttribute('action')).split('/')[3];

  const { context, page } = await openPage();
  await signIn(page, second);
  await page.goto(`${dashboard.origin}/dashboard/users`);
  assert.equal((await row(page, second.email))[3], 'you', 'no forms on one\'s own row');
  const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
  const post = (action, form) => page.request.post(`${dashboard.origin}/dashboard/users/${secondId}/${action}`,
    { form: { csrf_token: csrf, ...form }, maxRedirects: 0 });
  const demoted = await post('role', { role: 'viewer' });
  assert.equal(demoted.status(), 409);
  assert.match(await demoted.text(), /you cannot change your own role/);
  const removed = await post('remove', {});
  assert.equal(removed.status(), 409);
  assert.match(await removed.text(), /you cannot remove yourself/);
  await page.reload();
  assert.equal((await row(page, second.email))[1], 'owner');

  assert.equal(await submit(first.page, first.page.getByRole('button', { name: `Remove ${second.email}` })), 303);
  await first.context.close();
  await context.close();
});
