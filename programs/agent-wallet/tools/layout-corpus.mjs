// Writes each sample's expected 'hex' into layout-corpus.json, encoded from layout.json alone.
// Run it after adding a sample or changing the description: node tools/layout-corpus.mjs
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS, ROOT, encode } from '../test/layout.mjs';

for (const sample of CORPUS.samples) sample.hex = encode(sample.instruction, sample.values).toString('hex');
writeFileSync(join(ROOT, 'layout-corpus.json'), `${JSON.stringify(CORPUS, null, 2)}\n`);
