// The hand-written declarations, compiled with the TypeScript compiler against a program that uses
// them as the README does; its @ts-expect-error lines must stay errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

test('index.d.ts type-checks a program that uses the client, and refuses its mistakes', () => {
  const run = spawnSync(process.execPath, [tsc, '-p', join(here, 'types', 'tsconfig.json')], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
});
