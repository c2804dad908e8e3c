// Holds the three hand-written copies of the byte layouts to layout.json: the C structs and constants
// (compiled against generated static asserts), the JS test encoders (program.mjs) against the sample
// corpus, and the accounts the built program writes, decoded by the description. The Java adapter's
// copy is checked by adapters-ledger-solana's ProgramLayoutTest against the same two files; the
// layout tables of docs/PROGRAM.md are checked here too.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { GENESIS, Keypair, USDC, World, addressOf, bytesOf, configure, sha256 } from './harness.mjs';
import { CORPUS, LAYOUT, ROOT, arrayOf, bytesValue, decodeAccount, encode, sizeOf } from './layout.mjs';
import { FLAG, Org, initTreasury, writePolicyData } from './program.mjs';

describe('the description', () => {
  const layouts = [
    ...LAYOUT.instructions.map((ix) => ({ what: `instruction ${ix.name}`, start: 1, fields: ix.fields, size: ix.size })),
    ...LAYOUT.accounts.map((a) => ({ what: `account ${a.name}`, start: LAYOUT.header.size, fields: a.fields, size: a.size })),
    { what: 'account header', start: 0, fields: LAYOUT.header.fields, size: LAYOUT.header.size },
    ...Object.entries(LAYOUT.structs).map(([name, s]) => ({ what: `struct ${name}`, start: 0, fields: s.fields, size: s.size })),
  ];
  // A gap, an overlap or a wrong size is a typo in the description, not a layout.
  for (const { what, start, fields, size } of layouts) {
    test(`${what}: fields are contiguous and fill its size`, () => {
      let offset = start;
      for (const field of fields) {
        assert.equal(field.offset, offset, `${what}.${field.name} offset`);
        if (arrayOf(field.type)?.length === null) {
          assert.ok(fields.some((f) => f.name === field.count), `${what}.${field.name} counts by a field`);
          assert.equal(field, fields.at(-1), `${what}.${field.name} is a trailing list`);
        } else {
          offset += sizeOf(field.type);
        }
      }
      assert.equal(offset, size, `${what} size`);
    });
  }

  test('discriminators are 0..n-1 in order and account kinds distinct', () => {
    assert.deepEqual(LAYOUT.instructions.map((ix) => ix.discriminator), LAYOUT.instructions.map((_, i) => i));
    assert.equal(new Set(LAYOUT.accounts.map((a) => a.kind)).size, LAYOUT.accounts.length);
  });

  test('the corpus has a sample of every instruction, its hex encoded by the description', () => {
    assert.deepEqual(new Set(CORPUS.samples.map((s) => s.instruction)), new Set(LAYOUT.instructions.map((ix) => ix.name)));
    for (const sample of CORPUS.samples) {
      assert.equal(encode(sample.instruction, sample.values).toString('hex'), sample.hex,
        `${sample.instruction}: run node tools/layout-corpus.mjs after changing layout.json or the corpus`);
    }
  });
});

const STRUCT = {
  treasury: 'Treasury', wallet: 'Wallet', policy: 'Policy', escrow: 'Escrow', config: 'Config', bucket: 'Bucket',
};
const upper = (name) => name.toUpperCase();

/** _Static_asserts of every size, offset, tag and kind in the description, over the program's own source. */
function staticAsserts() {
  const lines = ['#include "agent_wallet.c"'];
  const check = (expression) => lines.push(`_Static_assert(${expression}, "${expression.replaceAll('"', '')}");`);
  const fields = (struct, list) => {
    for (const field of list) {
      check(`__builtin_offsetof(${struct}, ${field.name}) == ${field.offset}`);
      check(`sizeof(((${struct} *)0)->${field.name}) == ${sizeOf(field.type)}`);
    }
  };
  check(`sizeof(Header) == ${LAYOUT.header.size}`);
  fields('Header', LAYOUT.header.fields);
  for (const [name, struct] of Object.entries(LAYOUT.structs)) {
    check(`sizeof(${STRUCT[name]}) == ${struct.size}`);
    fields(STRUCT[name], struct.fields);
  }
  for (const account of LAYOUT.accounts) {
    const struct = STRUCT[account.name];
    check(`sizeof(${struct}) == ${account.size}`);
    check(`__builtin_offsetof(${struct}, header) == 0`);
    check(`KIND_${upper(account.name)} == ${account.kind}`);
    check(`LAYOUT_VERSION == ${account.version}`);
    fields(struct, account.fields);
  }
  for (const ix of LAYOUT.instructions) {
    check(`IX_${upper(ix.name)} == ${ix.discriminator}`);
    check(`DATA_${upper(ix.name)}_SIZE == ${ix.size}`);
    for (const field of ix.fields) check(`DATA_${upper(ix.name)}_${upper(field.name)} == ${field.offset}`);
  }
  return `${lines.join('\n')}\n`;
}

