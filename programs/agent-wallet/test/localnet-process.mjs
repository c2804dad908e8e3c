// localnet (localnet/server.mjs) as a child process of a test, on a free port.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SERVER = join(dirname(dirname(fileURLToPath(import.meta.url))), 'localnet', 'server.mjs');

/** Starts localnet on a free port; resolves with the process and its ready line once it prints it. */
export async function startLocalnet(args = []) {
  const child = spawn(process.execPath, [SERVER, '--port', '0', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`localnet exited with ${code}: ${stderr}`)));
  });
  return { child, ...JSON.parse(line) };
}
