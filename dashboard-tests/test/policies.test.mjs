// The admin's policies pages in Debian's Chromium, served by the real server jar started for these tests.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { base58Encode, coSignerPublicKey } from '../../clients/typescript/src/index.js';
import { axe, screenshot, submit, useDashboard } from './support.mjs';

const dashboard = useDashboard('Policies browser tests');
const { openPage, get, post, login, signIn, addUser, statusOf } = dashboard;
const POLICIES = '/dashboard/policies';

const org = (index) => dashboard.server.credentials.organisations[index];

/** axe-core's run, asserted free of serious and critical violations. */
async function assertAccessible(page, what) {
  const { byImpact } = await axe(page, what);
  assert.equal(byImpact.serious + byImpact.critical, 0, what);
}

/** The /v1 answer to GET `path` with the organisation's admin key: its status and JSON. */
async function apiGet(index, path) {
  const response = await dashboard.api.get(path, { headers: { Authorization: `Bearer ${org(index).keys.admin}` } });
  return { status: response.status(), body: await response.json() };
}

/** The names of the organisation's newest 100 policies, over /v1. */
async function policyNames(index) {
  return (await get('policies?limit=100', org(index).keys.admin)).data.map((policy) => policy.name);
}

/** The policy id of the page's address, /dashboard/policies/{id}. */
const policyIdOf = (page) => new URL(page.url()).pathname.split('/')[3];

const field = (page, label) => page.getByLabel(label, { exact: true });

/** Fills the policy form's fields named by their labels. */
async function fill(page, values) {
  for (const [label, value] of Object.entries(values)) await field(page, label).fill(value);
}

/** The names in the list page's rows, in order. */
const listedNames = async (page) => page.locator('table.policies tbody th a:not(.audit-link)').allInnerTexts();

const sectionLinks = async (page) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allInnerTexts();

/** The texts of the cells of the audit log's newest entry (its first group of rows). */
async function newestEntry(page) {
  const entry = page.locator('table.audit tbody').first();
  return {
    head: await entry.locator('tr').first().locator('th, td').allInnerTexts(),
    rows: await entry.locator('tr').evaluateAll((rows) => rows.map((row) => {
      const cells = [...row.querySelectorAll('td')].slice(-3);
      return cells.map((cell) => ({ text: cell.innerText,
        del: cell.querySelector('del')?.innerText ?? null, ins: cell.querySelector('ins')?.innerText ?? null }));
    })),
  };
}

