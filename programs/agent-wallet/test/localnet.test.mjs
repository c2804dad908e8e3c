// localnet (localnet/server.mjs) as its clients see it: started as a child process on a free port,
// used through @solana/web3.js's Connection and through plain JSON-RPC requests.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  Connection, Keypair as Web3Keypair, LAMPORTS_PER_SOL, NONCE_ACCOUNT_LENGTH, NonceAccount, PublicKey, SystemProgram,
  Transaction as Web3Transaction, TransactionMessage, VersionedTransaction, sendAndConfirmTransaction,
} from '@solana/web3.js';
import { getTransactionEncoder } from '@solana/kit';
import { signedTransaction, transfer } from '../localnet/solana.mjs';
import { E, Keypair, PROGRAM_ID, TOKEN_PROGRAM, USDC, addressOf, ata, configPda, treasuryPda } from './harness.mjs';
import { startLocalnet as start } from './localnet-process.mjs';
import { initTreasury } from './program.mjs';

const MINT = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU';
const CLOCK = 'SysvarC1ock11111111111111111111111111111111';

const startupPayee = new Keypair();
const startupHolder = new Keypair();
const scratch = mkdtempSync(join(tmpdir(), 'agent-wallet-localnet-'));
const registrarFile = join(scratch, 'registrar.json');
let localnet;
let connection;

before(async () => {
  localnet = await start(['--slot-ms', '0', '--airdrop', `${startupPayee.address}:3000000000`,
    '--usdc', `${startupHolder.address}:2500000`, '--registrar', registrarFile]);
  connection = new Connection(localnet.rpc_url, { commitment: 'confirmed', wsEndpoint: localnet.rpc_url.replace('http', 'ws') });
});

