// localnet: a local Solana validator stand-in. Solana's JSON-RPC 2.0 over HTTP (signature
// subscriptions over WebSocket, on the same port and on port + 1 as solana-test-validator does)
// around one LiteSVM holding the agent-wallet program, SPL Token, the Associated Token Account
// program and a USDC-like mint. When ready it prints one JSON line to stdout; logs go to stderr.
// See docs/LOCALNET.md.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isAddress } from '@solana/kit';
import { WebSocketServer } from 'ws';
import { Chain } from './chain.mjs';
import { servePubsub } from './pubsub.mjs';
import { dispatch, methods, stringify } from './rpc.mjs';
import { addressOf } from './solana.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const MAX_BODY_BYTES = 1 << 20;
const U64_MAX = 2n ** 64n - 1n;
const FEE_PAYER_SOL = 1_000n * 1_000_000_000n;
const FEE_PAYER_USDC = 1_000_000_000n * 1_000_000n;

const USAGE = `usage: node localnet/server.mjs [--host 127.0.0.1] [--port 8899]
  [--program-id AgentWa11etProgram1111111111111111111111111] [--program target/agent_wallet.so]
  [--mint 4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU] [--slot-ms 400]
  [--airdrop <base58>:<lamports>]... [--usdc <base58 owner>:<micro-usdc>]... [--fee-payer <keypair.json>]
  [--registrar <keypair.json>] [--service-keys <folder>]
  [--exit-on-stdin-close]`;

const log = (message) => console.error(`localnet: ${message}`);

class UsageError extends Error {}

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8899' },
      'program-id': { type: 'string', default: 'AgentWa11etProgram1111111111111111111111111' },
      program: { type: 'string' },
      mint: { type: 'string', default: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU' },
      'slot-ms': { type: 'string', default: '400' },
      airdrop: { type: 'string', multiple: true, default: [] },
      usdc: { type: 'string', multiple: true, default: [] },
      'fee-payer': { type: 'string' },
      registrar: { type: 'string' },
      'service-keys': { type: 'string' },
      'exit-on-stdin-close': { type: 'boolean', default: false },
    },
  });
  return {
    host: values.host,
    port: integer('--port', values.port, 65535),
    programId: address('--program-id', values['program-id']),
    program: values.program ? resolve(values.program) : join(root, 'target', 'agent_wallet.so'),
    mint: address('--mint', values.mint),
    slotMs: integer('--slot-ms', values['slot-ms'], 2 ** 31 - 1),
    airdrops: values.airdrop.map((pair) => funding('--airdrop', pair)),
    usdc: values.usdc.map((pair) => funding('--usdc', pair)),
    feePayer: values['fee-payer'],
    registrar: values.registrar,
    serviceKeys: values['service-keys'],
    exitOnStdinClose: values['exit-on-stdin-close'],
  };
}

function integer(flag, text, max) {
  if (!/^\d+$/.test(text) || Number(text) > max) throw new UsageError(`${flag}: expected an integer from 0 to ${max}`);
  return Number(text);
}

function address(flag, text) {
  if (!isAddress(text)) throw new UsageError(`${flag}: not a base58 address: ${text}`);
  return text;
}

/** `<base58>:<amount>` */
function funding(flag, pair) {
  const at = pair.lastIndexOf(':');
  const amount = pair.slice(at + 1);
  if (at < 0 || !/^\d{1,20}$/.test(amount) || BigInt(amount) > U64_MAX) {
    throw new UsageError(`${flag}: expected <base58>:<amount>, got ${pair}`);
  }
  return { address: address(flag, pair.slice(0, at)), amount: BigInt(amount) };
}

/**
 * A key of the service for a run against localnet (its fee payer, its registrar): the solana-keygen
 * JSON keypair in `file`, made there first if the file does not exist. Answers its address.
 */