test('an admin creates a co-signed policy with every rule, edits it, reads the diff in its audit log, clones and deletes', async () => {
  const admin = await addUser(0, 'admin');
  const { context, page, problems } = await openPage();
  await signIn(page, admin);
  assert.ok((await sectionLinks(page)).includes('Policies'));
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Policies' }).click();
  await page.waitForLoadState();
  assert.equal(new URL(page.url()).pathname, POLICIES);
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Policies');

  await page.getByRole('link', { name: 'New policy' }).click();
  await page.waitForLoadState();
  assert.equal(new URL(page.url()).pathname, `${POLICIES}/new`);
  const coSigner = coSignerPublicKey(org(0).co_signer_secret_key);
  const recipients = [base58Encode(randomBytes(32)), base58Encode(randomBytes(32))];
  const name = `ops budget ${randomUUID()}`;
  await fill(page, {
    Name: name,
    'Most per payment': '50',
    'Most per day (rolling 24 h)': '100.00',
    'Most per month (rolling 30 days)': '1000.5',
    'Most payments per 60 min': '10',
    'Allowed recipients, one per line': `${recipients[0]}\n\n  ${recipients[1]}  \n`,
    'Blocked categories, one per line': 'gambling\nadult',
    'Co-sign payments at or above': '25.00',
    'Co-signer public key': coSigner,
    Expiry: '2030-01-01T00:00:00Z',
  });
  await assertAccessible(page, `${POLICIES}/new`);
  assert.equal(await submit(page, page.getByRole('button', { name: 'Create policy' })), 303);
  const id = policyIdOf(page);
  assert.match(id, /^pol_[A-Za-z0-9]{24}$/);
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), `Policy ${name}`);

  const created = await get(`policies/${id}`, org(0).keys.admin);
  assert.deepEqual({ ...created, created_at: undefined, updated_at: undefined }, {
    object: 'policy', id, name, max_per_tx: '50.00', max_per_day: '100.00', max_per_month: '1000.50',
    velocity_cap: 10, allowed_recipients: recipients, blocked_categories: ['adult', 'gambling'],
    expiry: '2030-01-01T00:00:00.000Z', require_co_sign: '25.00', co_signer: coSigner, version: 1,
    created_at: undefined, updated_at: undefined,
  });

  // The edit form shows the policy as saved; the daily limit raised and the velocity cap emptied.
  assert.equal(await field(page, 'Most per day (rolling 24 h)').inputValue(), '100.00');
  assert.equal(await field(page, 'Co-signer public key').inputValue(), coSigner);
  assert.equal(await field(page, 'Allowed recipients, one per line').inputValue(), recipients.join('\n'));
  await fill(page, { 'Most per day (rolling 24 h)': '150', 'Most payments per 60 min': '' });
  assert.equal(await submit(page, page.getByRole('button', { name: 'Save changes' })), 303);
  assert.equal(policyIdOf(page), id);
  assert.equal(await field(page, 'Most per day (rolling 24 h)').inputValue(), '150.00');
  const edited = await get(`policies/${id}`, org(0).keys.admin);
  assert.equal(edited.max_per_day, '150.00');
  assert.equal(edited.velocity_cap, null, 'an emptied field clears the rule');
  assert.equal(edited.version, 2);
  for (const kept of ['max_per_tx', 'max_per_month', 'allowed_recipients', 'blocked_categories', 'expiry',
    'require_co_sign', 'co_signer', 'name']) {
    assert.deepEqual(edited[kept], created[kept], kept);
  }
  await assertAccessible(page, `${POLICIES}/{id}`);
  await screenshot(page, 'policy-edit');

  // Saving the form unchanged patches nothing: no new version.
  assert.equal(await submit(page, page.getByRole('button', { name: 'Save changes' })), 303);
  assert.equal((await get(`policies/${id}`, org(0).keys.admin)).version, 2);

  await page.getByRole('main').getByRole('link', { name: 'Audit log' }).click();
  await page.waitForLoadState();
  assert.equal(new URL(page.url()).pathname, `${POLICIES}/${id}/audit`);
  const { head, rows } = await newestEntry(page);
  assert.equal(head[0], '2');
  assert.match(head[1], /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  assert.equal(head[2], admin.email, 'who: the signed-in admin');
  assert.equal(head[3], 'updated');
  assert.deepEqual(rows.map(([fieldCell, before, after]) => [fieldCell.text, before.del ?? before.text,
    after.ins ?? after.text]), [['max_per_day', '100.00', '150.00'], ['velocity_cap', '10', 'not set']]);
  assert.equal(await page.locator('table.audit tbody').count(), 2, 'created and updated; the unchanged save wrote nothing');
  assert.equal(await page.locator('table.audit tbody').nth(1).locator('th').innerText(), '1');
  await assertAccessible(page, `${POLICIES}/{id}/audit`);
  await screenshot(page, 'policy-audit');

  await page.getByRole('link', { name: 'Back to the policy' }).click();
  await page.waitForLoadState();
  const copyName = `${name} for EU`;
  await field(page, 'Name of the copy').fill(copyName);
  assert.equal(await submit(page, page.getByRole('button', { name: 'Clone policy' })), 303);
  const copyId = policyIdOf(page);
  assert.notEqual(copyId, id);
  const copy = await get(`policies/${copyId}`, org(0).keys.admin);
  assert.equal(copy.name, copyName);
  for (const same of ['max_per_tx', 'max_per_day', 'max_per_month', 'velocity_cap', 'allowed_recipients',
    'blocked_categories', 'expiry', 'require_co_sign', 'co_signer']) {
    assert.deepEqual(copy[same], edited[same], same);
  }

  await page.goto(`${dashboard.origin}${POLICIES}`);
  const names = await listedNames(page);
  assert.deepEqual(names.slice(0, 2), [copyName, name], 'newest first');
  const cells = await page.locator('table.policies tbody tr', { has: page.locator(`a[href="${POLICIES}/${id}"]`) })
    .locator('td').allInnerTexts();
  assert.deepEqual(cells.slice(0, 5), ['50.00', '150.00', '1000.50', 'no cap', '25.00']);
  assert.equal(cells[5], '2030-01-01 00:00');
  await assertAccessible(page, POLICIES);
  await screenshot(page, 'policies');

  assert.deepEqual(problems, []);

  // A policy a wallet uses cannot be deleted; an unused one can.
  await post('wallets', org(0).keys.admin, { agent_id: `policies-${randomUUID()}`, policy_id: id });
  await page.goto(`${dashboard.origin}${POLICIES}/${id}`);
  assert.equal(await submit(page, page.getByRole('button', { name: `Delete policy ${name}` })), 409);
  assert.match(await page.getByRole('heading', { level: 1 }).textContent(), /attached to a wallet/);
  assert.equal((await apiGet(0, `policies/${id}`)).status, 200);
  await page.goto(`${dashboard.origin}${POLICIES}/${copyId}`);
  assert.equal(await submit(page, page.getByRole('button', { name: `Delete policy ${copyName}` })), 303);
  assert.equal(new URL(page.url()).pathname, POLICIES);
  assert.equal((await apiGet(0, `policies/${copyId}`)).status, 404);
  assert.equal(await statusOf(page, `${POLICIES}/${copyId}`), 404);
  assert.equal(await statusOf(page, `${POLICIES}/not-an-id`), 404);
  await context.close();
});

