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

function config(dataDirectory, ports) {
  return `dataDirectory: ${dataDirectory}
server:
  applicationConnectors:
    - type: https
      port: ${ports.https}
      keyStorePath: ${dataDirectory}/tls/localhost.p12
      keyStorePassword: ${KEY_STORE_PASSWORD}
      keyStoreType: PKCS12
      validateCerts: false
    - type: http
      port: ${ports.http}
  adminConnectors:
    - type: http
      port: ${ports.admin}
      bindHost: 127.0.0.1
  requestLog:
    appenders: []
logging:
  level: WARN
database:
  maxConnections: 8
ledger:
  type: sim
  settings:
    seed: "1"
api:
  selfSignedCertificate: true
  rateLimit:
    perSecond: 50
    burst: 200
webhooks:
  allowPrivateReceivers: true
  acceptSelfSignedReceivers: true
demo: true
coSignWindow: 72h
clockwork:
  tick: 1s
  recoveryGrace: 30s
  reconcileEvery: 5m
`;
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
 * The JVM runs under a shell that kills it when our stdin pipe closes, so the server dies with the
 * test process even when that is killed outright.
 */
export async function startServer({ jar, timeoutMs = 240_000 }) {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'agent-wallet-ts-'));
  const ports = { https: await freePort(), http: await freePort(), admin: await freePort() };
  const configPath = join(dataDirectory, 'config.yml');
  writeFileSync(configPath, config(dataDirectory, ports));
  const log = join(dataDirectory, 'server.log');
  const child = spawn('sh', ['-c', 'java -jar "$0" server "$1" >"$2" 2>&1 & pid=$!; cat >/dev/null; kill $pid; wait $pid',
    resolve(jar), configPath, log], { stdio: ['pipe', 'inherit', 'inherit'] });
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
