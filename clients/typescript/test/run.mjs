// `npm test`: one real server for every test file, handed to them through the environment.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const jar = process.env.AGENT_WALLET_JAR ?? resolve(here, '../../../bootstrap/target/agent-wallet.jar');
const server = await startServer({ jar });
const stop = () => server.stop();
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop().then(() => process.exit(130)));

const files = readdirSync(here).filter((name) => name.endsWith('.test.mjs')).map((name) => join(here, name));
const tests = spawn(process.execPath, ['--test', ...process.argv.slice(2), ...files], {
  stdio: 'inherit',
  env: {
    ...process.env,
    // Node's fetch trusts the server's self-signed certificate through this, read at start-up.
    NODE_EXTRA_CA_CERTS: server.caPath,
    AGENT_WALLET_TEST_SERVER: JSON.stringify({
      baseUrl: server.baseUrl, keyStore: server.keyStore, credentials: server.credentials,
    }),
  },
});
const code = await new Promise((done) => tests.on('exit', (status) => done(status ?? 1)));
await stop();
process.exit(code);