test('invalid input is a 400 with its reason, keeps what was typed and creates nothing', async () => {
  const { context, page } = await openPage();
  await signIn(page, login(1, 'owner'));
  await page.goto(`${dashboard.origin}${POLICIES}/new`);
  const name = `bad amount ${randomUUID()}`;
  await fill(page, { Name: name, 'Most per payment': '12.3456789', 'Co-sign payments at or above': '5' });
  assert.equal(await submit(page, page.getByRole('button', { name: 'Create policy' })), 400);
  assert.match(await page.getByRole('alert').innerText(), /'max_per_tx' must be a decimal string/);
  assert.equal(await field(page, 'Name').inputValue(), name);
  assert.equal(await field(page, 'Most per payment').inputValue(), '12.3456789');

  await fill(page, { 'Most per payment': '12.50' });
  assert.equal(await submit(page, page.getByRole('button', { name: 'Create policy' })), 400);
  assert.match(await page.getByRole('alert').innerText(), /'co_signer' is required when 'require_co_sign' is set/);
  await assertAccessible(page, `${POLICIES} (refused form)`);
  assert.equal((await policyNames(1)).includes(name), false, 'nothing was created');

  // On an edit, a bad amount changes nothing either.
  const policy = await post('policies', org(1).keys.admin, { name, max_per_day: '10.00' });
  await page.goto(`${dashboard.origin}${POLICIES}/${policy.id}`);
  await fill(page, { 'Most per day (rolling 24 h)': '-3', 'Most per payment': '1' });
  assert.equal(await submit(page, page.getByRole('button', { name: 'Save changes' })), 400);
  assert.match(await page.getByRole('alert').innerText(), /'max_per_day'/);
  assert.equal(await field(page, 'Most per day (rolling 24 h)').inputValue(), '-3');
  const after = await get(`policies/${policy.id}`, org(1).keys.admin);
  assert.equal(after.version, 1);
  assert.equal(after.max_per_tx, null);
  await context.close();
});

test('a form opened before someone else changed the policy saves nothing', async () => {
  const { context, page } = await openPage();
  await signIn(page, login(1, 'owner'));
  const policy = await post('policies', org(1).keys.admin, { name: `stale ${randomUUID()}`, max_per_day: '10.00' });
  await page.goto(`${dashboard.origin}${POLICIES}/${policy.id}`);
  const patched = await dashboard.api.patch(`policies/${policy.id}`, { data: { max_per_tx: '5.00' },
    headers: { Authorization: `Bearer ${org(1).keys.admin}` } });
  assert.equal(patched.status(), 200);
  await fill(page, { 'Most per day (rolling 24 h)': '20' });
  assert.equal(await submit(page, page.getByRole('button', { name: 'Save changes' })), 409);
  assert.match(await page.getByRole('alert').innerText(), /changed since the form was opened/);
  assert.equal(await field(page, 'Most per payment').inputValue(), '5.00', 'the form shows the policy as it is now');
  const now = await get(`policies/${policy.id}`, org(1).keys.admin);
  assert.deepEqual([now.version, now.max_per_day, now.max_per_tx], [2, '10.00', '5.00']);
  await context.close();
});