function keypairAddress(file, flag) {
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync('ed25519');
    const jwk = privateKey.export({ format: 'jwk' });
    const secret = [...Buffer.from(jwk.d, 'base64url'), ...Buffer.from(jwk.x, 'base64url')];
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(secret)}\n`, { mode: 0o600 });
    log(`wrote a new ${flag.slice(2)} keypair to ${file}`);
  }
  const secret = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(secret) || secret.length !== 64) throw new UsageError(`${flag}: ${file} is not a 64-byte keypair`);
  return addressOf(Uint8Array.from(secret.slice(32)));
}

function readBody(request) {
  return new Promise((done, fail) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => done(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    request.on('error', fail);
  });
}

/** HTTP: POST a JSON-RPC request or batch; GET /health answers "ok" like a validator. */
function rpcServer(handlers) {
  const reply = (response, status, type, body) => {
    response.writeHead(status, { 'content-type': type });
    response.end(body);
  };
  const serve = async (request, response) => {
    if (request.method === 'GET' && request.url === '/health') return reply(response, 200, 'text/plain', 'ok');
    if (request.method !== 'POST') return reply(response, 405, 'text/plain', 'Used HTTP Method is not allowed. POST is required');
    const body = await readBody(request);
    if (body === null) return reply(response, 413, 'text/plain', 'Payload Too Large');
    const answer = await dispatch(handlers, body);
    return reply(response, 200, 'application/json', answer === null ? '' : stringify(answer));
  };
  const server = createServer((request, response) => {
    serve(request, response).catch((e) => {
      log(`request failed: ${e.message}`);
      if (!response.headersSent) reply(response, 500, 'text/plain', 'Internal Server Error');
    });
  });
  // Idle connections stay open until the client closes them: Node's 5 s default would close one
  // just as a client (Java's HttpClient keeps them 20 min) sends on it, which fails that request.
  server.keepAliveTimeout = 0;
  return server;
}

const listen = (server, port, host) => new Promise((done, fail) => {
  server.once('error', fail);
  server.listen(port, host, () => done(server.address().port));
});

async function main() {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (e) {
    log(`${e.message}\n${USAGE}`);
    process.exit(2);
  }
  let program;
  try {
    program = readFileSync(options.program);
  } catch (e) {
    log(`cannot read the program ${options.program} (${e.code}); build it with: npm ci && node build.mjs`);
    process.exit(1);
  }

  const chain = new Chain({ programId: options.programId, program, mint: options.mint });
  chain.on('landed', (record) => log(`slot ${record.slot} ${record.signature} ${record.err === null ? 'ok' : JSON.stringify(record.err)}`));
  for (const { address: to, amount } of options.airdrops) chain.airdrop(to, amount);
  for (const { address: owner, amount } of options.usdc) await chain.mintUsdc(owner, amount);
  if (options.serviceKeys) {
    // The service's four keys (see docs/PROGRAM.md, "Keys and custody"), made once: the fee payer and
    // registrar are then funded and configured as --fee-payer and --registrar would.
    const folder = resolve(options.serviceKeys);
    for (const name of ['authority-root', 'session-root']) keypairAddress(join(folder, `${name}.json`), `--service-keys ${name}`);
    options.feePayer ??= join(folder, 'fee-payer.json');
    options.registrar ??= join(folder, 'registrar.json');
  }
  if (options.feePayer) {
    const payer = keypairAddress(resolve(options.feePayer), '--fee-payer');
    chain.airdrop(payer, FEE_PAYER_SOL);
    await chain.mintUsdc(payer, FEE_PAYER_USDC);
    log(`fee payer ${payer}: ${FEE_PAYER_SOL} lamports, ${FEE_PAYER_USDC} micro-USDC`);
  }
  if (options.registrar) {
    const registrar = keypairAddress(resolve(options.registrar), '--registrar');
    await chain.configure(registrar);
    log(`program configured: registrar ${registrar}, mint ${options.mint}`);
  }

  const server = rpcServer(methods(chain));
  servePubsub(new WebSocketServer({ server }), chain);
  const port = await listen(server, options.port, options.host);
  if (port < 65535) { // web3.js and solana-test-validator's convention: WebSocket on the RPC port + 1
    const conventional = new WebSocketServer({ host: options.host, port: port + 1 });
    conventional.on('error', (e) => log(`no WebSocket on port ${port + 1} (${e.code}); it is served on ${port} too`));
    servePubsub(conventional, chain);
  }
  if (options.slotMs > 0) setInterval(() => chain.advanceSlots(1), options.slotMs);

  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  process.stdout.write(`${JSON.stringify({ rpc_url: `http://${host}:${port}`, program_id: options.programId, mint: options.mint })}\n`);
  log(`ready: program ${options.programId}, mint ${options.mint} (authority ${chain.faucet.address}), slot every ${options.slotMs || '-'} ms`);

  const stop = (reason) => {
    log(`stopping (${reason})`);
    process.exit(0);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (options.exitOnStdinClose) {
    process.stdin.on('end', () => stop('stdin closed'));
    process.stdin.on('error', () => stop('stdin closed'));
    process.stdin.resume();
  }
}

main().catch((e) => {
  log(e.stack ?? e.message);
  process.exit(1);
});
