// The chain: one LiteSVM holding the agent-wallet program, SPL Token, the Associated Token Account
// program and a USDC-like mint, run like a single validator: slots whose blockhashes age out after
// 150 blocks, durable nonces, a Clock sysvar that follows the wall clock, and a history of landed
// transactions.
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { FailedTransactionMetadata, LiteSVM, TransactionMetadata } from 'litesvm';
import { getProgramDerivedAddress, getTransactionEncoder } from '@solana/kit';
import { invalidParam, preflightFailure, signatureVerificationFailure, transactionErrorJson } from './errors.mjs';
import {
  Bytes, Keypair, SYSTEM_PROGRAM, TOKEN_PROGRAM, addressOf, ata, base58, bytesOf, createAtaIdempotent, mintTo,
  signedTransaction, transfer,
} from './solana.mjs';
import { Transaction } from './transaction.mjs';

/** Blocks a blockhash stays usable for: lastValidBlockHeight is its block height + 150. */
const MAX_PROCESSING_AGE = 150;
const LAMPORTS_PER_SIGNATURE = 5000n;
const USDC_DECIMALS = 6;
const FAUCET_LAMPORTS = 10n ** 18n; // a billion SOL
const MINT_SIZE = 82;
const TOKEN_ACCOUNT_SIZE = 165;
const NONCE_ACCOUNT_SIZE = 80;
const ADVANCE_NONCE_ACCOUNT = 4;
const UPGRADEABLE_LOADER = 'BPFLoaderUpgradeab1e11111111111111111111111';
const CONFIGURE = 14;

const transactionEncoder = getTransactionEncoder();

/** Emits 'landed' with each transaction record as it lands. */
export class Chain extends EventEmitter {
  #pinnedTime = null;

  /** `program`: the bytes of the agent-wallet shared object; `mint`: the address of the USDC-like mint. */
  constructor({ programId, program, mint }) {
    super();
    // LiteSVM's own blockhash check accepts its latest blockhash only, so the queue of the last 150
    // is kept here; signatures are verified here too (-32003 before any simulation, and
    // simulateTransaction without sigVerify).
    this.svm = new LiteSVM().withSigverify(false).withBlockhashCheck(false);
    const schedule = this.svm.getEpochSchedule(); // epochs of 432,000 slots from slot 0
    schedule.warmup = false;
    schedule.firstNormalEpoch = 0n;
    schedule.firstNormalSlot = 0n;
    this.svm.setEpochSchedule(schedule);
    this.slotsPerEpoch = Number(schedule.slotsPerEpoch);
    this.slot = 0;
    this.#syncClock();
    this.svm.addProgram(programId, program);
    this.programId = programId;
    this.faucet = new Keypair(); // pays airdrops and the hooks' transactions; the mint authority
    this.mint = mint;
    this.#setAccount(this.faucet.address, FAUCET_LAMPORTS, new Uint8Array(), SYSTEM_PROGRAM);
    this.#setAccount(mint, this.minimumBalance(MINT_SIZE), mintData(this.faucet.address), TOKEN_PROGRAM);
    this.genesisHash = this.svm.latestBlockhash();
    this.blockhashes = new Map([[this.genesisHash, 0]]); // blockhash -> block height that made it, oldest first
    this.records = new Map(); // signature -> landed transaction
  }

  get blockHeight() {
    return this.slot;
  }

  /** The Clock sysvar's unix_timestamp: the wall clock in whole seconds, unless pinned. */
  now() {
    return this.#pinnedTime ?? Math.floor(Date.now() / 1000);
  }

  /** Pins unix_timestamp to `unixSeconds`; null follows the wall clock again. */
  setTime(unixSeconds) {
    this.#pinnedTime = unixSeconds;
    this.#syncClock();
    return this.now();
  }

  /** Makes `n` new blocks, each with a new blockhash; blockhashes older than 150 blocks expire. */
  advanceSlots(n) {
    for (let i = 0; i < n; i++) {
      this.slot += 1;
      this.svm.expireBlockhash();
      this.blockhashes.set(this.svm.latestBlockhash(), this.slot);
    }
    for (const [blockhash, height] of this.blockhashes) {
      if (this.blockHeight - height <= MAX_PROCESSING_AGE) break;
      this.blockhashes.delete(blockhash);
    }
    this.#syncClock();
  }

  epochInfo() {
    return {
      absoluteSlot: this.slot, blockHeight: this.blockHeight, epoch: Math.floor(this.slot / this.slotsPerEpoch),
      slotIndex: this.slot % this.slotsPerEpoch, slotsInEpoch: this.slotsPerEpoch, transactionCount: this.records.size,
    };
  }

  latestBlockhash() {
    return { blockhash: this.svm.latestBlockhash(), lastValidBlockHeight: this.blockHeight + MAX_PROCESSING_AGE };
  }

  isBlockhashValid(blockhash) {
    return this.blockhashes.has(blockhash);
  }