test('the list pages with a Next page link; a cursor not of ours is a 400', async () => {
  const { context, page } = await openPage();
  await signIn(page, login(1, 'owner'));
  const made = [];
  for (let i = 0; i < 21; i += 1) {
    made.push((await post('policies', org(1).keys.admin, { name: `paged ${i} ${randomUUID()}` })).name);
  }
  await page.goto(`${dashboard.origin}${POLICIES}`);
  const first = await listedNames(page);
  assert.equal(first.length, 20);
  assert.equal(first.filter((text) => made.includes(text)).length, 20, 'the newest 20 are the ones just made');
  await page.getByRole('link', { name: 'Next page' }).click();
  await page.waitForLoadState();
  assert.ok(new URL(page.url()).searchParams.get('cursor'));
  const second = await listedNames(page);
  assert.equal(second.some((text) => first.includes(text)), false, 'no policy on both pages');
  assert.ok(made.every((text) => first.includes(text) || second.includes(text)), 'the 21st on the next page');
  assert.equal(await statusOf(page, `${POLICIES}?cursor=not-a-cursor`), 400, 'a cursor not of ours is bad input');
  await context.close();
});

test('viewers and operators neither see nor open the policies pages', async () => {
  const viewer = await addUser(0, 'viewer');
  const policy = await post('policies', org(0).keys.admin, { name: `hidden ${randomUUID()}` });
  for (const user of [viewer, login(0, 'operator')]) {
    const { context, page } = await openPage();
    await signIn(page, user);
    assert.equal(new URL(page.url()).pathname, '/dashboard/');
    const links = await sectionLinks(page);
    assert.equal(links.some((text) => text.includes('Policies')), false, links.join(', '));
    for (const path of [POLICIES, `${POLICIES}/new`, `${POLICIES}/${policy.id}`, `${POLICIES}/${policy.id}/audit`]) {
      assert.equal(await statusOf(page, path), 403, path);
    }
    const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
    const name = `forbidden ${randomUUID()}`;
    const refused = await page.request.post(`${dashboard.origin}${POLICIES}`,
      { form: { csrf_token: csrf, name }, maxRedirects: 0 });
    assert.equal(refused.status(), 403);
    const deleted = await page.request.post(`${dashboard.origin}${POLICIES}/${policy.id}/delete`,
      { form: { csrf_token: csrf }, maxRedirects: 0 });
    assert.equal(deleted.status(), 403);
    assert.equal((await policyNames(0)).includes(name), false);
    assert.equal((await apiGet(0, `policies/${policy.id}`)).status, 200);
    await context.close();
  }
});

test('forms without the CSRF token are refused and change nothing', async () => {
  const { context, page } = await openPage();
  await signIn(page, login(1, 'owner'));
  const policy = await post('policies', org(1).keys.admin, { name: `guarded ${randomUUID()}`, max_per_day: '10.00' });
  const send = (path, form) => page.request.post(`${dashboard.origin}${POLICIES}${path}`, { form, maxRedirects: 0 });
  const name = `forged ${randomUUID()}`;
  for (const token of [{}, { csrf_token: 'forged' }]) {
    assert.equal((await send('', { ...token, name, max_per_tx: '1.00' })).status(), 403);
    assert.equal((await send(`/${policy.id}`, { ...token, version: '1', name: policy.name, max_per_day: '99.00' }))
      .status(), 403);
    assert.equal((await send(`/${policy.id}/clone`, { ...token, name })).status(), 403);
    assert.equal((await send(`/${policy.id}/delete`, token)).status(), 403);
  }
  assert.equal((await policyNames(1)).includes(name), false);
  const now = await get(`policies/${policy.id}`, org(1).keys.admin);
  assert.deepEqual([now.version, now.max_per_day], [1, '10.00']);

  const anonymous = await dashboard.api.post(`${dashboard.origin}${POLICIES}`, { form: { name }, maxRedirects: 0 });
  assert.equal(anonymous.status(), 303);
  assert.equal(anonymous.headers().location, '/dashboard/sign-in');
  await context.close();
});