test('C: layout.h and agent_wallet.c agree with the description (clang static asserts, BPF target)', () => {
  const dir = join(ROOT, 'target');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'layout_check.c');
  writeFileSync(file, staticAsserts());
  // The BPF target the program is built for: its struct layout is the one that matters on chain.
  const result = spawnSync(process.env.CLANG ?? 'clang', [
    '-target', 'bpfel', '-std=c11', '-ffreestanding', '-fsyntax-only', '-I', join(ROOT, 'src'), file,
  ], { encoding: 'utf8' });
  assert.equal(result.error, undefined, `clang: ${result.error}`);
  assert.equal(result.status, 0, result.stderr);
});

// ------------------------------------------------------------ docs/PROGRAM.md

const DOC = readFileSync(join(ROOT, '..', '..', 'docs', 'PROGRAM.md'), 'utf8');
const section = (title) => DOC.split(/^## /m).find((part) => part.startsWith(title)) ?? assert.fail(`no section ${title}`);
/** The size a documented type gives: u8..i64, or [N] / [N][M] byte arrays. */
const docSize = (type) => (type.startsWith('[') ? [...type.matchAll(/\[(\d+)\]/g)].reduce((n, m) => n * Number(m[1]), 1)
  : LAYOUT.types[type]);

describe('docs/PROGRAM.md tables agree with the description', () => {
  const accounts = section('Accounts');
  test('the header paragraph', () => {
    const [, size, text] = /starts with an (\d+)-byte header: (.*?)\n\n/s.exec(accounts) ?? assert.fail('no header paragraph');
    const header = text.replace(/\s+/g, ' ');
    const fields = [...header.matchAll(/`(\w+)` (u8)/g)].map((m) => m[1]);
    assert.deepEqual(fields, LAYOUT.header.fields.filter((f) => f.type === 'u8').map((f) => f.name));
    assert.equal(Number(size), LAYOUT.header.size);
    const kinds = /\(((?:\d \w+, )+\d \w+)\)/.exec(header)[1].split(', ').map((k) => k.split(' '));
    assert.deepEqual(kinds, LAYOUT.accounts.map((a) => [String(a.kind), a.name]));
  });
  for (const account of LAYOUT.accounts) {
    test(`account ${account.name}: size, offsets, names and types`, () => {
      const title = account.name[0].toUpperCase() + account.name.slice(1);
      const part = accounts.split(/^\*\*/m).find((p) => p.startsWith(`${title}**`)) ?? assert.fail(`no ${title}`);
      assert.match(part, new RegExp(`, ${account.size} bytes\\.`));
      const rows = [...part.matchAll(/^\| (\d+) \| `(\w+)`(?: (u8|u16|u32|u64|i64|(?:\[\d+\])+))?/gm)];
      assert.deepEqual(rows.map((m) => [Number(m[1]), m[2]]), account.fields.map((f) => [f.offset, f.name]));
      for (const [, , name, type] of rows) {
        if (type) assert.equal(docSize(type), sizeOf(account.fields.find((f) => f.name === name).type), name);
      }
    });
  }
  test('instructions: tags and data fields in order', () => {
    const rows = [...section('Instructions').matchAll(/^\| (\d+) \| [^|]+ \| [^|]+ \| ([^|]+) \|$/gm)];
    assert.deepEqual(rows.map((m) => Number(m[1])), LAYOUT.instructions.map((ix) => ix.discriminator));
    rows.forEach((m, i) => {
      const ix = LAYOUT.instructions[i];
      assert.deepEqual([...m[2].matchAll(/`(\w+)`/g)].map((f) => f[1]), ix.fields.map((f) => f.name), ix.name);
    });
  });
});

// ------------------------------------------------------------ the JS encoders

const ANY = addressOf(Buffer.alloc(32, 9));
const id = (value) => value.sha256 ?? assert.fail(`the JS encoders hash ids; give ${JSON.stringify(value)} as {sha256}`);
const address = (hex) => addressOf(bytesValue(hex));
const optional = (flags, flag, value) => ((flags & flag) !== 0 ? BigInt(value) : undefined);

function stubOrg(orgId = 'org_test') {
  // Records the instruction a builder makes instead of sending it.
  const world = { payer: { address: ANY }, run: (name, instruction) => instruction };
  return Object.assign(Object.create(Org.prototype), {
    world, orgId, authority: { address: ANY }, treasury: { address: ANY }, mint: ANY, treasuryToken: ANY,
  });
}

const WALLET = { agentId: 'a', address: ANY, bump: 0, token: ANY, tokenBump: 0, policy: ANY, session: { address: ANY } };
const escrowOf = (v) => ({
  escrowId: v.escrow_hash ? id(v.escrow_hash) : 'e', address: ANY, bump: v.bump ?? 0, vault: ANY,
  vaultBump: v.vault_bump ?? 0, wallet: WALLET,
});

/** Each instruction's data as program.mjs builds it from a sample's values. */
const HAND_WRITTEN = {
  init_treasury: (v) => initTreasury({
    payer: ANY, registrar: ANY, config: ANY, authority: address(v.authority), treasury: ANY, token: ANY, mint: ANY,
    bump: v.bump, tokenBump: v.token_bump, orgId: id(v.org_hash),
  }),
  create_wallet: (v) => stubOrg().createWallet({ ...WALLET, agentId: id(v.agent_hash), bump: v.bump, tokenBump: v.token_bump }),
  set_session_key: (v) => stubOrg().setSessionKey(WALLET, { publicKey: bytesValue(v.session_key) }, BigInt(v.expires_at),
    BigInt(v.sequence)),
  write_policy: (v) => {
    const entries = v.entries.map(address);
    assert.equal(v.entries_in_data, v.allowed_count + v.blocked_count, 'the JS encoder sends all entries it is given');
    const rules = {
      sequence: BigInt(v.sequence),
      allowed: entries.slice(0, v.allowed_count),
      blocked: entries.slice(v.allowed_count),
      maxPerTx: optional(v.flags, FLAG.MAX_PER_TX, v.max_per_tx),
      maxPerDay: optional(v.flags, FLAG.MAX_PER_DAY, v.max_per_day),
      maxPerMonth: optional(v.flags, FLAG.MAX_PER_MONTH, v.max_per_month),
      velocityCap: (v.flags & FLAG.VELOCITY_CAP) !== 0 ? v.velocity_cap : undefined,
      expiry: optional(v.flags, FLAG.EXPIRY, v.expiry),
      coSign: optional(v.flags, FLAG.CO_SIGN, v.co_sign_threshold),
      coSigner: (v.flags & FLAG.CO_SIGN) !== 0 ? { publicKey: bytesValue(v.co_signer) } : undefined,
    };
    return { data: writePolicyData(v.bump, id(v.policy_hash), rules, v.entries_in_data) };
  },
  write_policy_entries: (v) => {
    assert.equal(v.count, v.entries.length, 'the JS encoder counts the entries it is given');
    return stubOrg().writePolicyEntries({ address: ANY }, BigInt(v.sequence), v.start, v.entries.map(address));
  },
  update_wallet: (v) => stubOrg().updateWallet(WALLET, v.status, ANY, BigInt(v.sequence)),
  fund: (v) => stubOrg().fund(WALLET, BigInt(v.amount)),
  withdraw: (v) => stubOrg().withdraw(WALLET, BigInt(v.amount)),
  pay: (v) => stubOrg().pay(WALLET, ANY, BigInt(v.amount), { countedAt: BigInt(v.counted_at) }),
  escrow_lock: (v) => stubOrg().lock(escrowOf(v), address(v.receiver), BigInt(v.amount), BigInt(v.deadline),
    v.has_expected_proof ? bytesValue(v.expected_proof) : undefined),
  escrow_release: (v) => stubOrg().release(escrowOf(v), ANY, bytesValue(v.proof)),
  escrow_dispute: (v) => stubOrg().dispute(escrowOf(v)),
  escrow_resolve: (v) => stubOrg().resolve(escrowOf(v), v.outcome, ANY),
  escrow_refund: (v) => stubOrg().refund(escrowOf(v)),
  configure: (v) => configure({
    upgradeAuthority: ANY, registrar: address(v.registrar), mint: ANY, programData: ANY, config: ANY, bump: v.bump,
  }),
  set_authority: (v) => stubOrg().setAuthority(address(v.authority)),
};

describe('JS: program.mjs encodes every corpus sample to its bytes', () => {
  CORPUS.samples.forEach((sample, i) => {
    test(`${i}: ${sample.instruction}`, async () => {
      const data = Buffer.from((await HAND_WRITTEN[sample.instruction](sample.values)).data);
      assert.equal(data.toString('hex'), sample.hex);
    });
  });
});

test('JS: the accounts the program writes decode by the description', async () => {
  const world = new World();
  const org = await Org.create(world);
  org.deposit(1_000n * USDC);
  const coSigner = new Keypair();
  const blocked = new Keypair();
  const receiver = new Keypair();
  const rules = {
    sequence: 2n, maxPerTx: 5n * USDC, velocityCap: 7, expiry: GENESIS + 86_400n, coSign: 3n * USDC, coSigner,
    blocked: [blocked.address],
  };
  const policy = await org.policy('pol_layout', rules);
  policy.outcome.expectOk();
  const wallet = await org.wallet('agent_layout', policy);
  world.run('fund', org.fund(wallet, 100n * USDC), [org.authority]).expectOk();
  const escrow = await org.escrow(wallet, 'esc_layout');
  const deadline = world.now() + 3_600n;
  org.lock(escrow, receiver.address, 2n * USDC, deadline, sha256('output')).expectOk();

  const read = (name, at) => decodeAccount(name, world.account(at).data);
  const key = (a) => Buffer.from(bytesOf(a));

  const treasury = read('treasury', org.treasury.address);
  assert.equal(treasury.header.bump, org.treasury.bump);
  assert.deepEqual(treasury.org_hash, sha256(org.orgId));
  assert.deepEqual(treasury.authority, key(org.authority.address));
  assert.deepEqual(treasury.mint, key(org.mint));
  assert.deepEqual(treasury.token_account, key(org.treasuryToken));

  const p = read('policy', policy.address);
  assert.equal(p.header.status, 1, 'complete');
  assert.deepEqual(p.policy_hash, sha256('pol_layout'));
  assert.equal(p.sequence, 2n);
  assert.equal(p.flags, FLAG.MAX_PER_TX | FLAG.VELOCITY_CAP | FLAG.EXPIRY | FLAG.CO_SIGN);
  assert.equal(p.velocity_cap, 7);
  assert.equal(p.max_per_tx, 5n * USDC);
  assert.equal(p.expiry, GENESIS + 86_400n);
  assert.equal(p.co_sign_threshold, 3n * USDC);
  assert.deepEqual(p.co_signer, coSigner.publicKey);
  assert.deepEqual([p.allowed_count, p.blocked_count, p.entries_written], [0, 1, 1]);
  assert.deepEqual(p.entries.subarray(0, 32), key(blocked.address));

  const w = read('wallet', wallet.address);
  assert.equal(w.header.status, 0, 'active');
  assert.deepEqual(w.agent_hash, sha256('agent_layout'));
  assert.deepEqual(w.treasury, key(org.treasury.address));
  assert.deepEqual(w.policy, key(policy.address));
  assert.deepEqual(w.token_account, key(wallet.token));
  assert.deepEqual(w.session_key, wallet.session.publicKey);
  assert.equal(w.session_expires_at, GENESIS + 3_600n);

  const e = read('escrow', escrow.address);
  assert.equal(e.header.status, 0, 'locked');
  assert.deepEqual(e.org_hash, sha256(org.orgId));
  assert.deepEqual(e.wallet, key(wallet.address));
  assert.deepEqual(e.escrow_hash, sha256('esc_layout'));
  assert.deepEqual(e.receiver, key(receiver.address));
  assert.deepEqual(e.vault, key(escrow.vault));
  assert.equal(e.amount, 2n * USDC);
  assert.equal(e.deadline, deadline);
  assert.equal(e.has_expected_proof, 1);
  assert.deepEqual(e.expected_proof, sha256('output'));
  assert.deepEqual(e.rent_payer, key(world.payer.address));
});