after(() => {
  localnet?.child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

let lastId = 0;
async function post(body) {
  const response = await fetch(localnet.rpc_url, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return text === '' ? null : JSON.parse(text);
}
const call = (method, params = []) => post({ jsonrpc: '2.0', id: ++lastId, method, params });
async function result(method, params) {
  const response = await call(method, params);
  if (response.error) throw new Error(`${method}: ${JSON.stringify(response.error)}`);
  return response.result;
}

/** A keypair holding `sol` SOL. */
async function funded(sol = 10) {
  const keypair = new Keypair();
  await result('requestAirdrop', [keypair.address, sol * LAMPORTS_PER_SOL]);
  return keypair;
}

/** A signed transaction in base64, paid by `payer`, at the latest blockhash unless one is given. */
async function wire(instructions, payer, blockhash) {
  const recent = blockhash ?? (await result('getLatestBlockhash')).value.blockhash;
  return Buffer.from(getTransactionEncoder().encode(signedTransaction(instructions, payer, recent))).toString('base64');
}

/** InitTreasury of a new organisation not signed by the registrar: the program refuses it with ACCOUNT_MISMATCH. */
async function unregisteredInitTreasury(payer) {
  const orgId = `org_${payer.address.slice(0, 8)}`;
  const treasury = await treasuryPda(orgId);
  const token = await ata(treasury.address, MINT);
  const instruction = initTreasury({
    payer: payer.address, registrar: registrarAddress(), config: (await configPda()).address, authority: payer.address,
    treasury: treasury.address, token: token.address, mint: MINT, bump: treasury.bump, tokenBump: token.bump, orgId,
  });
  instruction.accounts[1] = { ...instruction.accounts[1], signer: false };
  return instruction;
}

const registrarAddress = () => addressOf(Uint8Array.from(JSON.parse(readFileSync(registrarFile, 'utf8')).slice(32)));

const send = (tx, config = {}) => call('sendTransaction', [tx, { encoding: 'base64', ...config }]);
const statusOf = async (signature) => (await result('getSignatureStatuses', [[signature]])).value[0];
const balance = async (address) => (await result('getBalance', [address])).value;

describe('through @solana/web3.js', () => {
  test('getLatestBlockhash, requestAirdrop confirmed by confirmTransaction, getBalance', async () => {
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    assert.equal(lastValidBlockHeight, await connection.getBlockHeight() + 150);
    const alice = Web3Keypair.generate();
    const signature = await connection.requestAirdrop(alice.publicKey, 2 * LAMPORTS_PER_SOL);
    const confirmation = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
    assert.equal(confirmation.value.err, null);
    assert.equal(await connection.getBalance(alice.publicKey), 2 * LAMPORTS_PER_SOL);
  });

  test('a SOL transfer with sendAndConfirmTransaction, read back with getTransaction', async () => {
    const alice = Web3Keypair.generate();
    const bob = Web3Keypair.generate();
    const airdrop = await connection.requestAirdrop(alice.publicKey, LAMPORTS_PER_SOL);
    await connection.confirmTransaction({ signature: airdrop, ...(await connection.getLatestBlockhash()) });
    const lamports = 1_000_000; // at least rent-exempt for a new account
    const tx = new Web3Transaction().add(SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob.publicKey, lamports }));
    const signature = await sendAndConfirmTransaction(connection, tx, [alice]);
    assert.equal(await connection.getBalance(bob.publicKey), lamports);
    assert.equal(await connection.getBalance(alice.publicKey), LAMPORTS_PER_SOL - lamports - 5000);

    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    assert.equal(landed.version, 'legacy');
    assert.equal(landed.meta.err, null);
    assert.equal(landed.meta.fee, 5000);
    assert.deepEqual(landed.meta.preBalances.slice(0, 2), [LAMPORTS_PER_SOL, 0]);
    assert.deepEqual(landed.meta.postBalances.slice(0, 2), [LAMPORTS_PER_SOL - lamports - 5000, lamports]);
    assert.ok(landed.meta.logMessages.includes('Program 11111111111111111111111111111111 success'));
    assert.equal(landed.transaction.signatures[0], signature);
    assert.ok(Math.abs(landed.blockTime - Date.now() / 1000) < 5);
  });

  test('a version 0 transaction lands; getTransaction shows it to clients that accept version 0', async () => {
    const alice = Web3Keypair.generate();
    const latest = await connection.getLatestBlockhash();
    await connection.confirmTransaction({ signature: await connection.requestAirdrop(alice.publicKey, LAMPORTS_PER_SOL), ...latest });
    const tx = new VersionedTransaction(new TransactionMessage({
      payerKey: alice.publicKey, recentBlockhash: latest.blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: Web3Keypair.generate().publicKey, lamports: 1_000_000 })],
    }).compileToV0Message());
    tx.sign([alice]);
    const signature = await connection.sendTransaction(tx);
    await connection.confirmTransaction({ signature, ...latest });
    await assert.rejects(connection.getTransaction(signature), /Transaction version \(0\) is not supported/);
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    assert.equal(landed.version, 0);
    assert.equal(landed.meta.err, null);
  });

  test('the agent-wallet program is deployed: its account is executable', async () => {
    const account = await connection.getAccountInfo(new PublicKey(PROGRAM_ID));
    assert.equal(account.executable, true);
  });

  test('a durable-nonce transaction lands whatever its age, once; even a failing one advances the nonce', async () => {
    const payer = Web3Keypair.generate();
    await connection.confirmTransaction({
      signature: await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL), ...(await connection.getLatestBlockhash()),
    });
    const seed = 'nonce';
    const nonceAccount = await PublicKey.createWithSeed(payer.publicKey, seed, SystemProgram.programId);
    await sendAndConfirmTransaction(connection, new Web3Transaction().add(
      SystemProgram.createAccountWithSeed({
        fromPubkey: payer.publicKey, newAccountPubkey: nonceAccount, basePubkey: payer.publicKey, seed,
        lamports: await connection.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_LENGTH), space: NONCE_ACCOUNT_LENGTH,
        programId: SystemProgram.programId,
      }),
      SystemProgram.nonceInitialize({ noncePubkey: nonceAccount, authorizedPubkey: payer.publicKey }),
    ), [payer]);
    const nonce = async () => NonceAccount.fromAccountData((await connection.getAccountInfo(nonceAccount)).data).nonce;
    const nonced = (value, lamports) => {
      const tx = new Web3Transaction({
        feePayer: payer.publicKey,
        nonceInfo: { nonce: value, nonceInstruction: SystemProgram.nonceAdvance({ noncePubkey: nonceAccount, authorizedPubkey: payer.publicKey }) },
      }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Web3Keypair.generate().publicKey, lamports }));
      tx.sign(payer);
      return tx.serialize().toString('base64');
    };

    const first = await nonce();
    const tx = nonced(first, 1_000_000);
    await result('localnet_advanceSlots', [200]); // any blockhash of the time it was signed has expired
    const signature = await result('sendTransaction', [tx, { encoding: 'base64' }]);
    assert.equal((await statusOf(signature)).err, null);
    const second = await nonce();
    assert.notEqual(second, first);

    // As on Solana, the nonce check comes before the status cache: its nonce has moved on.
    const before = await balance(payer.publicKey.toBase58());
    for (const again of [tx, nonced(first, 2_000_000)]) {
      const refused = await send(again);
      assert.equal(refused.error.code, -32002);
      assert.equal(refused.error.data.err, 'BlockhashNotFound');
    }
    assert.equal(await balance(payer.publicKey.toBase58()), before);

    const failing = await result('sendTransaction', [nonced(second, 10 * LAMPORTS_PER_SOL), { encoding: 'base64', skipPreflight: true }]);
    assert.deepEqual((await statusOf(failing)).err, { InstructionError: [1, { Custom: 1 }] });
    assert.notEqual(await nonce(), second);
  });
});