  /** The account (@solana/kit's EncodedAccount), or null. */
  account(address) {
    this.#syncClock();
    const account = this.svm.getAccount(address);
    return account.exists ? account : null;
  }

  /** The SPL Token account at `address` with its mint's decimals; refused like getTokenAccountBalance. */
  tokenBalance(address) {
    const account = this.account(address);
    if (!account) throw invalidParam('could not find account');
    const token = tokenAccount(account);
    if (!token) throw invalidParam('not a Token account');
    const decimals = this.#decimals(token.mint);
    if (decimals === null) throw invalidParam('could not find mint');
    return { ...token, decimals };
  }

  minimumBalance(size) {
    return this.svm.minimumBalanceForRentExemption(BigInt(size));
  }

  /** 5000 lamports a signature; null when the message's blockhash has expired and it uses no durable nonce. */
  fee(message) {
    return this.#lifetimeValid(message) ? signatureFee(message) : null;
  }

  record(signature) {
    return this.records.get(signature) ?? null;
  }

  /** Executes without landing: {err, logs, unitsConsumed, returnData, innerInstructions}. */
  simulate(transaction) {
    const refusal = this.#refusal(transaction);
    if (refusal) return refused(refusal);
    this.#syncClock();
    return outcome(this.svm.simulateTransaction(transaction.forLiteSvm()));
  }

  /**
   * sendTransaction: checks the signatures, refuses an expired blockhash or a processed signature,
   * simulates first unless `skipPreflight`, and lands the transaction (failed in execution or not).
   * Returns its signature; a refusal throws the RPC error and changes nothing.
   */
  send(transaction, { skipPreflight = false } = {}) {
    if (!transaction.verifySignatures()) throw signatureVerificationFailure();
    const refusal = this.#refusal(transaction);
    if (refusal) throw preflightFailure(refused(refusal));
    if (!skipPreflight) {
      const simulation = this.simulate(transaction);
      if (simulation.err) throw preflightFailure(simulation);
    }
    return this.#land(transaction);
  }

  /** Transfers lamports from the faucet; returns the transaction's signature. */
  airdrop(address, lamports) {
    return this.#submit([transfer(this.faucet.address, address, lamports)]);
  }

