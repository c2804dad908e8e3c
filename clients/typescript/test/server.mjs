// Starts the real server for the tests: a fresh data directory, free ports, the demo organisations.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { connect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const KEY_STORE_PASSWORD = 'agent-wallet-dev';

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    }).on('error', fail);
  });
}

/** The repository's config/embedded.yml as shipped, with Dropwizard's `dw.` overrides for this run's folder and ports. */
const CONFIG = resolve(new URL('../../../config/embedded.yml', import.meta.url).pathname);

function overrides(dataDirectory, ports) {
  const https = '-Ddw.server.applicationConnectors[0].';
  return [
    `-Ddw.dataDirectory=${dataDirectory}`, `${https}port=${ports.https}`,
    `${https}keyStorePath=${join(dataDirectory, 'tls', 'localhost.p12')}`, `${https}keyStorePassword=${KEY_STORE_PASSWORD}`,
    `-Ddw.server.applicationConnectors[1].port=${ports.http}`, `-Ddw.server.adminConnectors[0].port=${ports.admin}`,
    '-Ddw.logging.level=WARN', '-Ddw.clockwork.tick=1s',
  ];
}

/** The PEM of the certificate the server presents, so the client can trust it. */
function serverCertificate(port) {
  return new Promise((done, fail) => {
    const socket = connect({ host: 'localhost', port, rejectUnauthorized: false }, () => {
      const der = socket.getPeerCertificate().raw.toString('base64');
      socket.end();
      done(`-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/g).join('\n')}\n-----END CERTIFICATE-----\n`);
    });
    socket.on('error', fail);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `java -jar <jar> server <config>` and waits for its demo credentials and its HTTPS port.
 * It runs in its data directory, where the configuration's relative paths (its generated secrets)
 * then land.
 * The JVM runs under a shell that kills it when our stdin pipe closes, so the server dies with the
 * test process even when that is killed outright.
 */
export async function startServer({ jar, timeoutMs = 240_000 }) {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'agent-wallet-ts-'));
  const ports = { https: await freePort(), http: await freePort(), admin: await freePort() };
  const log = join(dataDirectory, 'server.log');
  const script = 'jar=$1 config=$2 log=$3; shift 3; '
    + 'java "$@" -jar "$jar" server "$config" >"$log" 2>&1 & pid=$!; cat >/dev/null; kill $pid; wait $pid';
  const child = spawn('sh', ['-c', script, 'agent-wallet-server', resolve(jar), CONFIG, log,
    ...overrides(dataDirectory, ports)], { cwd: dataDirectory, stdio: ['pipe', 'inherit', 'inherit'] });
  let exited = false;
  child.on('exit', () => { exited = true; });
  const credentialsPath = join(dataDirectory, 'demo-credentials.json');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited || Date.now() > deadline) {
      const output = existsSync(log) ? readFileSync(log, 'utf8') : '';
      child.stdin.end();
      throw new Error(`The server did not start (${exited ? 'it exited' : 'timeout'}):\n${output.slice(-4000)}`);
    }
    if (existsSync(credentialsPath)) {
      try {
        const caPem = await serverCertificate(ports.https);
        const caPath = join(dataDirectory, 'server-ca.pem');
        writeFileSync(caPath, caPem);
        return {
          dataDirectory,
          baseUrl: `https://localhost:${ports.https}/v1`,
          caPath,
          keyStore: { path: join(dataDirectory, 'tls', 'localhost.p12'), password: KEY_STORE_PASSWORD },
          credentials: JSON.parse(readFileSync(credentialsPath, 'utf8')),
          async stop() {
            child.stdin.end();
            if (!exited) await new Promise((r) => child.on('exit', r));
            rmSync(dataDirectory, { recursive: true, force: true });
          },
        };
      } catch {
        // The port is not answering yet.
      }
    }
    await sleep(500);
  }
}
