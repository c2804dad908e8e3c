// What the MCP test files share: the server jar started for a file, a fetch that trusts its
// self-signed certificate, the /v1 client for the organisation's admin, and MCP clients of agents.
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AgentWallet, coSignerPublicKey } from '../../clients/typescript/src/index.js';
import { startServer } from '../../clients/typescript/test/server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const jar = process.env.AGENT_WALLET_JAR ?? resolve(here, '../../bootstrap/target/agent-wallet.jar');

export const unique = (prefix) => `${prefix}-${randomUUID()}`;

/**
 * A fetch over node:https that trusts the certificate authority `ca` (the server's self-signed
 * certificate): the MCP transport and the /v1 client both take a fetch, and Node's own trusts only
 * what it was started with.
 */
export function trustingFetch(ca) {
  return (input, init = {}) => new Promise((resolveResponse, reject) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = Object.fromEntries(new Headers(init.headers ?? {}));
    const sent = request(url, { method: init.method ?? 'GET', headers, ca, signal: init.signal ?? undefined },
      (response) => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          for (const one of [].concat(value)) answer.append(name, one);
        }
        const empty = [204, 205, 304].includes(response.statusCode);
        resolveResponse(new Response(empty ? null : Readable.toWeb(response),
          { status: response.statusCode, statusText: response.statusMessage, headers: answer }));
      });
    sent.on('error', reject);
    if (init.body != null) sent.write(init.body);
    sent.end();
  });
}

/**
 * Starts a server before the file's tests and stops it after, printing how long the file took as
 * `name`. The answer's fields are set once the tests run: `origin`, `fetch`, `org` (the first demo
 * organisation), `admin` (its admin's /v1 client), and the helpers below.
 */
export function useServer(name) {
  const context = {};
  let started;
  const clients = [];
  before(async () => {
    started = Date.now();
    context.server = await startServer({ jar });
    context.origin = new URL(context.server.baseUrl).origin;
    context.fetch = trustingFetch(readFileSync(context.server.caPath));
    context.org = context.server.credentials.organisations[0];
    context.admin = new AgentWallet({ apiKey: context.org.keys.admin, baseUrl: context.server.baseUrl,
      fetch: context.fetch });
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await context.server?.stop();
    console.log(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s with the server's start`);
  });

  /** A new wallet under a new policy (`rules` in /v1's camelCase), funded with `amount`; it holds `sessionToken`. */
  context.wallet = async (rules = {}, amount = '100.00') => {
    const policy = await context.admin.policies.create({ name: unique('mcp-policy'), ...rules });
    const wallet = await context.admin.wallets.create({ agentId: unique('mcp-agent'), policyId: policy.id });
    if (amount) await context.admin.wallets.fund(wallet.id, { amount });
    return wallet;
  };

  /** The demo organisation's co-signer, for policies with a co-sign threshold. */
  context.coSigner = () => coSignerPublicKey(context.org.co_signer_secret_key);

  /** The transport of an agent holding `token`. */
  context.transport = (token) => new StreamableHTTPClientTransport(new URL('/mcp', context.origin), {
    fetch: context.fetch, requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });

  /** An MCP client connected as the agent holding `token`, closed after the file's tests. */
  context.agent = async (token) => {
    const client = new Client({ name: 'agent-wallet-mcp-tests', version: '0.1.0' });
    await client.connect(context.transport(token));
    clients.push(client);
    return client;
  };

  /** A raw JSON-RPC POST to /mcp with `token`, for what the transport answers before any tool runs. */
  context.post = async (token, message) => context.fetch(new URL('/mcp', context.origin), {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream' },
    body: JSON.stringify(message),
  });

  return context;
}

/** Calls a tool and prints what the model would read. */
export async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  console.log(`  ${name} ${JSON.stringify(args)} ->${result.isError ? ' [isError]' : ''} ${result.content[0].text}`);
  return result;
}
