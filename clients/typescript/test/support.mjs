import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { AgentWallet, base58Encode, coSignerPublicKey } from '../src/index.js';

export const server = JSON.parse(process.env.AGENT_WALLET_TEST_SERVER ?? 'null');
if (!server) throw new Error('Run the tests with `npm test`, which starts the server');

export const org = server.credentials.organisations[0];
export const admin = new AgentWallet({ apiKey: org.keys.admin, baseUrl: server.baseUrl });
export const operator = new AgentWallet({ apiKey: org.keys.operator, baseUrl: server.baseUrl });
export const coSignerSecretKey = org.co_signer_secret_key;

export const unique = (prefix) => `${prefix}-${randomUUID()}`;
export const randomAddress = () => base58Encode(randomBytes(32));

const DECODE = { gzip: gunzipSync, deflate: inflateSync, br: brotliDecompressSync };
const decoded = (body, encoding) => (DECODE[encoding] ?? ((bytes) => bytes))(body).toString('utf8');

export const tlsOptions = () => ({ pfx: readFileSync(server.keyStore.path), passphrase: server.keyStore.password });

/** A new wallet, not funded, under a new policy; the answer holds the wallet's `sessionToken`. */
export async function newWallet(policy = {}) {
  const created = await admin.policies.create({ name: unique('ts-policy'), ...policy });
  return admin.wallets.create({ agentId: unique('ts-agent'), policyId: created.id });
}

/** A new funded wallet under a new policy; the answer holds the wallet's `sessionToken`. */
export async function fundedWallet(policy = {}, amount = '100.00') {
  const wallet = await newWallet(policy);
  await admin.wallets.fund(wallet.id, { amount });
  return wallet;
}

/** The wallet's funding transactions. */
export async function fundings(walletId) {
  const found = [];
  for await (const tx of admin.wallets.transactions(walletId, { type: 'funding' })) found.push(tx);
  return found;
}

export const agentClient = (wallet, options = {}) =>
  new AgentWallet({ sessionToken: wallet.sessionToken, baseUrl: server.baseUrl, ...options });

export const coSignPolicy = (threshold) => ({ requireCoSign: threshold, coSigner: coSignerPublicKey(coSignerSecretKey) });

/**
 * An HTTPS proxy in front of the server, with the server's own certificate, that lets a test decide
 * per request: `decide(request, n)` answers `'forward'`, `'cut'` (forward, wait for the server's
 * answer, then drop the connection without passing it on) or `{ status, headers, body }` to answer
 * itself. `requests` records what reached the proxy and, for a forwarded or cut request, the server's
 * `answer` `{ status, headers, body }`.
 */
export async function startProxy(decide) {
  const requests = [];
  const target = new URL(server.baseUrl);
  const proxy = createServer(tlsOptions(), (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const seen = { method: req.method, url: req.url, headers: req.headers, body: body.toString('utf8') };
      requests.push(seen);
      const decision = decide(seen, requests.length);
      if (typeof decision === 'object') {
        res.writeHead(decision.status, { 'content-type': 'application/json', ...decision.headers });
        res.end(JSON.stringify(decision.body ?? { error: { code: 'proxy', message: 'from the test proxy' } }));
        return;
      }
      const upstream = request({
        host: target.hostname, port: target.port, method: req.method, path: req.url,
        headers: { ...req.headers, host: target.host },
      }, (answer) => {
        const answerChunks = [];
        answer.on('data', (chunk) => answerChunks.push(chunk));
        answer.on('end', () => {
          const answerBody = Buffer.concat(answerChunks);
          const { statusCode: status, headers } = answer;
          seen.answer = { status, headers, body: decoded(answerBody, headers['content-encoding']) };
          if (decision === 'cut') {
            req.socket.destroy();
            return;
          }
          res.writeHead(answer.statusCode, answer.headers);
          res.end(answerBody);
        });
      });
      upstream.on('error', () => req.socket.destroy());
      upstream.end(body);
    });
  });
  await new Promise((done) => proxy.listen(0, 'localhost', done));
  return {
    baseUrl: `https://localhost:${proxy.address().port}/v1`,
    requests,
    close: () => new Promise((done) => { proxy.closeAllConnections(); proxy.close(done); }),
  };
}