describe('through JSON-RPC', () => {
  test('--airdrop and --usdc fund accounts at startup', async () => {
    assert.equal(await balance(startupPayee.address), 3_000_000_000);
    const token = (await ata(startupHolder.address, MINT)).address;
    assert.equal((await result('getTokenAccountBalance', [token])).value.amount, '2500000');
  });

  test('localnet_mintUsdc creates the associated token account and mints; getTokenAccountBalance reads it', async () => {
    const owner = new Keypair();
    const token = await result('localnet_mintUsdc', [owner.address, '1500000']);
    assert.equal(token, (await ata(owner.address, MINT)).address);
    await result('localnet_mintUsdc', [owner.address, `${12n * USDC}`]);
    const { context, value } = await result('getTokenAccountBalance', [token]);
    assert.equal(typeof context.slot, 'number');
    assert.deepEqual(value, { amount: '13500000', decimals: 6, uiAmount: 13.5, uiAmountString: '13.5' });
    const account = (await result('getAccountInfo', [token, { encoding: 'base64' }])).value;
    assert.equal(account.owner, TOKEN_PROGRAM);
    assert.equal(Buffer.from(account.data[0], 'base64').length, 165);

    const absent = await call('getTokenAccountBalance', [new Keypair().address]);
    assert.deepEqual(absent.error, { code: -32602, message: 'Invalid param: could not find account' });
  });

  test('a failing program instruction is refused by preflight, Solana-shaped, and lands nothing', async () => {
    const payer = await funded();
    const tx = await wire([await unregisteredInitTreasury(payer)], payer);
    const before = await balance(payer.address);
    const response = await send(tx);
    assert.equal(response.error.code, -32002);
    assert.equal(response.error.message, 'Transaction simulation failed: Error processing Instruction 0: custom program error: 0xe');
    assert.deepEqual(response.error.data.err, { InstructionError: [0, { Custom: E.ACCOUNT_MISMATCH }] });
    assert.ok(response.error.data.logs.some((line) => line.includes(PROGRAM_ID)));
    assert.ok(response.error.data.unitsConsumed > 0);

    const simulation = await result('simulateTransaction', [tx, { encoding: 'base64' }]);
    assert.deepEqual(simulation.value.err, response.error.data.err);
    assert.equal(simulation.value.accounts, null);
    assert.equal(simulation.value.returnData, null);
    assert.equal(await balance(payer.address), before);
  });

  test('with skipPreflight a failing transaction lands with its error and pays its fee; sent again it is AlreadyProcessed', async () => {
    const payer = await funded();
    const tx = await wire([await unregisteredInitTreasury(payer)], payer);
    const before = await balance(payer.address);
    const signature = await result('sendTransaction', [tx, { encoding: 'base64', skipPreflight: true }]);
    const err = { InstructionError: [0, { Custom: E.ACCOUNT_MISMATCH }] };
    const status = await statusOf(signature);
    assert.deepEqual(status, { slot: status.slot, confirmations: null, err, status: { Err: err }, confirmationStatus: 'finalized' });
    assert.equal(await balance(payer.address), before - 5000);
    const landed = await result('getTransaction', [signature, { encoding: 'base64' }]);
    assert.deepEqual(landed.meta.err, err);
    assert.deepEqual(landed.transaction, [tx, 'base64']);

    for (const skipPreflight of [false, true]) {
      const again = await send(tx, { skipPreflight });
      assert.equal(again.error.code, -32002);
      assert.equal(again.error.message, 'Transaction simulation failed: This transaction has already been processed');
      assert.equal(again.error.data.err, 'AlreadyProcessed');
    }
    assert.equal(await balance(payer.address), before - 5000);
  });

  test('a transaction whose signature does not verify is refused with -32003', async () => {
    const payer = await funded();
    const tx = Buffer.from(await wire([transfer(payer.address, new Keypair().address, 1)], payer), 'base64');
    tx[10] ^= 1;
    const response = await send(tx.toString('base64'));
    assert.deepEqual(response.error, { code: -32003, message: 'Transaction signature verification failure' });
  });

  test('a blockhash stays usable for 150 blocks, then the transaction is refused with BlockhashNotFound', async () => {
    const payer = await funded();
    const { blockhash, lastValidBlockHeight } = (await result('getLatestBlockhash')).value;
    const pay = (lamports) => wire([transfer(payer.address, new Keypair().address, lamports)], payer, blockhash);

    await result('localnet_advanceSlots', [100]);
    assert.equal((await result('isBlockhashValid', [blockhash])).value, true);
    assert.equal((await statusOf(await result('sendTransaction', [await pay(1_000_000), { encoding: 'base64' }]))).err, null);

    await result('localnet_advanceSlots', [lastValidBlockHeight - await result('getBlockHeight') + 1]);
    assert.equal((await result('isBlockhashValid', [blockhash])).value, false);
    for (const skipPreflight of [false, true]) {
      const tx = await pay(2_000_000 + Number(skipPreflight));
      const response = await send(tx, { skipPreflight });
      assert.equal(response.error.code, -32002);
      assert.equal(response.error.message, 'Transaction simulation failed: Blockhash not found');
      assert.equal(response.error.data.err, 'BlockhashNotFound');
      const signature = (await result('simulateTransaction', [tx, { encoding: 'base64', replaceRecentBlockhash: true }]));
      assert.equal(signature.value.err, null);
      assert.equal(signature.value.replacementBlockhash.blockhash, (await result('getLatestBlockhash')).value.blockhash);
    }
  });

  test('each landed transaction advances the slot by one', async () => {
    const payer = await funded();
    const slot = await result('getSlot');
    const signature = await result('sendTransaction', [await wire([transfer(payer.address, new Keypair().address, 1_000_000)], payer), { encoding: 'base64' }]);
    assert.equal((await statusOf(signature)).slot, slot);
    assert.equal(await result('getSlot'), slot + 1);
    assert.equal(await result('getBlockHeight'), slot + 1);
  });

  test('localnet_setTime pins the Clock sysvar; null returns it to the wall clock', async () => {
    const unixTimestamp = async () => {
      const clock = (await result('getAccountInfo', [CLOCK, { encoding: 'base64' }])).value;
      return Number(Buffer.from(clock.data[0], 'base64').readBigInt64LE(32));
    };
    assert.equal(await result('localnet_setTime', [1767225600]), 1767225600);
    assert.equal(await unixTimestamp(), 1767225600);
    await result('localnet_setTime', [null]);
    assert.ok(Math.abs(await unixTimestamp() - Date.now() / 1000) <= 2);
  });

  test('the read methods answer in Solana shapes', async () => {
    const slot = await result('getSlot');
    assert.equal(await result('getHealth'), 'ok');
    assert.deepEqual(await result('getVersion'), { 'solana-core': '2.2.0-localnet', 'feature-set': 0 });
    assert.equal(typeof await result('getGenesisHash'), 'string');
    assert.deepEqual(await result('getEpochInfo'), {
      absoluteSlot: slot, blockHeight: slot, epoch: 0, slotIndex: slot, slotsInEpoch: 432000,
      transactionCount: (await result('getEpochInfo')).transactionCount,
    });
    assert.equal(await result('getMinimumBalanceForRentExemption', [165]), 2039280);

    const mint = (await result('getMultipleAccounts', [[MINT, new Keypair().address], { encoding: 'base64' }])).value;
    assert.equal(mint[1], null);
    assert.deepEqual({ ...mint[0], data: undefined }, {
      data: undefined, executable: false, lamports: 1461600, owner: TOKEN_PROGRAM, rentEpoch: 18446744073709551615, space: 82,
    });
    assert.equal(Buffer.from(mint[0].data[0], 'base64')[44], 6); // decimals

    const payer = new Keypair();
    const { blockhash } = (await result('getLatestBlockhash')).value;
    const message = Buffer.from(getTransactionEncoder().encode(signedTransaction([transfer(payer.address, MINT, 1)], payer, blockhash)))
      .subarray(1 + 64).toString('base64');
    assert.equal((await result('getFeeForMessage', [message])).value, 5000);
    assert.deepEqual((await result('getSignatureStatuses', [['1'.repeat(64)]])).value, [null]);
    assert.equal(await result('getTransaction', ['1'.repeat(64)]), null);
  });

  test('JSON-RPC envelope: parse errors, invalid requests, unknown methods, batches and notifications', async () => {
    assert.deepEqual(await post('{"jsonrpc":'), { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
    assert.deepEqual(await post({ id: 1, method: 'getSlot' }), { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null });
    assert.deepEqual(await post([]), { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null });
    assert.deepEqual(await call('getBlocks'), { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: lastId });
    assert.equal((await call('getBalance', ['not an address'])).error.code, -32602);
    assert.equal((await call('sendTransaction', ['AAAA', { encoding: 'base64' }])).error.code, -32602);
    assert.equal(await post({ jsonrpc: '2.0', method: 'getSlot' }), null);
    const batch = await post([
      { jsonrpc: '2.0', id: 'a', method: 'getHealth' }, { jsonrpc: '2.0', method: 'getSlot' }, { jsonrpc: '2.0', id: 'b', method: 'nope' },
    ]);
    assert.deepEqual(batch, [
      { jsonrpc: '2.0', result: 'ok', id: 'a' },
      { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 'b' },
    ]);
  });
});

describe('the process', () => {
  test('with --slot-ms slots advance on their own; with --exit-on-stdin-close it exits when its stdin closes', async () => {
    const { child, rpc_url: url } = await start(['--slot-ms', '20', '--exit-on-stdin-close']);
    const slot = async () => (await (await fetch(url, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"getSlot"}',
    })).json()).result;
    const first = await slot();
    await new Promise((resolve) => { setTimeout(resolve, 200); });
    assert.ok(await slot() >= first + 3);
    child.stdin.end();
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });

  test('SIGTERM stops it cleanly', async () => {
    localnet.child.kill('SIGTERM');
    const [code] = await once(localnet.child, 'exit');
    assert.equal(code, 0);
  });
});