  /** Creates `owner`'s associated token account of the mint if missing and mints `amount` to it. */
  async mintUsdc(owner, amount) {
    const { address } = await ata(owner, this.mint);
    this.#submit([
      createAtaIdempotent(this.faucet.address, address, owner, this.mint),
      mintTo(this.mint, address, this.faucet.address, amount),
    ]);
    return address;
  }

  /**
   * Configures the program as its upgrade authority (the faucet, recorded in a ProgramData account
   * written here, since LiteSVM loads the program apart): `registrar` may open treasuries, of the mint.
   */
  async configure(registrar) {
    const [programData] = await getProgramDerivedAddress({ programAddress: UPGRADEABLE_LOADER, seeds: [bytesOf(this.programId)] });
    const data = new Bytes().u32(3).u64(0).u8(1).key(this.faucet.address).done();
    this.#setAccount(programData, this.minimumBalance(data.length), data, UPGRADEABLE_LOADER);
    const [config, bump] = await getProgramDerivedAddress({ programAddress: this.programId, seeds: ['config'] });
    const signature = this.#submit([{
      programId: this.programId,
      accounts: [
        { address: this.faucet.address, signer: true, writable: true }, { address: config, signer: false, writable: true },
        { address: programData, signer: false, writable: false }, { address: this.mint, signer: false, writable: false },
        { address: SYSTEM_PROGRAM, signer: false, writable: false },
      ],
      data: new Bytes().u8(CONFIGURE).u8(bump).key(registrar).done(),
    }]);
    const { err, logs } = this.records.get(signature);
    if (err !== null) throw new Error(`configure failed: ${JSON.stringify(err)}\n${logs.join('\n')}`);
  }

  #submit(instructions) {
    const signed = signedTransaction(instructions, this.faucet, this.svm.latestBlockhash());
    return this.send(new Transaction(transactionEncoder.encode(signed)));
  }

  #land(transaction) {
    const { message, signature } = transaction;
    const nonce = this.#durableNonce(message);
    this.#syncClock();
    const pre = this.#balances(message.accounts);
    const result = outcome(this.svm.sendTransaction(transaction.forLiteSvm()));
    if (result.err && this.svm.getTransaction(signature) === null) throw preflightFailure(result); // refused before execution
    if (result.err && nonce) this.#advanceNonce(nonce);
    const record = {
      signature, transaction, slot: this.slot, blockTime: this.now(), fee: signatureFee(message), ...result,
      pre, post: this.#balances(message.accounts),
    };
    this.records.set(signature, record);
    this.advanceSlots(1);
    this.emit('landed', record);
    return signature;
  }

  /** Why a validator would not even execute it: an expired blockhash, or a signature it has processed. */
  #refusal(transaction) {
    if (!this.#lifetimeValid(transaction.message)) return 'BlockhashNotFound';
    if (this.records.has(transaction.signature)) return 'AlreadyProcessed';
    return null;
  }

  #lifetimeValid(message) {
    return this.blockhashes.has(message.blockhash) || this.#durableNonce(message) !== null;
  }

  /**
   * The nonce account when the message is a durable-nonce transaction: its first instruction is
   * System AdvanceNonceAccount on a writable initialized nonce account, signed by its authority,
   * whose stored nonce is the message's blockhash.
   */
  #durableNonce(message) {
    const ix = message.instructions[0];
    if (!ix || message.accounts[ix.programIdIndex] !== SYSTEM_PROGRAM || ix.accounts.length === 0) return null;
    if (ix.data.length < 4 || Buffer.from(ix.data).readUInt32LE(0) !== ADVANCE_NONCE_ACCOUNT) return null;
    if (!message.isWritable(ix.accounts[0])) return null;
    const address = message.accounts[ix.accounts[0]];
    const account = this.svm.getAccount(address);
    if (!account.exists || account.programAddress !== SYSTEM_PROGRAM || account.data.length !== NONCE_ACCOUNT_SIZE) return null;
    const data = Buffer.from(account.data);
    if (data.readUInt32LE(4) !== 1 || !data.subarray(40, 72).equals(bytesOf(message.blockhash))) return null;
    const authority = addressOf(data.subarray(8, 40));
    return ix.accounts.some((i) => message.isSigner(i) && message.accounts[i] === authority) ? address : null;
  }

  /** A durable-nonce transaction that failed in execution still advances its nonce, as on Solana. */
  #advanceNonce(address) {
    const account = this.svm.getAccount(address);
    const data = Buffer.from(account.data);
    data.set(createHash('sha256').update('DURABLE_NONCE').update(bytesOf(this.svm.latestBlockhash())).digest(), 40);
    this.#setAccount(address, account.lamports, data, account.programAddress);
  }

  #balances(accounts) {
    const lamports = [];
    const tokens = [];
    accounts.forEach((address, accountIndex) => {
      const account = this.svm.getAccount(address);
      lamports.push(account.exists ? account.lamports : 0n);
      const token = account.exists ? tokenAccount(account) : null;
      const decimals = token && this.#decimals(token.mint);
      if (token && decimals !== null) tokens.push({ accountIndex, ...token, decimals });
    });
    return { lamports, tokens };
  }

  #decimals(mint) {
    const account = this.svm.getAccount(mint);
    if (!account.exists || account.programAddress !== TOKEN_PROGRAM || account.data.length !== MINT_SIZE) return null;
    return account.data[44];
  }

  #setAccount(address, lamports, data, owner) {
    this.svm.setAccount({ address, lamports, data, programAddress: owner, executable: false });
  }

  #syncClock() {
    const clock = this.svm.getClock();
    clock.slot = BigInt(this.slot);
    clock.epoch = BigInt(Math.floor(this.slot / this.slotsPerEpoch));
    clock.unixTimestamp = BigInt(this.now());
    this.svm.setClock(clock);
  }
}

/** The fee LiteSVM charges (as Solana does without priority fees): 5000 lamports a signature. */
const signatureFee = (message) => LAMPORTS_PER_SIGNATURE * BigInt(message.numSigners);

/** An initialized SPL Token mint of 6 decimals, supply 0, no freeze authority. */
const mintData = (authority) => new Bytes().u32(1).key(authority).u64(0).u8(USDC_DECIMALS).u8(1).u32(0)
  .raw(new Uint8Array(32)).done();

function tokenAccount(account) {
  if (account.programAddress !== TOKEN_PROGRAM || account.data.length !== TOKEN_ACCOUNT_SIZE) return null;
  const data = Buffer.from(account.data);
  return { mint: addressOf(data.subarray(0, 32)), owner: addressOf(data.subarray(32, 64)), amount: data.readBigUInt64LE(64) };
}

/** The outcome of a transaction refused before execution. */
const refused = (err) => ({ err, logs: [], unitsConsumed: 0, returnData: null, innerInstructions: [] });

/** What a LiteSVM execution result shows an RPC client. */
function outcome(result) {
  const failed = result instanceof FailedTransactionMetadata;
  const meta = failed ? result.meta() : result instanceof TransactionMetadata ? result : result.meta();
  const returned = meta.returnData();
  return {
    err: failed ? transactionErrorJson(result.err()) : null,
    logs: meta.logs(),
    unitsConsumed: Number(meta.computeUnitsConsumed()),
    returnData: returned.data().length === 0 ? null
      : { programId: addressOf(returned.programId()), data: [Buffer.from(returned.data()).toString('base64'), 'base64'] },
    innerInstructions: meta.innerInstructions()
      .map((list, index) => ({
        index,
        instructions: list.map((inner) => {
          const ix = inner.instruction();
          return {
            programIdIndex: ix.programIdIndex(), accounts: [...ix.accounts()], data: base58.encode(ix.data()),
            stackHeight: inner.stackHeight(),
          };
        }),
      }))
      .filter((entry) => entry.instructions.length > 0),
  };
}
